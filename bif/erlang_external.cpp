// bif/erlang_external.cpp — term_to_binary, binary_to_term and friends (vm/external_term.*).
#include <string>

#include "bif/bifs.hpp"
#include "vm/binary.hpp"
#include "vm/external_term.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

// term_to_binary/2's options: compressed, {compressed, 0..9}, {minor_version, 0..2},
// deterministic, local. False on anything else (badarg).
bool encode_options(Term list, EncodeOptions* opt) {
    BEAMLET_CACHED_ATOM(am_compressed, "compressed");
    BEAMLET_CACHED_ATOM(am_minor_version, "minor_version");
    BEAMLET_CACHED_ATOM(am_deterministic, "deterministic");
    BEAMLET_CACHED_ATOM(am_local, "local");
    for (; is_list(list); list = cdr(list)) {
        Term o = car(list);
        if (o == am_compressed) {
            opt->compression = 6;
        } else if (o == am_deterministic) {
            opt->deterministic = true;
        } else if (o == am_local) {
            // The local node is the only one.
        } else if (is_tuple(o) && tuple_arity(o) == 2 && is_small(tuple_element(o, 1))) {
            SWord v = small_value(tuple_element(o, 1));
            if (tuple_element(o, 0) == am_compressed && v >= 0 && v <= 9) opt->compression = int(v);
            else if (tuple_element(o, 0) == am_minor_version && v >= 0 && v <= 2) opt->minor_version = int(v);
            else return false;
        } else {
            return false;
        }
    }
    return is_nil(list);
}

Term to_binary(Process* p, Term t, const EncodeOptions& opt) {
    std::string out;
    encode_external(t, opt, &out);
    charge_work(p, out.size(), 64);
    return make_binary(p, out);
}

Term from_binary(Process* p, Term bin, bool safe, bool used) {
    if (!is_binary(bin)) return p->badarg();
    BitView v = bit_view(bin);
    std::string copy;
    const std::uint8_t* bytes = v.aligned_bytes();
    if (!v.is_aligned()) {
        copy.resize(v.size_bytes());
        copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(copy.data()), 0, v.bit_size);
        bytes = reinterpret_cast<const std::uint8_t*>(copy.data());
    }
    DecodeResult r = decode_external(p, {bytes, v.size_bytes()}, safe);
    charge_work(p, v.size_bytes(), 24);
    if (r.status != DecodeStatus::Ok) return p->badarg();
    if (used) return make_tuple_on(p, {r.term, make_small(SWord(r.used))});
    return r.term;
}

}  // namespace

Term bif_term_to_binary1(Process* p, Term* a) { return to_binary(p, a[0], EncodeOptions{}); }

Term bif_term_to_binary2(Process* p, Term* a) {
    EncodeOptions opt;
    if (!encode_options(a[1], &opt)) return p->badarg();
    return to_binary(p, a[0], opt);
}

// term_to_iovec: the same bytes, as a list of one binary.
Term bif_term_to_iovec1(Process* p, Term* a) {
    Term bin = bif_term_to_binary1(p, a);
    return make_cons_on(p->alloc(2), bin, NIL);
}

Term bif_term_to_iovec2(Process* p, Term* a) {
    Term bin = bif_term_to_binary2(p, a);
    if (bin == THE_NON_VALUE) return bin;
    return make_cons_on(p->alloc(2), bin, NIL);
}

Term bif_binary_to_term1(Process* p, Term* a) { return from_binary(p, a[0], false, false); }

Term bif_binary_to_term2(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_safe, "safe");
    BEAMLET_CACHED_ATOM(am_used, "used");
    bool safe = false, used = false;
    Term l = a[1];
    for (; is_list(l); l = cdr(l)) {
        if (car(l) == am_safe) safe = true;
        else if (car(l) == am_used) used = true;
        else return p->badarg();
    }
    if (!is_nil(l)) return p->badarg();
    return from_binary(p, a[0], safe, used);
}

Term bif_external_size1(Process*, Term* a) {
    std::string out;
    encode_external(a[0], EncodeOptions{}, &out);
    return make_small(SWord(out.size()));
}

Term bif_external_size2(Process* p, Term* a) {
    EncodeOptions opt;
    if (!encode_options(a[1], &opt)) return p->badarg();
    std::string out;
    encode_external(a[0], opt, &out);
    return make_small(SWord(out.size()));
}

}  // namespace beamlet::bif
