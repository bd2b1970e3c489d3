// jit/runtime.hpp — what native code calls and reads: the breakpoint handler, and the offsets
// of the Process fields it uses (the state it hands back to the interpreter).
#pragma once

#include <cstddef>

#include "vm/process.hpp"

namespace beamlet::jit {

// Process field offsets (Process is not standard-layout, but these fields are plain members
// of a non-virtual class at fixed offsets, which GCC and Clang compute as usual).
struct ProcessOffsets {
    std::size_t stop, htop, cp, jit_reds, jit_live, mbuf_words, heap_size_words, all_trace_flags;
    std::size_t queue_save, node_term, node_next;  // the message queue (MessageQueue::layout)
    std::size_t scheduler_index;                   // an int
    std::size_t slice_reds;                        // the reductions a BIF sees and charges
};
ProcessOffsets process_offsets();

// Whether native code calls BIF [e] in place for call_ext: BIFs that never trap, yield or
// look at the caller's code position, and fail before any effect, so that a failure can be
// handed to the interpreter, which runs the call again and raises as it always does.
bool calls_bif_in_place(const vm::Export& e);

}  // namespace beamlet::jit

extern "C" {
// The breakpoint trampoline's handler: [p] entered the function of [ci] with its arguments
// in [x]; p->stop, p->htop and p->cp hold the native state and may change (trace frames).
void beamlet_jit_breakpoint(beamlet::vm::Process* p, beamlet::vm::Term* x, const beamlet::vm::CodeInfo* ci);
// remove_message: takes the current message (seq_trace, its fragment onto the heap's list).
void beamlet_jit_remove_message(beamlet::vm::Process* p);
// send to a pid (x0 ! x1, the result in x0): false, having done nothing, when x0 is not a pid
// (names, ports, aliases take the interpreter's way, which may raise or suspend).
bool beamlet_jit_send(beamlet::vm::Process* p, beamlet::vm::Term* x);
// A guard BIF (bif0..gc_bif3) on [a0]..[a2]: its result, or the non-value with the failure
// forgotten (the fail label takes it, or the interpreter runs the instruction again and
// raises).
beamlet::vm::Term beamlet_jit_guard_bif(beamlet::vm::Process* p, const beamlet::vm::Export* e, beamlet::vm::Term a0,
                                        beamlet::vm::Term a1, beamlet::vm::Term a2);
// call_ext of a BIF that calls_bif_in_place() accepts, on the arguments in [x]: its result,
// or the non-value, having done nothing, when the interpreter is to make the call (the BIF
// is traced, or it failed: the interpreter runs it again and raises).
beamlet::vm::Term beamlet_jit_call_bif(beamlet::vm::Process* p, const beamlet::vm::Export* e, beamlet::vm::Term* x);
}
