// tests/unit/jit/layout_test.cpp — what LLVM 19 emits for "patchable-function-entry" with
// prefix data, for both targets, from an object file: the NOPs the patch plugin expects sit at
// the entry, and the 16-byte prefix right before it. AArch64 is checked this way because no
// AArch64 machine runs these tests.
#include <gtest/gtest.h>

#include <llvm/IR/LegacyPassManager.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include "tests/unit/jit/jit_test_support.hpp"

namespace beamlet::jit {
namespace {

using Bytes = std::vector<std::uint8_t>;

void initialize_targets() {
    static std::once_flag once;
    std::call_once(once, [] {
        LLVMInitializeX86TargetInfo();
        LLVMInitializeX86Target();
        LLVMInitializeX86TargetMC();
        LLVMInitializeX86AsmPrinter();
        LLVMInitializeAArch64TargetInfo();
        LLVMInitializeAArch64Target();
        LLVMInitializeAArch64TargetMC();
        LLVMInitializeAArch64AsmPrinter();
    });
}

// The function `f` compiled for [triple] as the JIT compiles it (Small, PIC, no optimization),
// with [entry_nops] in "patchable-function-entry".
struct CompiledFunction {
    Bytes text;               // the whole .text section
    std::uint64_t entry = 0;  // f's offset in it
};

CompiledFunction compile_for(const std::string& triple, const std::string& entry_nops) {
    initialize_targets();
    std::string error;
    const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
    EXPECT_NE(target, nullptr) << error;
    if (!target) return {};
    std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
        triple, "generic", "", llvm::TargetOptions(), llvm::Reloc::PIC_, llvm::CodeModel::Small, llvm::CodeGenOptLevel::None));

    llvm::LLVMContext context;
    llvm::Module module("layout", context);
    module.setTargetTriple(triple);
    module.setDataLayout(machine->createDataLayout());
    test::define_add(module, "f", entry_nops);

    llvm::SmallVector<char, 0> object;
    llvm::raw_svector_ostream stream(object);
    llvm::legacy::PassManager passes;
    EXPECT_FALSE(machine->addPassesToEmitFile(passes, stream, nullptr, llvm::CodeGenFileType::ObjectFile));
    passes.run(module);

    auto file = llvm::object::ObjectFile::createObjectFile(
        llvm::MemoryBufferRef(llvm::StringRef(object.data(), object.size()), "layout.o"));
    EXPECT_TRUE(static_cast<bool>(file));
    if (!file) {
        llvm::consumeError(file.takeError());
        return {};
    }
    CompiledFunction result;
    for (const llvm::object::SymbolRef& symbol : (*file)->symbols()) {
        if (llvm::cantFail(symbol.getName()) != "f") continue;
        // In a relocatable ELF object a symbol's value is its offset in its section.
        result.entry = llvm::cantFail(symbol.getValue());
        const llvm::StringRef text = llvm::cantFail(llvm::cantFail(symbol.getSection())->getContents());
        result.text.assign(text.begin(), text.end());
    }
    return result;
}

// The 16 bytes before the entry: the prefix data {0, PREFIX_TAG}, little endian.
Bytes expected_prefix() {
    Bytes prefix(8, 0);
    for (int shift = 0; shift < 64; shift += 8) prefix.push_back(static_cast<std::uint8_t>(test::PREFIX_TAG >> shift));
    return prefix;
}

void expect_layout(const CompiledFunction& f, const Bytes& entry_nops) {
    ASSERT_GE(f.entry, 16u);
    ASSERT_LE(f.entry + entry_nops.size(), f.text.size());
    // 16-byte aligned entry: the function alignment applies to the start of the prefix.
    EXPECT_EQ(f.entry % 16, 0u);
    EXPECT_EQ(Bytes(f.text.begin() + f.entry, f.text.begin() + f.entry + entry_nops.size()), entry_nops);
    EXPECT_EQ(Bytes(f.text.begin() + f.entry - 16, f.text.begin() + f.entry), expected_prefix());
}

TEST(PatchableEntryLayout, X86_64HasOneFiveByteNopAfterThePrefix) {
    expect_layout(compile_for("x86_64-linux-gnu", "5"), {0x0F, 0x1F, 0x44, 0x00, 0x08});
}

TEST(PatchableEntryLayout, AArch64HasTwoNopWordsAfterThePrefix) {
    expect_layout(compile_for("aarch64-linux-gnu", "2"), {0x1F, 0x20, 0x03, 0xD5, 0x1F, 0x20, 0x03, 0xD5});
}

TEST(PatchableEntryLayout, WithoutTheAttributeTheEntryIsTheBody) {
    // What the patch plugin rejects: no NOPs at the entry.
    const CompiledFunction f = compile_for("x86_64-linux-gnu", "");
    ASSERT_LE(f.entry + 5, f.text.size());
    EXPECT_NE(Bytes(f.text.begin() + f.entry, f.text.begin() + f.entry + 5), (Bytes{0x0F, 0x1F, 0x44, 0x00, 0x08}));
}

}  // namespace
}  // namespace beamlet::jit
