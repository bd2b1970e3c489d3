// bif/bifs.hpp — the native BIFs of bif/bifs.def and their registration.
#pragma once

#include "vm/atom_table.hpp"
#include "vm/module.hpp"
#include "vm/process.hpp"
#include "vm/vm.hpp"

#include <initializer_list>
#include <string>
#include <string_view>

// A function-local constant for the atom [text] (interned once, thread-safely).
#define BEAMLET_CACHED_ATOM(name, text) static const ::beamlet::vm::Term name = ::beamlet::vm::atom(text)

namespace beamlet::bif {

#define BEAMLET_BIF(module, name, arity, fn) vm::Term fn(vm::Process* p, vm::Term* args);
#include "bif/bifs.def"
#undef BEAMLET_BIF

// Answers a process_info request {Ref, Item} from [from] about [p] (null if dead).
void answer_info_request(vm::Process* p, vm::Term from, vm::Term request, vm::Vm& vm);

// Registers every BIF of bif/bifs.def with [vm].
void register_bifs(vm::Vm& vm);

// Helpers shared by the BIF files.
// [t] as a flat byte string if it is a proper list of bytes (0..255); false otherwise.
bool list_to_bytes(vm::Term t, std::string* out);
// [t] as bytes if it is an iolist (bytes, binaries, nested lists) or a binary.
bool iolist_to_bytes(vm::Term t, std::string* out);
// A list of the bytes of [s] (as integers), allocated on [p].
vm::Term bytes_to_list(vm::Process* p, std::string_view s, vm::Term tail = vm::NIL);
// A new unique reference, allocated on [p] (make_ref/0).
vm::Term new_ref(vm::Process* p);

}  // namespace beamlet::bif

namespace beamlet::bif {
// A tuple of [elements] allocated on [p].
inline vm::Term make_tuple_on(vm::Process* p, std::initializer_list<vm::Term> elements) {
    vm::Term* hp = p->alloc(1 + elements.size());
    hp[0] = vm::make_arityval(elements.size());
    std::size_t i = 1;
    for (vm::Term e : elements) hp[i++] = e;
    return vm::make_boxed(hp);
}
}  // namespace beamlet::bif
