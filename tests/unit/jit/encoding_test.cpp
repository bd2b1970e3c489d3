// tests/unit/jit/encoding_test.cpp — the byte forms of patch sites on both architectures,
// checked against llvm-mc's encodings (forward and backward calls).
#include "jit/engine.hpp"

#include <gtest/gtest.h>

namespace beamlet::jit {
namespace {

using Bytes = std::vector<std::uint8_t>;

TEST(PatchSiteEncoding, SiteSizes) {
    EXPECT_EQ(Engine::site_size(Arch::X86_64), 5u);
    EXPECT_EQ(Engine::site_size(Arch::AArch64), 8u);
}

TEST(PatchSiteEncoding, X86TestAndCallShareTheirRel32) {
    // rel32 = 0x2000 - (0x1000 + 5) = 0xFFB.
    EXPECT_EQ(Engine::disabled_form(Arch::X86_64, 0x1000, 0x2000), (Bytes{0xA9, 0xFB, 0x0F, 0x00, 0x00}));
    EXPECT_EQ(Engine::enabled_form(Arch::X86_64, 0x1000, 0x2000), (Bytes{0xE8, 0xFB, 0x0F, 0x00, 0x00}));
    // Backward: rel32 = 0x1000 - 0x2005 = -0x1005 (llvm-mc: `callq -4101`).
    EXPECT_EQ(Engine::disabled_form(Arch::X86_64, 0x2000, 0x1000), (Bytes{0xA9, 0xFB, 0xEF, 0xFF, 0xFF}));
    EXPECT_EQ(Engine::enabled_form(Arch::X86_64, 0x2000, 0x1000), (Bytes{0xE8, 0xFB, 0xEF, 0xFF, 0xFF}));
    // Far apart, still within reach: the full 32 bits are used.
    EXPECT_EQ(Engine::enabled_form(Arch::X86_64, 0x7F00'0000'0000, 0x7F00'7FFF'0005),
              (Bytes{0xE8, 0x00, 0x00, 0xFF, 0x7F}));
}

TEST(PatchSiteEncoding, AArch64MovThenNopOrBl) {
    const Bytes mov_x17_x30 = {0xF1, 0x03, 0x1E, 0xAA};
    const Bytes nop = {0x1F, 0x20, 0x03, 0xD5};
    auto site = [&](const Bytes& second) {
        Bytes bytes = mov_x17_x30;
        bytes.insert(bytes.end(), second.begin(), second.end());
        return bytes;
    };
    // The BL is the second word: 0x10100 - 0x10004 = +252 (llvm-mc: `bl #252` = 3F 00 00 94).
    EXPECT_EQ(Engine::disabled_form(Arch::AArch64, 0x10000, 0x10100), site(nop));
    EXPECT_EQ(Engine::enabled_form(Arch::AArch64, 0x10000, 0x10100), site({0x3F, 0x00, 0x00, 0x94}));
    // Backward: 0x8000 - 0x10004 = -32772 (llvm-mc: `bl #-32772` = FF DF FF 97).
    EXPECT_EQ(Engine::disabled_form(Arch::AArch64, 0x10000, 0x8000), site(nop));
    EXPECT_EQ(Engine::enabled_form(Arch::AArch64, 0x10000, 0x8000), site({0xFF, 0xDF, 0xFF, 0x97}));
}

}  // namespace
}  // namespace beamlet::jit
