// vm/trace_hooks.hpp — the seam out of vm/ for tracing: breakpoints reached by running code and
// process events. tools/boot.cpp installs tracing/'s implementation (DESIGN.md §1).
#pragma once

#include <cstdint>
#include <vector>

#include "vm/term.hpp"

namespace beamlet::vm {

struct CodeInfo;
struct Export;
struct Module;
struct Process;
struct TraceSession;

// Process trace flags (OTP's F_TRACE_* subset beamlet implements).
enum TraceFlag : std::uint32_t {
    TRACE_CALL = 1u << 0,
    TRACE_ARITY = 1u << 1,
    TRACE_RETURN_TO = 1u << 2,
    TRACE_SOS = 1u << 3,    // set_on_spawn
    TRACE_SOS1 = 1u << 4,   // set_on_first_spawn
    TRACE_SOL = 1u << 5,    // set_on_link
    TRACE_SOL1 = 1u << 6,   // set_on_first_link
    TRACE_SILENT = 1u << 7,
    TRACE_TS_NOW = 1u << 8,      // timestamp
    TRACE_TS_MONO = 1u << 9,     // monotonic_timestamp
    TRACE_TS_STRICT = 1u << 10,  // strict_monotonic_timestamp
};

// A process's call_time / call_memory state in one session: the function being charged and
// since when (monotonic nanoseconds, or allocated words).
struct CallAccounting {
    TraceSession* session;
    const CodeInfo* time_ci;
    std::int64_t time_since;
    std::int64_t time_calls;    // calls to time_ci not yet added to its table
    const CodeInfo* memory_ci;
    std::int64_t memory_since;
    std::int64_t memory_calls;
};

// One session's tracing of one process: its flags and tracer (a pid).
struct TracerRef {
    TraceSession* session;
    Term tracer;
    std::uint32_t flags;
};

class TraceHooks {
public:
    virtual ~TraceHooks() = default;
    // [p] reached the breakpoint in the function of [ci] with its arguments in [x]. Returns the
    // original first instruction word, which the engine executes next. The engine has stored
    // its stack pointer and continuation pointer in p->stop and p->cp and reloads both: the
    // breakpoint may push trace frames (vm/trace_frames.hpp).
    virtual Word function_breakpoint(Process* p, const CodeInfo* ci, Term* x) = 0;
    // [p] called export [e] whose global breakpoint is installed. Returns the address to
    // continue at. p->stop and p->cp as for function_breakpoint.
    virtual const Word* export_breakpoint(Process* p, Export* e, Term* x) = 0;
    // [p] returned into trace_return_code() with [value]: the trace frame is at p->stop. Pops
    // it and returns where execution continues.
    virtual const Word* trace_frame_returned(Process* p, Term value) = 0;
    // An exception (p->exception) unwinds the stack words [from, to) of [p], which hold trace
    // frames; [catch_at] is the handler that catches it, or null when the process dies.
    virtual void exception_unwinding(Process* p, Term* from, Term* to, const Word* catch_at) = 0;
    // [p], which has call accounting, is scheduled out ([out]) or in.
    virtual void schedule_break(Process* p, bool out) = 0;
    // [parent] spawned [child] (set_on_spawn, new-process flags).
    virtual void process_spawned(Process* parent, Process* child) = 0;
    // [linker] linked to [linked] (set_on_link, set_on_first_link).
    virtual void process_linked(Process* linker, Process* linked) = 0;
    // [module] is about to be published: no process can run its code yet (on_load patterns).
    virtual void module_loading(Module& module) = 0;
};

// Set at boot; null when tracing is not wired (unit tests of vm/ alone).
extern TraceHooks* g_trace_hooks;

}  // namespace beamlet::vm
