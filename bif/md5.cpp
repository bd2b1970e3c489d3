// bif/md5.cpp — erlang:md5/1 and the md5_init/update/final context API (RFC 1321). The context
// is a binary holding the state below, as OTP's is an opaque binary.
#include <cstdint>
#include <cstring>
#include <string>

#include "bif/bifs.hpp"
#include "vm/binary.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

struct Md5 {
    std::uint32_t state[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
    std::uint64_t length = 0;  // bytes
    std::uint8_t buffer[64] = {};

    static std::uint32_t rotl(std::uint32_t x, int c) { return (x << c) | (x >> (32 - c)); }

    void block(const std::uint8_t* p) {
        static const std::uint32_t K[64] = {
            0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
            0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
            0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
            0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
            0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
            0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
            0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
            0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
        static const int S[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                  5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                                  4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                  6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
        std::uint32_t m[16];
        for (int i = 0; i < 16; ++i)
            m[i] = std::uint32_t(p[4 * i]) | (std::uint32_t(p[4 * i + 1]) << 8) | (std::uint32_t(p[4 * i + 2]) << 16) |
                   (std::uint32_t(p[4 * i + 3]) << 24);
        std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        for (int i = 0; i < 64; ++i) {
            std::uint32_t f;
            int g;
            if (i < 16) {
                f = (b & c) | (~b & d);
                g = i;
            } else if (i < 32) {
                f = (d & b) | (~d & c);
                g = (5 * i + 1) % 16;
            } else if (i < 48) {
                f = b ^ c ^ d;
                g = (3 * i + 5) % 16;
            } else {
                f = c ^ (b | ~d);
                g = (7 * i) % 16;
            }
            std::uint32_t next = d;
            d = c;
            c = b;
            b = b + rotl(a + f + K[i] + m[g], S[i]);
            a = next;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
    }

    void update(const std::uint8_t* data, std::size_t n) {
        std::size_t used = length % 64;
        length += n;
        while (n > 0) {
            std::size_t take = std::min<std::size_t>(64 - used, n);
            std::memcpy(buffer + used, data, take);
            used += take;
            data += take;
            n -= take;
            if (used == 64) {
                block(buffer);
                used = 0;
            }
        }
    }

    void digest(std::uint8_t out[16]) {
        std::uint64_t bits = length * 8;
        static const std::uint8_t pad[64] = {0x80};
        std::size_t used = length % 64;
        update(pad, used < 56 ? 56 - used : 120 - used);
        std::uint8_t len[8];
        for (int i = 0; i < 8; ++i) len[i] = std::uint8_t(bits >> (8 * i));
        update(len, 8);
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) out[4 * i + j] = std::uint8_t(state[i] >> (8 * j));
    }
};

bool context_of(Term t, Md5* ctx) {
    if (!is_binary(t)) return false;
    BitView v = bit_view(t);
    if (v.size_bytes() != sizeof(Md5) || !v.is_aligned()) return false;
    std::memcpy(static_cast<void*>(ctx), v.aligned_bytes(), sizeof(Md5));
    return true;
}

Term context_term(Process* p, const Md5& ctx) {
    return make_binary(p, reinterpret_cast<const std::uint8_t*>(&ctx), sizeof(Md5));
}

}  // namespace

Term bif_md5(Process* p, Term* a) {
    std::string bytes;
    if (!iolist_to_bytes(a[0], &bytes)) return p->badarg();
    Md5 ctx;
    ctx.update(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    std::uint8_t out[16];
    ctx.digest(out);
    return make_binary(p, out, 16);
}

Term bif_md5_init(Process* p, Term*) { return context_term(p, Md5{}); }

Term bif_md5_update(Process* p, Term* a) {
    Md5 ctx;
    std::string bytes;
    if (!context_of(a[0], &ctx) || !iolist_to_bytes(a[1], &bytes)) return p->badarg();
    ctx.update(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    return context_term(p, ctx);
}

Term bif_md5_final(Process* p, Term* a) {
    Md5 ctx;
    if (!context_of(a[0], &ctx)) return p->badarg();
    std::uint8_t out[16];
    ctx.digest(out);
    return make_binary(p, out, 16);
}

}  // namespace beamlet::bif
