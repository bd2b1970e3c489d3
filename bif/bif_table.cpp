// bif/bif_table.cpp — registers the BIFs of bif/bifs.def and helpers shared by the BIF files.
#include "bif/bifs.hpp"

#include "vm/atom_table.hpp"
#include "vm/binary.hpp"

namespace beamlet::bif {

using namespace vm;

void register_bifs(Vm& vm) {
#define BEAMLET_BIF(module, name, arity, fn) vm.register_bif(atoms::module, atom(name), arity, fn);
#include "bif/bifs.def"
#undef BEAMLET_BIF
}

bool list_to_bytes(Term t, std::string* out) {
    for (; is_list(t); t = cdr(t)) {
        Term c = car(t);
        if (!is_small(c) || small_value(c) < 0 || small_value(c) > 255) return false;
        out->push_back(char(small_value(c)));
    }
    return is_nil(t);
}

static bool iolist_rec(Term t, std::string* out, int depth) {
    if (depth > 100000) return false;
    if (is_bitstring(t)) {
        BitView v = bit_view(t);
        if (v.bit_size % 8) return false;
        if (v.is_aligned()) out->append(reinterpret_cast<const char*>(v.aligned_bytes()), v.size_bytes());
        else {
            std::string tmp(v.size_bytes(), '\0');
            copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(tmp.data()), 0, v.bit_size);
            out->append(tmp);
        }
        return true;
    }
    for (; is_list(t); t = cdr(t)) {
        Term c = car(t);
        if (is_small(c)) {
            if (small_value(c) < 0 || small_value(c) > 255) return false;
            out->push_back(char(small_value(c)));
        } else if (is_list(c) || is_nil(c) || is_bitstring(c)) {
            if (!iolist_rec(c, out, depth + 1)) return false;
        } else {
            return false;
        }
    }
    if (is_nil(t)) return true;
    if (is_bitstring(t)) return iolist_rec(t, out, depth + 1);
    return false;
}

bool iolist_to_bytes(Term t, std::string* out) { return iolist_rec(t, out, 0); }

Term bytes_to_list(Process* p, std::string_view s, Term tail) {
    Term* hp = p->alloc(2 * s.size());
    Term list = tail;
    for (std::size_t i = s.size(); i-- > 0;) {
        list = make_cons_on(hp, make_small(static_cast<unsigned char>(s[i])), list);
        hp += 2;
    }
    return list;
}

}  // namespace beamlet::bif
