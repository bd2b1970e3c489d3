// bif/bif_table.cpp — registers the BIFs of bif/bifs.def and helpers shared by the BIF files.
#include "bif/bifs.hpp"

#include <vector>

#include "vm/atom_table.hpp"
#include "vm/binary.hpp"

namespace beamlet::bif {

using namespace vm;

void register_bifs(Vm& vm) {
#define BEAMLET_BIF(module, name, arity, fn) vm.register_bif(atoms::module, atom(name), arity, fn);
#include "bif/bifs.def"
#undef BEAMLET_BIF
    install_ets(vm);
}

bool list_to_bytes(Term t, std::string* out) {
    for (; is_list(t); t = cdr(t)) {
        Term c = car(t);
        if (!is_small(c) || small_value(c) < 0 || small_value(c) > 255) return false;
        out->push_back(char(small_value(c)));
    }
    return is_nil(t);
}

// Appends the bytes of bitstring [t] if it is a whole number of bytes.
static bool append_binary(Term t, std::string* out) {
    BitView v = bit_view(t);
    if (v.bit_size % 8) return false;
    if (v.is_aligned()) {
        out->append(reinterpret_cast<const char*>(v.aligned_bytes()), v.size_bytes());
    } else {
        std::string tmp(v.size_bytes(), '\0');
        copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(tmp.data()), 0, v.bit_size);
        out->append(tmp);
    }
    return true;
}

// Walks an iolist with an explicit stack of the terms still to visit (the next one last), so
// that deeply nested iolists use no C++ stack.
static bool iolist_walk(Term root, std::string* out) {
    std::vector<Term> pending{root};
    while (!pending.empty()) {
        Term t = pending.back();
        pending.pop_back();
        if (is_nil(t)) continue;
        if (is_bitstring(t)) {
            if (!append_binary(t, out)) return false;
            continue;
        }
        if (!is_list(t)) return false;  // a tail or element that is neither list nor binary
        Term head = car(t);
        pending.push_back(cdr(t));
        if (is_small(head)) {
            if (small_value(head) < 0 || small_value(head) > 255) return false;
            out->push_back(char(small_value(head)));
        } else if (is_list(head) || is_nil(head) || is_bitstring(head)) {
            pending.push_back(head);
        } else {
            return false;
        }
    }
    return true;
}

bool iolist_to_bytes(Term t, std::string* out) { return iolist_walk(t, out); }

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
