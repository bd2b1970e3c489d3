// vm/process.hpp — Process: an Erlang process's heap, stack, registers and exception state.
//
// Memory (DESIGN.md §2): one block per process, the heap growing up from [heap] to [htop], the
// stack growing down from [hend] to [stop]. A stack frame is [cp][y0]...[yN-1] with [stop]
// pointing at the saved cp. Words on the stack are terms, catch tags, or raw code pointers
// (primary tag 00), which the GC skips.
#pragma once

#include <algorithm>
#include <atomic>
#include <optional>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "vm/heap.hpp"
#include "vm/mailbox.hpp"
#include "vm/spin_lock.hpp"
#include "vm/trace_hooks.hpp"
#include "vm/term.hpp"

namespace beamlet::vm {

struct Vm;
struct MagicHandle;

// Live x registers are limited as in OTP.
inline constexpr Word MAX_X_REGS = 1024;
inline constexpr Word MAX_FLOAT_REGS = 256;
// Reductions per time slice, as OTP's CONTEXT_REDS.
inline constexpr int CONTEXT_REDS = 4000;
// Binary words taken in between collections before one is due (OTP's default bin_vheap_size).
inline constexpr Word BINARY_GC_WORDS = 46422;

// The exception classes, stored as their atoms.
struct PendingException {
    Term cls = 0;         // atoms::error / exit / throw_
    Term reason = 0;
    Term stacktrace = NIL;  // list of {M, F, ArityOrArgs, Location}
    // Set by a BIF that fails: the stacktrace's first frame is {Module, Function, Args, []}.
    Term bif_module = 0, bif_function = 0;
    std::vector<Term> bif_args;
    // Raised on purpose by erlang:error/exit/throw/raise: no frame for the BIF itself.
    bool raised_by_bif = false;
    // The failing BIF was called in tail position (call_ext_only/last): the calling function's
    // frame is gone, as in OTP's stack traces.
    bool bif_tail_call = false;
    // The failing BIF's error_info cause (badopt, ...), an atom; 0 if none.
    Term error_cause = 0;
    // error/2's argument list, shown in place of the arity of the first frame.
    Term frame_args = THE_NON_VALUE;
    // error/3's {error_info, Map} option, appended to the first frame's location; 0 if none.
    Term frame_error_info = 0;
    bool trace_built = false;
};

struct Process;

// The priority named by [t] (max, high, normal, low), or nullopt.
std::optional<Priority> priority_of(Term t);
Term priority_atom(Priority prio);

// What a process suspended by a trapping BIF waits for.
enum class SuspendFor : std::uint8_t {
    Nothing,
    ThreadProgress,  // Process::progress_value to be reached
    Permission,      // the code modification permission to be handed over
    BusyPort,        // a port it sent to to stop being busy (vm/port.hpp)
    NativeCode,      // the lazy JIT to switch in the module it made hot (vm/native_compiler.hpp)
    PendingPurge,    // the purge of a fun's code to complete or be aborted (Vm::await_purge)
};

// The rest of a trapping BIF: runs on resumption with the x registers; returns the BIF's
// result, or THE_NON_VALUE after raising, or after trapping again.
using BifContinuation = std::function<Term(Process* p, Term* x)>;

// Scheduling state, changed under Process::lock.
enum class ProcessState : std::uint8_t {
    Runnable,   // in a run queue
    Running,    // on a scheduler thread
    Waiting,    // in receive, no message
    Suspended,  // trapped BIF waiting for a condition (thread progress, permission)
    Exited,
};

// A monitor: [ref_id] identifies the reference term; [other] is the watched or watching pid.
// erlang:process_flag(max_heap_size, ...): past [size] words (0: no limit) of young and old heap,
// the process is killed ([kill]) and an error report logged ([error_logger]), as in OTP.
struct MaxHeapSize {
    Word size = 0;
    bool kill = true;
    bool error_logger = true;
};

struct MonitorEntry {
    Word ref_id[3];
    Term other;
    Term name = 0;  // monitor by registered name: the name (the DOWN message says {Name, Node})
    Term tag = 0;   // monitor/3's {tag, Tag}: the DOWN message's first element
    std::shared_ptr<HeapFragment> tag_heap;  // a boxed tag lives here (both ends share it)
    // Made after an exit signal with reason kill reached the process (Process::kill_pending):
    // the monitor comes after that signal, so its 'DOWN' says noproc, as OTP's.
    bool after_kill = false;
    // A monitor on another node's process (its watcher's half): that node. The 'DOWN' of a
    // monitor by name says {Name, Node}.
    Term node = 0;
    // A monitor another node's process holds (the target's half, [other] the remote watcher):
    // its reference (stable_external), which the 'DOWN' goes back with.
    Term remote_ref = 0;
};

// The monitors a process holds, found by reference at once (a process may hold a hundred
// thousand, and each 'DOWN' or demonitor removes one); listed in the order they were made.
class MonitorTable {
public:
    void add(const MonitorEntry& m) { m_entries.emplace(Key(m.ref_id), Item{m_next++, m}); }
    // Removes the monitor of [ref_id] (into [*out] when given); false if there is none.
    bool take(const Word ref_id[3], MonitorEntry* out = nullptr) {
        auto it = m_entries.find(Key(ref_id));
        if (it == m_entries.end()) return false;
        if (out) *out = std::move(it->second.entry);
        m_entries.erase(it);
        return true;
    }
    // Every monitor, oldest first.
    std::vector<MonitorEntry> in_order() const {
        std::vector<const Item*> items;
        items.reserve(m_entries.size());
        for (const auto& [key, item] : m_entries) items.push_back(&item);
        std::sort(items.begin(), items.end(), [](const Item* a, const Item* b) { return a->seq < b->seq; });
        std::vector<MonitorEntry> out;
        out.reserve(items.size());
        for (const Item* item : items) out.push_back(item->entry);
        return out;
    }
    // Every monitor, oldest first; the table is left empty.
    std::vector<MonitorEntry> take_all() {
        std::vector<MonitorEntry> out = in_order();
        m_entries.clear();
        return out;
    }

private:
    struct Key {
        Word id[3];
        explicit Key(const Word ref_id[3]) : id{ref_id[0], ref_id[1], ref_id[2]} {}
        bool operator==(const Key& o) const { return id[0] == o.id[0] && id[1] == o.id[1] && id[2] == o.id[2]; }
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const { return std::hash<Word>()(k.id[0] * 0x9E3779B97F4A7C15ull ^ k.id[1] ^ (k.id[2] << 17)); }
    };
    struct Item {
        std::uint64_t seq;
        MonitorEntry entry;
    };
    std::unordered_map<Key, Item, KeyHash> m_entries;
    std::uint64_t m_next = 0;
};

// [tag] as a MonitorEntry keeps it: immediates as they are, others copied into [heap].
Term keep_monitor_tag(Term tag, std::shared_ptr<HeapFragment>* heap);

// An alias (erlang:alias/0,1, monitor/3's alias option): a reference that delivers messages to
// the process that made it while active. Alias references carry that process's pid number in
// their third id word, so a send finds the owner without a table.
enum class AliasMode : std::uint8_t { ExplicitUnalias, Demonitor, ReplyDemonitor };
struct ProcessAlias {
    Word ref_id[3];
    AliasMode mode;
};

struct Process {
    Process(Vm& vm, Word pid_number);
    ~Process();
    Process(const Process&) = delete;
    Process& operator=(const Process&) = delete;

    Vm& vm;
    Term id;  // read by senders (Vm::find_process): kept off the cache lines the owner writes
    // No other process of this run has it, whereas a pid may be given out again (erts_debug's
    // next_pid): what tells an ETS heir from a process that has its pid since (OTP's
    // heir_started).
    const std::uint64_t incarnation;

    // ---- memory ----
    alignas(64) Term* heap = nullptr;   // start of the block
    Term* htop = nullptr;   // next free heap word
    Term* stop = nullptr;   // top of stack (lowest used word)
    Term* hend = nullptr;   // end of the heap (and stack): the block's, or before it (shrink_in_place)
    Word heap_size_words = 0;
    Word heap_block_words = 0;  // the block's size
    // The block is a fresh process's first heap, from the block caches (vm/block_cache.hpp),
    // else from heap_block_alloc (vm/heap_blocks.hpp): free it with free_heap_block(), which knows.
    bool heap_cached = false;
    HeapFragment* mbuf = nullptr;  // heap fragments, merged at the next GC
    Word mbuf_words = 0;
    Term* off_heap_first = nullptr;  // first RefcBin on the heap (chained through their link word)
    Word gc_count = 0;
    // Generational GC (DESIGN.md §2): data that survived one minor collection lies below
    // [high_water]; the next minor collection promotes it to the old heap.
    Term* high_water = nullptr;
    Term* old_heap = nullptr;
    Term* old_htop = nullptr;
    Term* old_hend = nullptr;
    Word minor_gcs = 0;                  // since the last major collection
    Word fullsweep_after = 65535;        // OTP's default
    Word min_heap_words = MIN_HEAP_SIZE_WORDS;  // spawn_opt's {min_heap_size, N}: the heap never shrinks below
    Word min_bin_vheap_size = 46422;     // kept and reported (beamlet has no virtual binary heap)
    MaxHeapSize max_heap;                // process_flag(max_heap_size, ...)
    // A collection found the heap past max_heap.size: the total it found, to be reported once
    // the process is off its scheduler (the kill is already sent); 0 when there is none.
    Word max_heap_reached = 0;
    bool max_heap_over = false;  // past the limit at the last collection (reported once per crossing)
    // erlang:garbage_collect/0,1,2 on the process itself: a collection before it runs again
    // (a BIF must never move terms its caller holds), minor when asked for {type, minor}.
    enum class GcRequest : std::uint8_t { none, minor, major };
    GcRequest gc_requested = GcRequest::none;
    // Words of reference-counted binaries the process took in (messages, binaries it made)
    // since its last collection: past BINARY_GC_WORDS, a minor collection runs before its next
    // turn, so that binaries it dropped go back (OTP's binary virtual heap, simplified).
    Word young_binary_words = 0;
    // The process has made writable binaries (appends) that a collection may have to shrink.
    bool writable_binaries = false;

    // ---- execution state while not running ----
    const Word* ip = nullptr;
    const Word* cp = nullptr;
    // An apply in tail position into a traced BIF: the apply instruction, whose function
    // an error the BIF raises names (the caller's frame is gone), as OTP's.
    const Word* bif_tail_site = nullptr;
    Word arity = 0;                   // live x registers saved in [saved_x]
    std::vector<Term> saved_x;
    std::int64_t reductions = 0;      // total, for process_info
    bool exited = false;
    Term exit_reason = 0;
    Term return_value = 0;            // what the outermost call returned (a normal exit)

    // ---- exception raised by an op or a BIF, consumed by the interpreter's error path ----
    PendingException exception;

    // ---- shared state, guarded by [lock]: the inbox senders append to, the scheduling
    // state, links and monitors ----
    SpinLock lock;
    std::vector<Message> inbox;
    std::vector<Message> inbox_spare;  // the owner's: an empty buffer the inbox trades with
    // Messages in the inbox and the queue together (not other signals): what a tracer's
    // overload limit reads from another thread (tracing/delivery.cpp). Counted where a message
    // arrives (Vm::send_signal and the signal handlers that turn signals into messages) and
    // where one leaves the queue.
    std::atomic<std::uint32_t> message_count{0};
    // The long_message_queue monitors (by setting) this process reported "on" to, and the
    // monitors' epoch when it last looked (Vm::monitor_msgq; owner thread only).
    std::vector<std::uint64_t> long_msgq_reported;
    std::uint64_t long_msgq_epoch = 0;
    ProcessState state = ProcessState::Runnable;
    std::vector<Term> links;                  // pids
    MonitorTable monitors;                    // monitors this process holds on others
    std::vector<MonitorEntry> monitored_by;   // monitors others hold on this process
    std::vector<ProcessAlias> aliases;        // active aliases (refs others may send to)
    // Native objects that monitor this process (OTP's enif_monitor_process; prim_file's files,
    // closed when their owner exits): each holds a reference to its handle and, at exit, has
    // its down callback run and that reference dropped (Vm::do_exit).
    std::vector<MagicHandle*> resource_monitors;
    Term registered_name = 0;
    bool trap_exit = false;
    std::uint64_t timer_seq = 0;              // identifies the armed receive timeout
    std::uint64_t fired_seq = 0;              // a timeout that fired before the process waited
    bool exiting = false;                     // do_exit has started: no new links/monitors
    // An exit signal with reason kill is in the inbox (or was handled): the process is bound
    // to die, and a monitor set up now comes after that signal (MonitorEntry::after_kill).
    bool kill_pending = false;
    bool has_bif_timers = false;              // a send_after/start_timer to this pid was armed
    // Vm::process_signals holds a batch taken from the inbox, or a signal it handled decided
    // that the process dies: its liveness is only known in signal order (is_process_alive/1).
    bool signals_in_hand = false;
    bool exit_decided = false;
    // Entries of the inbox that are not messages (written under [lock]; a receive peeks).
    std::atomic<std::uint32_t> inbox_signals{0};
    bool woken_from_wait = false;             // a signal woke it from a receive (for status)
    bool resume_pending = false;              // resumed before the scheduler parked it
    // erlang:suspend_process/2: who suspends this process, and how many times each. While
    // any does, the process runs no code; it still handles its signals (a kill, process_info).
    // A suspension is *active* once the process is off its scheduler for it (OTP's
    // ERTS_MSUSPEND_STATE_FLG_ACTIVE): one asked while it runs is outstanding until then.
    struct Suspension {
        Term by;
        Word count;
        bool active;
    };
    std::vector<Suspension> suspenders;
    // {Tag, Result} of suspend_process(P, [{asynchronous, Tag}]) asked while it ran: sent
    // when its scheduler next looks (suspended, or not_suspended if resumed since), or at its
    // exit (exited). [tag] lives in [fragment].
    struct SuspendReply {
        Term to;
        Term tag;
        HeapFragment* fragment;
    };
    std::vector<SuspendReply> suspend_replies;
    bool parked = false;                      // Waiting only because it is suspended
    // Suspended until a busy port it sent to is free (SuspendFor::BusyPort), or until the
    // purge of the code of a fun it called ends (SuspendFor::PendingPurge): signals still wake
    // it to be handled (a kill, process_info, check_process_code), then it waits on. Written
    // under [lock]; atomic so that the scheduler's look before each run takes no lock.
    std::atomic<bool> signal_only_wait{false};

    // ---- owner-only state ----
    MessageQueue queue;                       // messages taken from the inbox, with the save pointer
    Term pending_exit = 0;                    // an exit signal decided that this process dies
    // Its exit under way a slice at a time (Schedulers::finish): the resources' work left
    // (ProcessResources::process_exited), and whether that part of the exit is done.
    std::function<bool()> exit_work;
    bool exit_resources_done = false;
    bool yield_requested = false;             // erlang:yield/0: yield after the current BIF
    bool discard_stack = false;               // erlang:hibernate/3 trapped: the stack was replaced
    std::vector<Term> suspending;             // processes this one has suspended (undone at exit)
    // seq_trace (vm/seq_trace.*): the token, [] or {Flags, Label, Serial, From, LastCnt} on
    // this heap (a GC root), the Lamport clock and the serial of the last token received, and
    // the reset epoch they belong to.
    Term seq_token = NIL;
    Word seq_clock = 0, seq_lastcnt = 0, seq_epoch = 0;
    int scheduler_index = -1;                 // last scheduler that ran it
    bool is_main = false;                     // the process running MOD:main() for the CLI
    Term initial_call[3] = {0, 0, 0};         // {M, F, A} it was spawned with
    Term parent = 0;                          // the process that spawned it (0: none)
    // Where its I/O goes (erlang:group_leader/0,2): inherited at spawn; set by other processes.
    std::atomic<Term> group_leader{0};
    // process_flag/2 settings beamlet keeps but does not act on (message_queue_data,
    // min_heap_size, ...): {Flag, Value}, owner-only.
    std::vector<std::pair<Term, Term>> kept_flags;
    // erts_debug:set_internal_state(gc_state, false): collections others ask for wait in
    // [delayed_gc] (GcRequest and garbage_collect system tasks) until it is back on. Owner only.
    bool gc_disabled = false;
    std::vector<Message> delayed_gc;
    // It has blocked multi-scheduling: its exit releases the blocks (Vm::multi_scheduling).
    std::atomic<bool> blocks_scheduling{false};
    // It owns (or has fixed) an ETS table: its exit must run Vm::ets_exit_hook.
    std::atomic<bool> ets_user{false};
    // process_flag(priority, _): the run queue it goes in (Schedulers::enqueue).
    std::atomic<Priority> priority{Priority::Normal};
    // The most urgent priority of the system tasks waiting in its inbox (Low: none more urgent
    // than a low process): a low process asked for a collection by a max one is scheduled as
    // max to do it, as OTP's (no priority inversion). Set by senders, reset as it takes its
    // signals, both under [lock].
    std::atomic<Priority> task_priority{Priority::Low};
    // The queue it waits in (its scheduler's lock), and how often a low one was passed over for
    // normal ones there (Schedulers::pop_front).
    Priority queued_as = Priority::Normal;
    std::uint8_t low_skips = 0;
    // Normal system tasks run since the last low one: a low task runs after eight normal ones
    // (Vm::run_system_tasks; the process's own thread).
    std::uint8_t low_task_skips = 0;
    // The queue it runs in: its own priority or a more urgent one its system tasks ask for.
    Priority run_priority() const {
        return std::min(priority.load(std::memory_order_relaxed), task_priority.load(std::memory_order_relaxed));
    }
    bool ever_ran = false;                    // it has been scheduled in at least once
    BifContinuation continuation;             // set by a trapping BIF
    const struct Export* trapped_in = nullptr;  // that BIF (trace's in/out events name it)
    Word trap_live = 0;                       // x registers kept for the continuation (GC roots)
    const Word* on_load_entry = nullptr;      // an on_load function it claimed (bif/nif_bifs.cpp)
    SuspendFor suspend_for = SuspendFor::Nothing;
    std::uint64_t progress_value = 0;         // SuspendFor::ThreadProgress

    // ---- tracing: one ref per session that traces this process (guarded by [lock]); the OR
    // of their flags, readable without the lock as the fast "is it traced?" test ----
    std::vector<TracerRef> trace_refs;
    std::atomic<std::uint32_t> all_trace_flags{0};
    // When exactly one session traces the process: that session and its tracer (its flags are
    // all_trace_flags), published under a sequence count so the process itself can read them
    // at a breakpoint without taking [lock] (odd: being written).
    std::atomic<std::uint32_t> trace_seq{0};
    std::atomic<TraceSession*> sole_trace_session{nullptr};
    std::atomic<Word> sole_tracer{0};  // Tracer::word()
    // Trace frames on this process's stack (vm/trace_frames.hpp): while there are any, an
    // exception tells tracing which ones it unwinds (owner-only).
    Word trace_frames = 0;
    // Call-time and call-memory accounting per session (tracing's; owner-only, see
    // tracing/call_stats.cpp); the scheduler reports schedule out/in while it is non-empty.
    std::vector<CallAccounting> call_accounting;
    // Words allocated before the last garbage collection that did not survive it: with
    // heap_used_words() a measure of all allocation that only grows (call_memory).
    Word gc_freed_words = 0;
    // Native code hands the reduction count and, when it yields at a call, the live x
    // registers back to the interpreter here (--engine jit).
    SWord jit_reds = 0;
    Word jit_live = 0;
    // The reductions left in the running process's time slice, as the interpreter saw them
    // when it last called out (SWAPOUT); it takes them back when the call returns (SWAPIN),
    // so a BIF can charge its work (charge_work, bump_reductions), and
    // process_info(self(), reductions) counts the slice so far, as OTP's does.
    SWord slice_reds = CONTEXT_REDS;
    Word allocated_words() const { return gc_freed_words + heap_used_words(); }
    // Where a receive ... after resumes when its timer fires (null: no timer armed).
    const Word* timeout_ip = nullptr;
    // The loop_rec that last yielded to have signals handled before its receive goes on
    // (op_loop_rec): it does so once per visit, whatever signals stay deferred.
    const Word* signals_yield_ip = nullptr;
    bool timer_fired = false;
    // Moves the messages at the head of the inbox to [queue], stopping at the first signal
    // (signals are handled by the scheduler, in order); true if any message arrived. Each
    // message is receive-traced as it joins the queue.
    bool fetch_inbox();
    // Appends [m] to [queue] (owner thread), with its 'receive' trace event.
    void queue_message(const Message& m);
    // Removes the message at the save pointer; its fragment joins the heap's fragments.
    void remove_message();
    // The system monitors' long_message_queue, after the queue grew or shrank (owner thread;
    // a test of two numbers unless some monitor's limit is at hand).
    void queue_grew();
    void queue_shrank();
    // Makes the heap own [m]'s fragment (the message left the queue).
    void adopt_fragment(const Message& m);
    // The part of adopt_fragment for a fragment holding reference-counted binaries.
    [[gnu::noinline]] void adopt_binaries(HeapFragment* f);

    // ---- process dictionary: (key, value) pairs in insertion order ----
    std::vector<std::pair<Term, Term>> dictionary;

    // Allocates [n] words on the heap, or in a heap fragment if the heap is full: callers that
    // hold terms in C++ variables (BIFs) never see a GC (OTP's HAlloc).
    Term* alloc(Word n) {
        if (Word(stop - htop) >= n) {
            Term* p = htop;
            htop += n;
            return p;
        }
        return alloc_fragment(n);
    }
    Term* alloc_fragment(Word n);

    // What alloc() has handed out so far. Terms built after a mark that nothing older points
    // at (an answer built for another process, already copied into its message) are dropped
    // by release_to(): the heap, its fragments and the off-heap list go back to the mark.
    struct AllocMark {
        Term* htop;
        HeapFragment* mbuf;
        Word mbuf_used;
        Word mbuf_words;
        Term* off_heap_first;
    };
    AllocMark alloc_mark() const { return {htop, mbuf, mbuf ? mbuf->used_words : 0, mbuf_words, off_heap_first}; }
    void release_to(const AllocMark& mark);
    // Frees the heap block (not its contents) and leaves [heap] dangling for the caller to set.
    void free_heap_block();
    // A new reference (make_ref/0), allocated like alloc().
    Term new_ref();
    // Empties the heap, its fragments and off-heap references, the stack and the dictionary:
    // for a detached process whose terms are all dead (a NIF environment, a tracer context).
    void reset_heap();

    // Raises [cls]:[reason]; returns THE_NON_VALUE for the caller to propagate.
    Term raise(Term cls, Term reason);
    Term error(Term reason);
    Term badarg();
    // badarg with a cause in the error_info OTP's erl_erts_errors reads (an atom).
    Term badarg(Term cause);
    Term badarith();

    // Words currently used on the heap and in fragments.
    Word heap_used_words() const { return Word(htop - heap) + mbuf_words; }
    Word stack_used_words() const { return Word(hend - stop); }
    // The words of the messages in its queue when they live on its heap (message_queue_data
    // on_heap, the default): part of OTP's total heap size (and of max_heap_size's count)
    // though beamlet leaves each in its fragment. Owner only.
    Word on_heap_message_words() const;
};

// [h] monitors [p] (a resource monitor: enif_monitor_process): it takes a reference to [h].
// False, and nothing taken, when [p] is exiting already (its monitors have been told).
bool add_resource_monitor(Process* p, MagicHandle* h);
// [h] stops monitoring the process [owner] ([self], or one found through [self]'s VM): the
// monitor's reference is dropped, unless the owner's exit has taken the monitor already.
void remove_resource_monitor(Process* self, Term owner, MagicHandle* h);

// Runs a garbage collection on [p] so that [need_words] words are free between htop and stop:
// a minor one (young data, promoting what survived before) or, every fullsweep_after minor
// ones, when the old heap is full, or when [major] is set, a major one over everything.
// The roots are x[0..live), the stack and the process's own fields. Returns what it cost in
// reductions, as OTP counts it: one for every ten live words moved.
Word garbage_collect(Process* p, Term* x_regs, Word live, Word need_words, bool major = false);
// erlang:hibernate/3's collection: a major one after which the heap block holds exactly the
// live data and the stack (no old heap, no headroom, min_heap_size ignored), as OTP's
// erts_garbage_collect_hibernate leaves a sleeping process.
void garbage_collect_hibernate(Process* p, Term* x_regs, Word live);
// Grows [p]'s heap block to at least [words] (a woken hibernated process back to its
// min_heap_size). Pointers into it, including x[0..live), are moved along.
void ensure_heap_block(Process* p, Term* x_regs, Word live, Word words);
struct LiteralRelease;
// A major collection that also copies whatever [p] references in [released]'s literal range
// into its heap; none when it references nothing there (false).
bool garbage_collect_literals(Process* p, Term* x_regs, Word live, const LiteralRelease& released);

// A BIF's work beyond its call (OTP's BUMP_REDS): [work] units (bytes, list cells) cost one
// reduction per [per_reduction] (the BIF's rate, measured on OTP 25), out of the caller's
// time slice; work worth more than what is left switches the caller out at its next call.
// OTP's BIF would trap part-way; beamlet's finishes, then yields, so that a loop of large
// conversions never holds its scheduler.
inline void charge_work(Process* p, std::size_t work, std::size_t per_reduction) {
    p->slice_reds -= SWord(std::min<std::size_t>(work / per_reduction, std::size_t(1) << 30));
}

// A BIF that has done a time slice's worth of its work: [p] is scheduled out and, in its next
// turn, runs [continuation] with x0..x[live - 1] as the BIF left them (kept as roots, so a
// collection meanwhile updates them: the state that lives on the heap goes there, the rest in
// the closure). process_info and trace's in/out events name [shown_as] meanwhile. Returns
// what the BIF returns (THE_NON_VALUE: trapped).
Term trap_yield(Process* p, const struct Export* shown_as, BifContinuation continuation, Word live = 0);

struct Module;
// Whether [p] (not running) executes code of [m]: its current instruction, continuation, or a
// return address or catch on its stack. False for a null [m].
bool runs_code_of(const Process* p, const Module* m);

}  // namespace beamlet::vm
