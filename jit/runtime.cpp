// jit/runtime.cpp — the breakpoint handler native code calls, and Process field offsets.
#include "jit/runtime.hpp"

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
                          offsetof(Process, scheduler_index)};
}
#pragma GCC diagnostic pop

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
