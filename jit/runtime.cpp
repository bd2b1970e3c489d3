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
    // What loops call (OTP's JIT calls every BIF from native code): erlang's process
    // dictionary, tuple, list and clock BIFs, and the lookups and updates of lists, maps and
    // ets. Each one neither traps nor yields, and fails before any effect, so that when it
    // fails the interpreter can call it again to raise (with the stack trace it builds).
    struct InPlace {
        const char* module;
        const char* name;
        unsigned arity;
    };
    static constexpr InPlace in_place[] = {
        {"erlang", "put", 2},          {"erlang", "get", 1},           {"erlang", "get", 0},
        {"erlang", "erase", 1},        {"erlang", "element", 2},       {"erlang", "setelement", 3},
        {"erlang", "tuple_size", 1},   {"erlang", "make_tuple", 2},    {"erlang", "make_tuple", 3},
        {"erlang", "append_element", 2}, {"erlang", "tuple_to_list", 1}, {"erlang", "list_to_tuple", 1},
        {"erlang", "hd", 1},           {"erlang", "tl", 1},            {"erlang", "max", 2},
        {"erlang", "min", 2},          {"erlang", "abs", 1},           {"erlang", "self", 0},
        {"erlang", "atom_to_list", 1}, {"erlang", "integer_to_list", 1}, {"erlang", "++", 2},
        {"erlang", "--", 2},           {"erlang", "length", 1},        {"erlang", "whereis", 1},
        {"erlang", "make_ref", 0},     {"erlang", "monotonic_time", 0}, {"erlang", "monotonic_time", 1},
        {"erlang", "system_time", 0},  {"erlang", "system_time", 1},   {"erlang", "phash2", 1},
        {"erlang", "phash2", 2},       {"erlang", "node", 0},
        {"lists", "reverse", 2},       {"lists", "member", 2},         {"lists", "keyfind", 3},
        {"lists", "keymember", 3},     {"lists", "keysearch", 3},
        {"maps", "get", 2},            {"maps", "find", 2},            {"maps", "is_key", 2},
        {"maps", "put", 3},            {"maps", "update", 3},          {"maps", "remove", 2},
        {"maps", "take", 2},
        {"ets", "lookup", 2},          {"ets", "lookup_element", 3},   {"ets", "member", 2},
        {"ets", "insert", 2},          {"ets", "insert_new", 2},       {"ets", "update_counter", 3},
        {"ets", "update_counter", 4},  {"ets", "update_element", 3},   {"ets", "delete", 2},
        {"ets", "take", 2},
    };
    if (!e.is_bif()) return false;
    for (const InPlace& b : in_place)
        if (e.arity == b.arity && e.function == vm::atom(b.name) && e.module == vm::atom(b.module)) return true;
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
