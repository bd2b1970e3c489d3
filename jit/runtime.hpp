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
};
ProcessOffsets process_offsets();

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
}
