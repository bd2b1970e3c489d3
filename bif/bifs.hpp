// bif/bifs.hpp — the native BIFs of bif/bifs.def and their registration.
#pragma once

#include "vm/atom_table.hpp"
#include "vm/module.hpp"
#include "vm/process.hpp"
#include "vm/utf8.hpp"
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

// Asks process [target] for [what] (process_info items, or an internal question) with a
// signal; the calling BIF traps into erts_internal:await_result/1 (OTP's) for the answer, which
// answer_info_request sends. Returns [if_dead] when [target] does not exist.
// [priority]: a system task's (check_process_code), more urgent than the target's own
// priority if need be; Low: as the target's.
vm::Term request_process_info(vm::Process* p, vm::Term* a, vm::Term target, vm::Term what, vm::Term if_dead,
                              vm::Priority priority = vm::Priority::Low);
// Answers a process_info request {Ref, Item} from [from] about [p] (null if dead).
void answer_info_request(vm::Process* p, vm::Term from, vm::Term request, vm::Vm& vm);

// Hooks the ETS layer into [vm] (owner exit: heirs and deletion).
void install_ets(vm::Vm& vm);
void install_persistent_terms(vm::Vm& vm);
vm::Term persistent_term_internal_state(vm::Process* p);
std::size_t ets_table_count(vm::Vm& vm);  // erlang:system_info(ets_count)
// erts_debug:set_internal_state(colliding_names, {Name, Count}): Count new atoms that share
// Name's bucket in the named-table map (at its current size), as erts's answers with names
// that collide in its meta name table (ets_SUITE:meta_wb).
vm::Term ets_colliding_names(vm::Process* p, vm::Term name, vm::Word count);
// The tid of the live table whose reference has ids [ids], or THE_NON_VALUE: a tid read back
// from its printed form (list_to_ref/1) names the table again, as erts's magic-ref table has it.
vm::Term ets_tid_of_ref(vm::Process* p, const vm::Word ids[3]);
vm::Term process_info_args(vm::Process* p);  // erts_debug:get_internal_state(process_info_args)  // erts_debug:get_internal_state(persistent_term)
// Registers every BIF of bif/bifs.def with [vm].
void register_bifs(vm::Vm& vm);
// Whether [e] is one of erts's BIFs (erlang:system_info(snifs), erlang:is_builtin/3): run
// natively here where OTP's module has an erlang:nif_error/1 stub for a BIF. Not those that
// OTP writes in Erlang (erlang:apply/2, ...), the functions of OTP's NIF libraries (zlib,
// prim_buffer, erl_tracer, prim_file's *_nif), nor beamlet's own modules.
bool is_otp_bif(const vm::Export* e);

// Helpers shared by the BIF files.
// [t] as a flat byte string if it is a proper list of bytes (0..255); false otherwise.
bool list_to_bytes(vm::Term t, std::string* out);
// [t] as bytes if it is an iolist (bytes, binaries, nested lists) or a binary.
bool iolist_to_bytes(vm::Term t, std::string* out);
// seq_trace's system flags and info (bif/seq_trace_bifs.cpp).
vm::Term set_sequential_tracer(vm::Process* p, vm::Term tracer);
vm::Term reset_seq_trace(vm::Process* p);
vm::Term sequential_tracer_info(vm::Process* p);
// A list of the bytes of [s] (as integers), allocated on [p].
vm::Term bytes_to_list(vm::Process* p, std::string_view s, vm::Term tail = vm::NIL);
// The characters of UTF-8 text [s] as a list (a byte that starts no valid sequence stands for
// itself), allocated on [p].
vm::Term utf8_to_list(vm::Process* p, std::string_view s);
// Continues the calling BIF in Erlang: [e] is called with the arguments the BIF got (its x
// registers, unchanged) and returns to the BIF's caller. The BIF returns what this returns.
inline vm::Term tail_call_erlang(vm::Process* p, const vm::Export* e) {
    p->ip = e->address();
    p->exception = vm::PendingException{};
    return vm::THE_NON_VALUE;
}
// The POSIX error atom OTP uses for errno [err] (enoent, eacces, ...).
vm::Term posix_atom(int err);
// Traps the calling BIF until the busy port it sent to is not busy; it then returns
// [result] (an immediate, or a term that outlives the wait).
vm::Term wait_for_busy_port(vm::Process* p, vm::Term result);
// A new unique reference, allocated on [p] (make_ref/0).
vm::Term new_ref(vm::Process* p);
// A max_heap_size value (process_flag/2, spawn_opt/2, system_flag/2): a size in words, or a
// map of size (required), kill and error_logger. False for anything OTP refuses, including a
// size below the minimum heap size (0 is no limit).
bool parse_max_heap_size(vm::Term value, const vm::MaxHeapSize& current, vm::MaxHeapSize* out);
// #{error_logger => _, kill => _, size => _} on [p], as OTP reports a max_heap_size.
vm::Term max_heap_size_term(vm::Process* p, const vm::MaxHeapSize& limit);

}  // namespace beamlet::bif

namespace beamlet::bif {
// A tuple of [elements] allocated on [p].
// An error raised by the continuation of a BIF that trapped: the stack trace's first frame
// names [module]:[function] with its [args] (the interpreter names the BIF only when it fails
// in the call itself). Returns THE_NON_VALUE, for the continuation to return.
inline vm::Term name_trapped_bif_error(vm::Process* p, vm::Term module, vm::Term function, const vm::Term* args,
                                       vm::Word arity) {
    p->exception.bif_module = module;
    p->exception.bif_function = function;
    p->exception.bif_args.assign(args, args + arity);
    return vm::THE_NON_VALUE;
}

inline vm::Term make_tuple_on(vm::Process* p, std::initializer_list<vm::Term> elements) {
    vm::Term* hp = p->alloc(1 + elements.size());
    hp[0] = vm::make_arityval(elements.size());
    std::size_t i = 1;
    for (vm::Term e : elements) hp[i++] = e;
    return vm::make_boxed(hp);
}
}  // namespace beamlet::bif
