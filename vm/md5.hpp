// vm/md5.hpp — MD5 (RFC 1321): erlang:md5/1 and its context API (bif/md5.cpp), and a
// module's MD5 as the loader computes it (module_info(md5), beam_lib:md5/1).
#pragma once

#include <cstddef>
#include <cstdint>

namespace beamlet::vm {

struct Md5 {
    std::uint32_t state[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
    std::uint64_t length = 0;  // bytes
    std::uint8_t buffer[64] = {};

    void update(const std::uint8_t* data, std::size_t n);
    void digest(std::uint8_t out[16]);

private:
    void block(const std::uint8_t* p);
};

}  // namespace beamlet::vm
