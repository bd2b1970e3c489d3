// jit/runtime.cpp — the breakpoint handler native code calls, and Process field offsets.
#include "jit/runtime.hpp"

#include "vm/atom_table.hpp"
#include "vm/trace_hooks.hpp"
#include "vm/vm.hpp"

namespace beamlet::jit {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
ProcessOffsets process_offsets() {
    using vm::Process;
    vm::MessageQueue::Layout queue = vm::MessageQueue::layout();
    return ProcessOffsets{offsetof(Process, stop),
                          offsetof(Process, htop),
                          offsetof(Process, cp),
                          offsetof(Process, jit_reds),
                          offsetof(Process, jit_live),
                          offsetof(Process, mbuf_words),
                          offsetof(Process, heap_size_words),
                          offsetof(Process, all_trace_flags),
                          offsetof(Process, queue) + queue.save,
                          queue.node_term,
                          queue.node_next,
                          offsetof(Process, scheduler_index),
                          offsetof(Process, slice_reds)};
}
#pragma GCC diagnostic pop

bool calls_bif_in_place(const vm::Export& e) {
    // erlang's process dictionary and tuple and list BIFs: what loops call (OTP's JIT calls
    // every BIF from native code; beamlet only these, whose failure is free of effects).
    static constexpr std::pair<const char*, unsigned> in_place[] = {
        {"put", 2},        {"get", 1},         {"get", 0},           {"erase", 1},         {"element", 2},
        {"setelement", 3}, {"tuple_size", 1},  {"make_tuple", 2},    {"make_tuple", 3},    {"append_element", 2},
        {"tuple_to_list", 1}, {"list_to_tuple", 1}, {"hd", 1},       {"tl", 1},            {"max", 2},
        {"min", 2},        {"abs", 1},         {"self", 0},          {"atom_to_list", 1},  {"integer_to_list", 1},
        {"++", 2},         {"--", 2},          {"length", 1},
    };
    if (!e.is_bif() || e.module != vm::atoms::erlang) return false;
    for (const auto& [name, arity] : in_place)
        if (e.arity == arity && e.function == vm::atom(name)) return true;
    return false;
}

}  // namespace beamlet::jit

extern "C" void beamlet_jit_breakpoint(beamlet::vm::Process* p, beamlet::vm::Term* x, const beamlet::vm::CodeInfo* ci) {
    // The hook's return value (the interpreter's original instruction word) means nothing here:
    // the trampoline returns into the function right after its patch site.
    if (beamlet::vm::TraceHooks* hooks = p->vm.services.trace) hooks->function_breakpoint(p, ci, x);
}

extern "C" void beamlet_jit_remove_message(beamlet::vm::Process* p) {
    p->remove_message();
    p->timeout_ip = nullptr;
}

extern "C" bool beamlet_jit_send(beamlet::vm::Process* p, beamlet::vm::Term* x) {
    using namespace beamlet::vm;
    // Native code sends to pids, which can neither fail nor make the sender wait (a dead one
    // drops the message); any other destination is the interpreter's send instruction.
    if (!is_pid(x[0])) return false;
    p->vm.send(p, x[0], x[1]);
    x[0] = x[1];
    return true;
}

extern "C" beamlet::vm::Term beamlet_jit_guard_bif(beamlet::vm::Process* p, const beamlet::vm::Export* e,
                                                   beamlet::vm::Term a0, beamlet::vm::Term a1, beamlet::vm::Term a2) {
    beamlet::vm::Term args[3] = {a0, a1, a2};
    beamlet::vm::Term r = e->bif(p, args);
    if (r == beamlet::vm::THE_NON_VALUE) p->exception = beamlet::vm::PendingException{};
    return r;
}

extern "C" beamlet::vm::Term beamlet_jit_call_bif(beamlet::vm::Process* p, const beamlet::vm::Export* e,
                                                  beamlet::vm::Term* x) {
    if (e->bif_traced.load(std::memory_order_relaxed)) return beamlet::vm::THE_NON_VALUE;
    beamlet::vm::Term r = e->bif(p, x);
    if (r == beamlet::vm::THE_NON_VALUE) p->exception = beamlet::vm::PendingException{};
    return r;
}
