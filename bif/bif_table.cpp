// bif/bif_table.cpp — registers the BIFs of bif/bifs.def and helpers shared by the BIF files.
#include "bif/bifs.hpp"

#include <algorithm>

#include "dist/distribution.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"

namespace beamlet::bif {

using namespace vm;

void register_bifs(Vm& vm) {
#define BEAMLET_BIF(module, name, arity, fn) vm.register_bif(atoms::module, atom(name), arity, fn);
#include "bif/bifs.def"
#undef BEAMLET_BIF
    install_ets(vm);
    install_persistent_terms(vm);
    vm.services.dist = std::make_unique<dist::Distribution>(vm);
}

bool list_to_bytes(Term t, std::string* out) {
    for (; is_list(t); t = cdr(t)) {
        Term c = car(t);
        if (!is_small(c) || small_value(c) < 0 || small_value(c) > 255) return false;
        out->push_back(char(small_value(c)));
    }
    return is_nil(t);
}

bool iolist_to_bytes(Term t, std::string* out) { return vm::iolist_bytes(t, out); }

Term bytes_to_list(Process* p, std::string_view s, Term tail) {
    Term* hp = p->alloc(2 * s.size());
    Term list = tail;
    for (std::size_t i = s.size(); i-- > 0;) {
        list = make_cons_on(hp, make_small(static_cast<unsigned char>(s[i])), list);
        hp += 2;
    }
    return list;
}

bool is_otp_bif(const vm::Export* e) {
    // NIF libraries on erts (prim_socket's nif_* functions are the socket NIF's), or beamlet's own.
    static const vm::Term not_bif_modules[] = {vm::atom("zlib"),    vm::atom("prim_buffer"), vm::atom("erl_tracer"),
                                               vm::atom("trace"),   vm::atom("beamlet"),     vm::atom("beamlet_file_tracer"),
                                               vm::atom("prim_socket")};
    static const vm::Term am_prim_file = vm::atom("prim_file");
    if (!e->is_bif() || e->erlang_in_otp.load(std::memory_order_relaxed)) return false;
    if (std::find(std::begin(not_bif_modules), std::end(not_bif_modules), e->module) != std::end(not_bif_modules))
        return false;
    return !(e->module == am_prim_file && vm::atom_text(e->function).ends_with("_nif"));
}

}  // namespace beamlet::bif
