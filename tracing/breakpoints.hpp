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

#include "matchspec/match_spec.hpp"
#include "vm/module.hpp"

namespace beamlet::vm {
class CodeEngine;
struct TraceSession;
struct Vm;
}

namespace beamlet::tracing {
struct OnLoadPattern;
}

namespace beamlet::tracing {

// Match specs are their own component (matchspec/); tracing runs them at breakpoints.
using matchspec::MatchSpec;
using matchspec::MatchSpecActions;
using matchspec::MatchSpecKind;
using vm::CodeInfo;
using vm::Export;
using vm::TraceSession;
using vm::Term;
using vm::Word;

// Breakpoint kinds (OTP's ERTS_BPF_*).
enum BpFlags : std::uint32_t {
    BPF_LOCAL_TRACE = 0x01,
    BPF_META_TRACE = 0x02,
    BPF_COUNT = 0x04,
    BPF_COUNT_ACTIVE = 0x08,
    BPF_TIME_TRACE = 0x20,
    BPF_TIME_TRACE_ACTIVE = 0x40,
    BPF_GLOBAL_TRACE = 0x80,
    BPF_MEM_TRACE = 0x100,
    BPF_MEM_TRACE_ACTIVE = 0x200,
};

// Every kind that lives on a function (not an export): global call tracing clears them all.
inline constexpr std::uint32_t BPF_LOCAL_KINDS = BPF_LOCAL_TRACE | BPF_META_TRACE | BPF_COUNT | BPF_COUNT_ACTIVE |
                                                 BPF_TIME_TRACE | BPF_TIME_TRACE_ACTIVE | BPF_MEM_TRACE |
                                                 BPF_MEM_TRACE_ACTIVE;

// call_time / call_memory results of one breakpoint: per process, a call count and a sum
// (nanoseconds or words). Each scheduler adds to its own table under that table's own lock,
// which only a reader (trace_info) ever contends for.
class CallTimeData {
public:
    struct Entry {
        Term pid;
        std::int64_t count;
        std::int64_t sum;
    };
    CallTimeData() = default;
    ~CallTimeData();
    CallTimeData(const CallTimeData&) = delete;
    CallTimeData& operator=(const CallTimeData&) = delete;

    void add(Term pid, std::int64_t count, std::int64_t sum);
    // Every process's totals (the tables merged).
    std::vector<Entry> collect() const;

    // References from breakpoint generations (changed under the code modification permission).
    int refs = 0;

private:
    struct Table;
    static constexpr int MAX_TABLES = 65;  // one per scheduler, and one for other threads
    std::atomic<Table*> m_tables[MAX_TABLES] = {};
};

// call_count of one breakpoint, shared by both generations (as OTP's BpCount): a slot per
// scheduler, which only that scheduler writes, with a plain load and store (native code adds
// to it with one instruction, jit/compiler.cpp's trampoline); readers sum the slots. A restart
// takes the current sum as the new zero, so that it never races with an increment. Processes
// off the schedulers share the last slot, with an atomic add.
class CallCounter {
public:
    CallCounter();
    ~CallCounter();
    CallCounter(const CallCounter&) = delete;
    CallCounter& operator=(const CallCounter&) = delete;

    void add(int scheduler_index) {
        if (scheduler_index >= 0 && scheduler_index < m_own_slots) {
            std::atomic_ref<std::int64_t> slot(m_slots[scheduler_index]);
            slot.store(slot.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        } else {
            std::atomic_ref<std::int64_t>(m_slots[m_own_slots]).fetch_add(1, std::memory_order_relaxed);
        }
    }
    std::int64_t value() const;
    void restart();
    void reset();  // no one counts (a recycled breakpoint)
    // The slots, indexed by scheduler: what native code adds to.
    std::int64_t* slots() { return m_slots; }

    // Scheduler slots for counters made from now on (set at boot, before any tracing).
    static void set_schedulers(int n);

private:
    std::int64_t* m_slots;
    int m_own_slots;
    std::atomic<std::int64_t> m_zero{0};
};

// One generation of a GenericBp's settings. Only [flags] is read and written concurrently;
// the rest is written in the staging generation only, and read by running code in the
// active one (published by the commit of the active index).
struct GenericBpData {
    std::atomic<std::uint32_t> flags{0};
    MatchSpec* ms = nullptr;            // local or global call trace (null: always true)
    MatchSpec* meta_ms = nullptr;
    // The meta tracer; NIL once a hit found it dead (OTP clears it the same way, so
    // trace_info reports []).
    std::atomic<Term> meta_tracer{0};
    CallTimeData* time = nullptr;
    CallTimeData* memory = nullptr;
};

// The generation running code reads (0 or 1); staging is the other one.
unsigned active_bp_index();
unsigned staging_bp_index();

}  // namespace beamlet::tracing

namespace beamlet::vm {

struct GenericBp {
    Word orig_instr = 0;                 // the first instruction word the breakpoint replaced
    tracing::GenericBpData data[2];
    tracing::CallCounter call_count;
    TraceSession* session = nullptr;
    std::atomic<GenericBp*> next{nullptr};   // the next session's GenericBp on this function
    GenericBp* to_insert = nullptr;      // prepared for another session, linked at install
};

}  // namespace beamlet::vm

namespace beamlet::tracing {

using vm::GenericBp;

// What a change does to a counter kind (call_count, call_time, call_memory), as OTP's
// set_function_break: true starts it from zero, inserting a breakpoint where there is none;
// restart and pause act only on a function that already has one (of any kind): restart
// starts the counter from zero, pause stops a running counter and keeps its value, and
// both start a counter the breakpoint does not have yet. false removes it.
enum class CountAction { None, Start, Restart, Pause, Stop };
// What a change does to call tracing or meta tracing.
enum class TraceAction { None, On, Off };

// A change of a session's send or 'receive' pattern (set: it changes).
struct MessagePatternChange {
    bool set = false;
    bool on = true;
    MatchSpec* ms = nullptr;  // owned: one reference
};

// A change of trace patterns for one session: what matched and what to set, carried through
// the stages (tracing/staged_change.hpp).
struct BreakpointChange {
    TraceSession* session = nullptr;
    // The native-code engine whose patch sites hold entry breakpoints (VmServices::code_engine),
    // or null: threaded code only. run_staged_change sets it from the changing process's VM.
    vm::CodeEngine* engine = nullptr;
    TraceAction trace = TraceAction::None;   // call tracing, local or global
    bool global = false;
    MatchSpec* ms = nullptr;                 // for trace On (null: no match spec); owned
    TraceAction meta = TraceAction::None;
    MatchSpec* meta_ms = nullptr;            // owned
    Term meta_tracer = 0;
    CountAction count = CountAction::None;
    CountAction time = CountAction::None;
    CountAction memory = CountAction::None;
    bool clear_all = false;                      // session destroy: clear everything
    bool code_change = false;                    // with clear_all: the code is replaced, message patterns stay
    std::vector<const CodeInfo*> functions;      // matched functions (local kinds, or cleared)
    std::vector<Export*> exports;                // matched exports (global, or cleared)
    // Matched BIFs for the local kinds: a BIF has no function header, so its local kinds
    // live on its export's chain, next to global tracing (as OTP's BIF export entries).
    std::vector<Export*> bif_locals;
    MessagePatternChange send, receive;
    std::vector<GenericBp*> to_free;
    std::vector<MatchSpec*> to_free_ms;
    std::vector<CallTimeData*> to_free_time;

    BreakpointChange() = default;
    BreakpointChange(const BreakpointChange&) = delete;
    BreakpointChange& operator=(const BreakpointChange&) = delete;
    ~BreakpointChange();
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

// Sets [session]'s on_load pattern on a module that no process can run yet: both generations
// at once, no waits needed.
void apply_on_load(vm::CodeEngine* engine, vm::Module& module, TraceSession* session, const OnLoadPattern& pattern);

// Frees every GenericBp left on the functions and exports of [vm] (the VM is shutting down:
// no process runs).
void release_all(vm::Vm& vm);

// This session's GenericBp on a chain, or null.
GenericBp* find_bp(const std::atomic<GenericBp*>& head, const TraceSession* session);
// The flags of [session] on a chain in the active generation (0 if none).
std::uint32_t active_flags(const std::atomic<GenericBp*>& head, const TraceSession* session);
// [session]'s active generation on a chain, or null.
const GenericBpData* active_data(const std::atomic<GenericBp*>& head, const TraceSession* session);
// The function of [ci] starts with [word] from now on: under a breakpoint instruction, the
// word its hits go on with; else the first word itself. Under the code modification permission.
void replace_first_word(const CodeInfo* ci, Word word);
// The lazy JIT registered [ci]'s native entry (vm/native_compiler.hpp): a breakpoint standing
// in the threaded code is armed in the native entry too, with its every-process summary.
void adopt_native_entry(vm::CodeEngine* engine, const CodeInfo* ci);

}  // namespace beamlet::tracing
