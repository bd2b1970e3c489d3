// tracing/breakpoints.hpp — GenericBp with two generations, the active index, and the staged
// breakpoint change (mirrors beam_bp.c and erts_finish_breakpointing in erl_bif_trace.c).
//
// One GenericBp per (function, session), chained from the function header's gen_bp slot (or an
// export's, for global tracing). Running code reads data[active_bp_index()]; a change edits the
// other generation only, then runs install -> commit -> uninstall -> consolidate -> free with a
// thread-progress wait before each step, while the changing process holds the code
// modification permission and other processes keep running (DESIGN.md §6).
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "vm/module.hpp"

namespace beamlet::vm {
struct TraceSession;
struct Vm;
}

namespace beamlet::tracing {

using vm::CodeInfo;
using vm::Export;
using vm::TraceSession;
using vm::Word;

// Breakpoint kinds (OTP's ERTS_BPF_*); beamlet sets LOCAL_TRACE and GLOBAL_TRACE so far.
enum BpFlags : std::uint32_t {
    BPF_LOCAL_TRACE = 0x01,
    BPF_META_TRACE = 0x02,
    BPF_COUNT = 0x04,
    BPF_COUNT_ACTIVE = 0x08,
    BPF_TIME_TRACE = 0x20,
    BPF_TIME_TRACE_ACTIVE = 0x40,
    BPF_GLOBAL_TRACE = 0x80,
};

// One generation of a GenericBp's settings.
struct GenericBpData {
    std::atomic<std::uint32_t> flags{0};
};

// The generation running code reads (0 or 1); staging is the other one.
unsigned active_bp_index();
unsigned staging_bp_index();

}  // namespace beamlet::tracing

namespace beamlet::vm {

struct GenericBp {
    Word orig_instr = 0;                 // the first instruction word the breakpoint replaced
    tracing::GenericBpData data[2];
    // call_count: both generations share it (as OTP's BpCount); updated without a lock.
    std::atomic<std::int64_t> call_count{0};
    TraceSession* session = nullptr;
    std::atomic<GenericBp*> next{nullptr};   // the next session's GenericBp on this function
    GenericBp* to_insert = nullptr;      // prepared for another session, linked at install
};

}  // namespace beamlet::vm

namespace beamlet::tracing {

using vm::GenericBp;

// A change of trace patterns for one session: what matched and what to set, carried through
// the stages.
// What a call_count change does (trace_pattern(MFA, true|restart|pause|false, [call_count])).
enum class CountAction { None, Start, Pause, Stop };

struct BreakpointChange {
    TraceSession* session = nullptr;
    CountAction count = CountAction::None;       // a call_count change instead of call tracing
    bool enable = false;
    bool local = false;                          // local (function header) or global (export)
    bool clear_all = false;                      // session destroy: clear local and global
    std::vector<const CodeInfo*> functions;      // matched functions (local kinds, or cleared)
    std::vector<Export*> exports;                // matched exports (global, or cleared)
    std::vector<GenericBp*> to_free;
};

// Writes the staging generation for [change] (caller holds the code modification permission).
// Returns true if anything may need installing or uninstalling.
bool stage(BreakpointChange& change);
// The stages that follow, each after a thread-progress wait.
void install(BreakpointChange& change);
void commit();
void uninstall(BreakpointChange& change);
void consolidate(BreakpointChange& change);
void free_unlinked(BreakpointChange& change);

// Sets [session]'s on_load pattern ([flags]: BPF_LOCAL_TRACE or BPF_GLOBAL_TRACE) on a module
// that no process can run yet: both generations at once, no waits needed.
void apply_on_load(vm::Module& module, TraceSession* session, std::uint32_t flags);

// Frees every GenericBp left on the functions and exports of [vm] (the VM is shutting down:
// no process runs).
void release_all(vm::Vm& vm);

// This session's GenericBp on a chain, or null.
GenericBp* find_bp(const std::atomic<GenericBp*>& head, const TraceSession* session);
// The flags of [session] on a chain in the active generation (0 if none).
std::uint32_t active_flags(const std::atomic<GenericBp*>& head, const TraceSession* session);
// True if the first instruction of [ci] is currently the breakpoint instruction.
bool has_breakpoint(const CodeInfo* ci);

}  // namespace beamlet::tracing
