// bif/md5.cpp — erlang:md5/1 and the md5_init/update/final context API (RFC 1321). The context
// is a binary holding the state below, as OTP's is an opaque binary.
#include <cstdint>
#include <cstring>
#include <string>

#include "bif/bifs.hpp"
#include "vm/binary.hpp"
#include "vm/md5.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

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
