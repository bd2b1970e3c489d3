// vm/trace_frames.hpp — trace frames on the Erlang stack (OTP's return_trace frames, beam_bp.c).
//
// A call breakpoint that asks for return_trace, exception_trace, return_to or call-time
// accounting pushes a frame and sets the continuation pointer to trace_return_code(), so the
// traced function "returns" into the frame. A frame looks like an ordinary one:
//
//   E[0]  the original return address (a code pointer, as in any frame)
//   E[1]  a trace mark: a word with tag TAG_TRACE_MARK that no term can have, holding the
//         frame's kind and its session
//   E[2..] kind-specific words, all immediates (GC skips them)
//
// The mark makes frames recognisable when an exception unwinds the stack, whatever the state
// of the continuation pointer. Stack traces skip them: the mark is no code pointer, and
// E[0] is the real caller.
#pragma once

#include "vm/term.hpp"

namespace beamlet::vm {

struct TraceSession;

enum class TraceFrameKind : Word {
    ReturnTrace = 0,     // [cp][mark][small(mfa source)][tracer or true]
    ExceptionTrace = 1,  // the same; also reports exception_from
    ReturnTo = 2,        // [cp][mark]
    Accounting = 3,      // [cp][mark][small(previous time ci) or NIL][small(previous memory ci) or NIL]
    AccountingTime = 4,  // call_time alone: [cp][mark][small(previous time ci) or NIL]
    AccountingMemory = 5,  // call_memory alone: [cp][mark][small(previous memory ci) or NIL]
};

inline constexpr Word TAG_TRACE_MARK = 0x2B;  // immediate2 subtag 10: unused by terms

inline Word make_trace_mark(const TraceSession* session, TraceFrameKind kind) {
    return ((reinterpret_cast<Word>(session) | Word(kind)) << TAG_IMMED2_SIZE) | TAG_TRACE_MARK;
}
inline bool is_trace_mark(Word w) { return (w & TAG_IMMED2_MASK) == TAG_TRACE_MARK; }
inline TraceFrameKind trace_mark_kind(Word mark) { return TraceFrameKind((mark >> TAG_IMMED2_SIZE) & 7); }
inline TraceSession* trace_mark_session(Word mark) {
    return reinterpret_cast<TraceSession*>((mark >> TAG_IMMED2_SIZE) & ~Word(7));
}
inline Word trace_frame_words(Word mark) {
    switch (trace_mark_kind(mark)) {
    case TraceFrameKind::ReturnTo: return 2;
    case TraceFrameKind::AccountingTime:
    case TraceFrameKind::AccountingMemory: return 3;  // as small as OTP's return_time_trace frame
    default: return 4;
    }
}

// A code or export pointer kept in a frame word as a small integer.
inline Term pointer_to_small(const void* p) { return make_small(SWord(reinterpret_cast<Word>(p))); }
template <typename T>
inline T* small_to_pointer(Term t) { return reinterpret_cast<T*>(Word(small_value(t))); }

// The instruction traced functions return to (the engine pops the frame there).
const Word* trace_return_code();

}  // namespace beamlet::vm
