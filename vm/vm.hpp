// vm/vm.hpp — Vm: the machine's shared state (exports, modules, BIFs, code path hook, output).
#pragma once

#include <atomic>
#include <cstdio>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "vm/generic_code.hpp"
#include "vm/module.hpp"
#include "vm/result.hpp"
#include "vm/spin_lock.hpp"
#include "vm/process.hpp"
#include "vm/services.hpp"
#include "vm/system_monitor.hpp"
#include "vm/term.hpp"

namespace beamlet::vm {

struct GenericModule;
class Schedulers;
class ThreadProgress;
class CodePermission;
class TimerService;
class CodeEngine;
class NativeCompiler;
class PortTable;
struct Message;
struct Port;
// How a command treats a busy port (vm/port.hpp): Normal sends and makes the caller wait,
// Force sends and goes on, NoSuspend sends nothing and answers Busy.
enum class PortCommandMode : std::uint8_t { Normal, Force, NoSuspend };

// The export table: one Export per {M, F, A} ever referenced, never freed (code points at them).
class ExportTable {
public:
    // The export for {M, F, A}, created (pointing at the error handler trampoline) if new.
    Export* get(Term module, Term function, Word arity);
    // The export if it exists, else null.
    Export* find(Term module, Term function, Word arity) const;
    // Every export of [module].
    std::vector<Export*> of_module(Term module) const;
    // Every export.
    std::vector<Export*> all() const;

private:
    using Key = std::tuple<Term, Term, Word>;
    mutable SpinLock m_mutex;
    std::map<Key, std::unique_ptr<Export>> m_exports;
};

// Loads a module by name from the code path; returns an error message, empty on success.
using ModuleLoader = std::function<std::string(Term module)>;
// Parses the bytes of a .beam file named [path] (the loader, injected at boot).
using ModuleParser = std::function<Result<GenericModule>(std::span<const std::uint8_t> bytes, const std::string& path)>;

// The time in erl's report headers, "24-Nov-2026::22:18:38.441137" (vm/signals.cpp).
std::string timestamp_now();

struct Vm {
    Vm();
    ~Vm();
    Vm(const Vm&) = delete;
    Vm& operator=(const Vm&) = delete;

    ExportTable exports;

    // Registers BIF [fn] as {M, F, A}: its export calls it through the i_apply_bif trampoline.
    void register_bif(Term module, Term function, Word arity, BifFn fn);
    // The BIF registered as {M, F, A}, or null.
    BifFn find_bif(Term module, Term function, Word arity) const;

    // Threads [code] (and compiles it with the native-code engine): a module no process can
    // reach yet, or why it cannot be.
    Result<std::unique_ptr<Module>> prepare_module(const GenericModule& code);
    // Makes [module] the current code of its name: the previous current code becomes old code
    // (the caller has checked there was no old code left), exports point at the new code and
    // those it no longer has become undefined. on_load trace patterns are applied first.
    Module* publish_module(std::unique_ptr<Module> module);
    // A module with an on_load function waits for it: the first caller claims the run and
    // gets the function's code in [*entry]; later callers learn that it is running.
    enum class OnLoadClaim { None, Claimed, Running };
    OnLoadClaim claim_on_load(Term name, const Word** entry);
    // The claimed on_load function of [name] returned: [keep] (it returned ok) publishes the
    // exports; otherwise the module is unloaded and its previous code is current again.
    bool finish_on_load(Term name, bool keep);
    // prepare_module + publish_module for a module that is not loaded yet.
    Result<Module*> install_module(const GenericModule& code);
    // erlang:delete_module: the current code becomes old code and its exports undefined;
    // false if there is no current code.
    bool delete_module(Term name);
    // erlang:purge_module: drops the old code; false if there is none. Its funs take their
    // detour from now on (error_handler:undefined_lambda/3, or the fun of a module loaded
    // since), and the processes that called one while the purge was pending go on.
    bool purge_module(Term name);
    // erts_internal:purge_module(Name, prepare): whether there is old code to purge; if so,
    // its purge is pending: calls of its funs wait (await_purge) until purge_module or
    // abort_purge, as OTP's do in erts_code_purger:pending_purge_lambda/3.
    bool prepare_purge(Term name);
    // The purge of [name] is given up: its funs run their code again, and the processes that
    // waited go on.
    void abort_purge(Term name);
    // Whether [p], calling a fun of [module], must wait for the module's pending purge; if
    // so, it is woken (Vm::resume_suspended) when the purge ends.
    bool await_purge(Process* p, const Module* module);
    // The loaded (current) module named [name], or null.
    Module* find_module(Term name) const;
    // The old code of [name], or null.
    Module* find_old_module(Term name) const;
    // The fun entry binary_to_term gives a fun of [module] that is not loaded (or that the
    // loaded code lacks), as OTP creates fun entries before their code: one per
    // {module, index, uniq, arity, num_free}, never freed. Calling it runs
    // error_handler:undefined_lambda/3, or the module's fun once it is loaded.
    const FunEntry* lambda_stub(Term module, Word index, Word old_uniq, Word arity, Word num_free,
                                const std::uint8_t md5[16]);
    // The module whose code contains [p], or null.
    const Module* module_containing(const Word* p) const;
    std::vector<Module*> loaded_modules() const;

    // Loads [module] through the code path hook if it is not loaded; empty string on success.
    // [loader], the process that needs it, is not charged call_time for the loading (on OTP
    // the code server loads while the caller waits).
    std::string ensure_loaded(Term module, Process* loader = nullptr);
    ModuleLoader module_loader;
    ModuleParser module_parser;
    // The directories searched for MODULE.beam, in order (code:get_path/0).
    std::vector<std::string> code_path() const;
    void set_code_path(std::vector<std::string> dirs);

    // ---- processes and signals (vm/signals.cpp) ----

    // How a new process is tied to its parent (spawn_opt, spawn_request).
    struct SpawnOptions {
        bool link = false;
        bool monitor = false;
        Term monitor_tag = 0;               // {monitor, [{tag, T}]}: the DOWN message's first element
        const Word* request_ref = nullptr;  // spawn_request's ReqId: the monitor's reference
        Term reply_tag = 0;                 // {Tag, ReqId, ok, Pid} to the parent before the child runs
        Word fullsweep_after = 65535;
        Word min_heap_size = 0;             // {min_heap_size, N} in words (0: the default)
        Word min_bin_vheap_size = 46422;    // {min_bin_vheap_size, N}: kept and reported
        Priority priority = Priority::Normal;  // {priority, P}
        std::optional<MaxHeapSize> max_heap;  // {max_heap_size, _}; else the system default
        bool off_heap_messages = false;       // {message_queue_data, off_heap}
        // Runs on the new process before it can run (a spawn request from another node: its
        // links, monitor and group leader are the remote parent's).
        std::function<void(Process*)> prepare;
    };
    // Creates a process that will call [entry] with [args] (copied into its heap), or the fun
    // [fun] with [args] when [entry] is null; links/monitors it to [parent] as asked. The new
    // process is runnable at once. [monitor_ref] receives the monitor reference id.
    std::shared_ptr<Process> spawn(Process* parent, const Export* entry, Term fun, Term args,
                                   const SpawnOptions& opts, Word monitor_ref[3] = nullptr);
    std::shared_ptr<Process> spawn(Process* parent, const Export* entry, Term fun, Term args,
                                   bool link, bool monitor) {
        SpawnOptions opts;
        opts.link = link;
        opts.monitor = monitor;
        return spawn(parent, entry, fun, args, opts);
    }
    // What Vm::send did.
    enum class SendResult : std::uint8_t {
        Sent,
        Badarg,     // not a destination (an unregistered name, not a pid, port, name or alias)
        Suspend,    // sent to a busy port: [sender] waits until it is not busy (its waiter)
        NoSuspend,  // with nosuspend: a busy port refused the message
    };
    // erlang:send/2,3 and the send instruction (interpreter and JIT): the one way a message
    // leaves a process. The destination — a pid, a port, a registered name, {Name, Node}, an
    // alias — is resolved once, the send event is traced once, then the message is copied into
    // a fragment and enqueued (with the sender's seq_trace token), or handed to the port's
    // protocol: {Pid, {command, Data}}, {Pid, close}, {Pid, {connect, New}}, anything else
    // makes the port send badsig to its owner. A command to a busy port given by its id makes
    // [sender] wait (Suspend), or with [nosuspend] is refused; a port given by name never
    // waits. [sender] is null for the runtime's own messages (never traced).
    SendResult send(Process* sender, Term dest, Term msg, bool nosuspend = false) {
        return route(sender, dest, msg, nosuspend ? PortCommandMode::NoSuspend : PortCommandMode::Normal);
    }
    // send as the runtime sends (replies, reports, monitors' messages): a busy port never makes
    // it wait. False when [dest] is not a destination (badarg).
    bool send_message(Process* sender, Term dest, Term msg) {
        return route(sender, dest, msg, PortCommandMode::Force) != SendResult::Badarg;
    }
    // The port half of send: [msg] to the port [port_id] (no send event); a command to a busy
    // port is handled as [mode] says (vm/port.hpp).
    SendResult send_to_port(Process* sender, Term port_id, Term msg, PortCommandMode mode);
    // A message from another node (the distribution's, built in [m]'s fragment) to the
    // process [dest] names here: a pid, a registered name or an alias. Lost, its fragment
    // freed, when there is none. No send event: the sender is not on this node.
    void deliver_from_node(Term dest, Message m);
    // "Bad value on output port 'Name'" to the logger, from [p]'s heap.
    void report_bad_output(Process* p, Port* port);
    // Enqueues [signal] on [to] and makes it runnable if it waits; false if [to] has exited
    // (the signal's fragment is then freed). With [lazy_wake] (trace messages), a waiting [to]
    // is put in a run queue a little later, by this scheduler (Schedulers::wake_later), so that
    // a tracer takes a batch of messages per run instead of one.
    bool send_signal(Process* to, Message signal, bool lazy_wake = false);
    // Sends an exit signal with [reason] from [from] to [to_pid] (copying the reason), with
    // the sender's seq_trace token [seq_token] (0: none, as for signals from the runtime).
    void send_exit(Term from, Term to_pid, Term reason, bool linked, Term seq_token = 0, Word seq_epoch = 0);
    // {'DOWN', Ref, [type], Who, [reason]} for the monitor [m] (held by m.other on [who]); Who
    // is {Name, Node} for a monitor by name. Ends the watcher's half of the monitor as the
    // message is queued, under its lock, so that a demonitor either finds the message or
    // prevents it.
    void send_down(const MonitorEntry& m, Term type, Term who, Term reason);
    // Tells [to], if it is traced for procs, that [from] linked to it ([linked]) or unlinked
    // from it: its getting_linked / getting_unlinked event comes when it handles the signal.
    void send_link_event(Term from, Process* to, bool linked);
    // Sends {[ref], [value]} to [to] (the reply to a request signal).
    void reply_to(Term to, Term ref, Term value);
    // Runs the SystemTask signal [s] on [p] (null: [p] is dead) and replies to its sender.
    void run_system_task(Process* p, Message& s);
    // Runs [p]'s system tasks of one batch of signals in OTP's order of priorities.
    void run_system_tasks(Process* p, std::vector<Message>& tasks);
    // Handles the signals at the head of [p]'s inbox (owner thread only): exits, links,
    // info requests; trapped exits become messages. Sets p->pending_exit when [p] must die.
    // [in_bif]: [p] is running (a BIF handles its own signals): the signals that collect its
    // heap wait in the inbox for its next schedule-in, where its live registers are saved.
    void process_signals(Process* p, bool in_bif = false);
    // Acts on [signals], taken from [p]'s inbox, in order (process_signals).
    void handle_signals(Process* p, std::vector<Message>& signals, bool in_bif);
    // Gives up the literal memory [job] describes: every process copies what it references
    // there into its heap (vm/literal_area.hpp); [job] is freed when all have.
    void release_literals(LiteralRelease* job);
    // A purged module's literals are given up as OTP gives up a literal area: queued for
    // OTP's erts_literal_area_collector (a copy_literals message), which switches to it
    // (switch_literal_area), has every process copy what it references there (a copy_literals
    // system task, run_system_task) and switches again, which releases it. Without a
    // collector, release_literals does the same natively.
    void release_module_literals(Module& module);
    // erts_literal_area_collector:release_area_switch/0: the area being released (if any) is
    // done; the next queued one, if any, becomes the one being released (true).
    bool switch_literal_area();
    // OTP's erts_literal_area_collector process, once booted (0: none).
    std::atomic<Term> literal_area_collector{0};
    // [p]'s queued messages that hold literals of [job]'s area get copies of their own.
    void copy_released_literals_in_queue(Process* p, const LiteralRelease& job);
    // Finishes process [p] with [reason]: exit signals to links, DOWN to monitors, name
    // removal, the crash report. Owner thread only; its ETS tables are left before
    // (Schedulers::finish, ProcessResources::process_exited).
    void do_exit(Process* p, Term reason);
    // The report of [p]'s uncaught error: to the logger process, or stderr before it runs.
    void report_crash(Process* p, Term reason);
    // A report {log, Level, [format], [args], Meta} to the logger, as the emulator sends
    // one (erts_send_error_to_logger, erts_send_warning_to_logger); built on [p]'s heap.
    // Without a logger, [format] goes to stderr.
    void log_error(Process* p, std::string_view format, Term args) { log_report(p, false, format, args); }
    void log_warning(Process* p, std::string_view format, Term args) { log_report(p, true, format, args); }
    void log_report(Process* p, bool warning, std::string_view format, Term args);
    // The error report of a process whose heap went past its max_heap_size (once; the
    // collection that found it could not allocate on the heap it was collecting).
    void report_max_heap_size(Process* p);
    // erlang:system_flag(max_heap_size, ...): the limit new processes start with.
    MaxHeapSize max_heap_default() const {
        std::lock_guard guard(m_max_heap_lock);
        return m_max_heap_default;
    }
    void set_max_heap_default(const MaxHeapSize& limit) {
        std::lock_guard guard(m_max_heap_lock);
        m_max_heap_default = limit;
    }
    // Arms the timer of [p]'s receive ... after: it fires after [timeout_ms] (NO_TIMEOUT:
    // never; the receive is still marked as armed).
    void start_receive_timer(Process* p, std::uint64_t timeout_ms);
    static constexpr std::uint64_t NO_TIMEOUT = ~std::uint64_t(0);
    // Makes [p] runnable if it is waiting (caller holds p->lock); true if the caller must
    // enqueue it (after releasing the lock).
    static bool wake_locked(Process* p);

    // Process table and registered names.
    std::shared_ptr<Process> lookup_process(Term pid) const;
    // The process [pid] names, or null, without a lock or a reference count: for scheduler
    // threads, valid until the caller's next quiescent point (an exited process is freed only
    // after thread progress). Other threads get lookup_process's answer, kept alive by the table.
    Process* find_process(Term pid) const;
    std::shared_ptr<Process> whereis(Term name) const;
    void add_process(std::shared_ptr<Process> p);
    void remove_process(Process* p);
    bool register_name(Term name, Process* p);
    // Registers [port] as [name] (one registry for processes and ports).
    bool register_name(Term name, Port* port);
    // unregister/1: a process's or a port's name; false if [name] is not registered.
    bool unregister_name(Term name);
    // Drops [port]'s name [name] as it closes (the unregister event, if traced).
    void unregister_port(Term name, Port* port);
    // The pid or port registered as [name], or 0.
    Term whereis_id(Term name) const;
    std::vector<Term> registered_names() const;
    std::vector<Term> process_ids() const;
    std::size_t process_count() const;

    // erlang:suspend_process/resume_process: [by] adds (drops, [add] false) one suspension of
    // [target]. unsuspend returns false if [by] holds none. A suspended process is parked by
    // its scheduler; the last resume makes it runnable again. With a [reply_tag], [by] gets
    // {Tag, suspended} once its suspension is active (Process::SuspendReply).
    void suspend(Process* by, Process* target, bool add, Term reply_tag);
    bool unsuspend(Term by, Process* target, bool all = false);
    // Sends {Tag, [result]} for each of [replies] (taken from a Process::suspend_replies).
    void send_suspend_replies(const std::vector<Process::SuspendReply>& replies, Term result);
    // Makes a process suspended by a trapping BIF runnable (any thread).
    void resume_suspended(Process* p);
    // Traps the calling BIF: [p] is suspended until thread progress passes a point after now,
    // then [continuation] runs. The BIF returns what this returns.
    Term trap_until_thread_progress(Process* p, BifContinuation continuation);
    // Traps the calling BIF until [p] holds the code modification permission (at once if it
    // is free), then [continuation] runs holding it.
    Term trap_until_permission(Process* p, BifContinuation continuation);
    // Runs [fn] on a scheduler thread once thread progress has passed a point after now (OTP's
    // thread-progress later op); at once when no scheduler runs.
    void after_thread_progress(std::function<void()> fn);

    Schedulers* schedulers = nullptr;
    // The open ports and the I/O thread (vm/port_table.hpp).
    std::unique_ptr<PortTable> port_table;
    // The lazy JIT: a module is compiled (by [native_compiler], in the background) once one
    // of its functions has been entered [jit_hot_calls] times; 0 compiles each module as it
    // loads.
    Word jit_hot_calls = 0;
    NativeCompiler* native_compiler = nullptr;
    // i_jit_count: [p] made the function whose entry marker is [marker] hot. True when [p]
    // is to wait for its module's native code (it is resumed once it is switched in).
    bool request_native_code(Process* p, const Word* marker);
    // The process that destroys trace sessions whose strong handles were garbage collected
    // (started by the first trace:session_create/3; 0 until then).
    std::atomic<Term> trace_cleaner{0};
    // OTP's boot: undefined functions go to OTP's error_handler module once it is loaded
    // (else the VM loads the module from the code path itself), and these are the preloaded
    // modules (erlang:pre_loaded/0).
    bool otp_error_handler = false;
    std::vector<Term> preloaded;
    // erts_debug:set_internal_state(available_internal_state, true): the debug knobs OTP's own
    // test suites turn on (bif/erts_debug_bifs.cpp).
    std::atomic<bool> internal_state_available{false};
    // erts_debug:set_internal_state(test_long_gc_sleep, Ms): every collection takes Ms longer.
    std::atomic<int> test_long_gc_sleep_ms{0};
    // The process running MOD:main() (beamlet:start_main/1); its exit ends the run.
    std::shared_ptr<Process> main_process;
    // The group leader of processes started without a parent (the `user` io server).
    std::atomic<Term> default_group_leader{0};
    std::unique_ptr<ThreadProgress> thread_progress;
    std::unique_ptr<CodePermission> code_permission;
    // Modules loaded from these directories (OTP's and beamlet's libraries) stay with the
    // interpreter under the JIT engine: compiling them all at boot would cost seconds, and the
    // threaded code lets interpreted and native modules call each other freely.
    std::vector<std::string> interpreted_dirs;
    // Everything vm/ calls in the layers above it (vm/services.hpp), filled in at boot.
    VmServices services;

    // seq_trace: the system tracer (a pid; 0 for none) and the reset epoch
    // (seq_trace:reset_trace/0 voids the tokens of older epochs, in processes and in queues).
    std::atomic<Term> seq_tracer{0};
    std::atomic<Word> seq_epoch{0};

    // Standard input read on demand: the port kernel's `user` io server opens on descriptor 0
    // reads nothing until an input request reaches that server, so that a program may read
    // fd 0 itself through a port of its own (erl needs -noinput for that). [server] is the io
    // server's pid while its port waits; send_signal tells the port (Port::io_ready,
    // IO_START_INPUT) when the first get request arrives.
    struct StdinOnDemand {
        std::mutex mutex;
        std::atomic<Term> server{0};
        std::weak_ptr<Port> port;
    } stdin_on_demand;
    // An input request was sent to stdin_on_demand.server: its port starts reading.
    void start_stdin_input();

    // statistics(garbage_collection): collections so far, and the words they freed.
    std::atomic<std::uint64_t> gc_count{0}, gc_reclaimed_words{0};

    // erlang:system_flag(multi_scheduling, block | block_normal | unblock | unblock_normal):
    // each block by a process counts until it unblocks as often or exits (OTP's). Answers the
    // state after the change (enabled, blocked, blocked_normal); false for an unblock by a
    // process that holds no such block. [blockers] lists the blocking processes.
    struct MultiScheduling {
        std::mutex mutex;
        std::vector<Term> all, normal;  // one entry per block
    } multi_scheduling;
    Term multi_scheduling_change(Process* p, bool block, bool normal_only);
    Term multi_scheduling_state();
    Term multi_scheduling_state_locked();
    std::vector<Term> multi_scheduling_blockers(bool normal_only);

    // erlang:system_monitor/2's monitor and each trace session's (vm/system_monitor.hpp).
    SystemMonitors system_monitors;
    // After a collection of [p] that took [ms]: the long_gc and large_heap events.
    void monitor_gc(Process* p, std::uint64_t ms);
    // After [p] ran for [ms] from [in] to [out] (its current function then): long_schedule.
    void monitor_schedule(Process* p, std::uint64_t ms, Term in, Term out);
    // long_schedule of [who] (a process or a port) that ran [ms], with [info] as its items.
    void monitor_schedule(Term who, std::uint64_t ms, std::initializer_list<std::pair<Term, Term>> info);
    // [pid] is suspended on the busy port [port]: busy_port.
    void monitor_busy_port(Term pid, Term port);
    // [p]'s queue is [length] messages long, after it grew or shrank past a monitor's
    // long_message_queue limit (Process::check_queue_length): the on and off events.
    void monitor_msgq(Process* p, std::size_t length);
    // Sends a monitor message to [receiver], a process or a port.
    void notify_monitor(Term receiver, Term msg);
    std::unique_ptr<TimerService> timers;

    // Standard output, through the I/O layer (VmServices::io; without one, unbuffered).
    void write_stdout(std::string_view text);
    void flush_stdout();

    // The pid numbers given out so far. erts_debug:set_internal_state(next_pid, N) may set it
    // back (reuse_pid_numbers), after which take_pid_number skips the numbers of live processes.
    std::atomic<Word> next_pid{0};
    Word take_pid_number();
    void reuse_pid_numbers(Word next);
    // Moves whenever some module's code changes (loaded, deleted, purged, on_load done):
    // tracer modules re-resolve their callbacks then.
    std::atomic<Word> code_generation{0};
    std::atomic<Word> next_ref{0};
    std::atomic<std::int64_t> next_unique{1};
    // Wall-clock microseconds, strictly increasing across calls (erlang:now/0 and trace
    // timestamps share it, as OTP's).
    std::int64_t unique_now_us();
    std::atomic<std::int64_t> last_now_us{0};
    std::int64_t start_monotonic_ns = 0;
    // The exit status requested by erlang:halt/1; -1 while running.
    std::atomic<int> halt_status{-1};

private:
    // send's one route from a destination to a process or a port; [port_mode] is for a port
    // given by its id.
    SendResult route(Process* sender, Term dest, Term msg, PortCommandMode port_mode);
    // The owner of the active alias [alias] (a reference), or null; a reply alias ends here.
    std::shared_ptr<Process> alias_target(Term alias);
    // Points [module]'s exports at its code and undefines those [previous] had that it lacks;
    // m_modules_mutex is held.
    void publish_exports_locked(Module* module, Module* previous);

    mutable SpinLock m_max_heap_lock;
    MaxHeapSize m_max_heap_default;
    struct LambdaStub;
    std::mutex m_lambda_stubs_mutex;
    std::map<std::tuple<Term, Word, Word, Word, Word>, std::unique_ptr<LambdaStub>> m_lambda_stubs;
    mutable std::mutex m_modules_mutex;
    mutable std::mutex m_code_path_mutex;
    std::vector<std::string> m_code_path;
    std::mutex m_load_mutex;
    mutable SpinLock m_process_mutex;
    std::unordered_map<Term, std::shared_ptr<Process>> m_processes;
    // Exited processes waiting to be freed after thread progress (bury, seal_graveyard).
    void bury(std::shared_ptr<Process> p);
    void seal_graveyard();
    SpinLock m_graveyard_mutex;
    std::vector<std::shared_ptr<Process>> m_graveyard;
    bool m_graveyard_sealing = false;
    // find_process's lock-free first look: slot pid_number % FAST_SLOTS holds the process with
    // that number if it was free when the process was added (written under m_process_mutex).
    static constexpr Word FAST_SLOTS = Word(1) << 16;
    std::unique_ptr<std::atomic<Process*>[]> m_fast_processes;
    std::unordered_map<Term, Process*> m_registered;
    std::unordered_map<Term, Port*> m_registered_ports;  // under m_process_mutex too
    std::unordered_map<Term, std::unique_ptr<Module>> m_modules;      // current code
    std::unordered_map<Term, std::unique_ptr<Module>> m_old_modules;  // old code
    std::vector<std::unique_ptr<Module>> m_purged_modules;            // kept, never run again
    // Every module ever published, by the address its code starts at (module_containing:
    // a stack trace asks it for each frame). A published Module lives as long as the Vm (old
    // code replaced without a purge joins m_purged_modules), so entries are never removed.
    std::map<const Word*, const Module*> m_code_index;
    // Tells this Vm's entries in module_containing's per-thread cache from an earlier Vm's
    // (one made at the same address after it): unique per process, never reused.
    const std::uint64_t m_serial;
    // Moves the old code of [name], if any, to m_purged_modules (m_modules_mutex is held).
    void retire_old_locked(Term name);
    // The old code whose purge is pending (prepare_purge) and the processes that wait for its
    // end; under m_purge_mutex.
    std::mutex m_purge_mutex;
    const Module* m_purge_pending = nullptr;
    std::vector<Term> m_purge_waiters;
    std::atomic<bool> m_pid_numbers_reused{false};
    void end_pending_purge(const Module* module);
    // Literal areas queued for the collector, and the one it releases (m_literal_mutex).
    std::mutex m_literal_mutex;
    std::deque<LiteralRelease*> m_literal_queue;
    LiteralRelease* m_literal_area = nullptr;
    LiteralRelease* literal_area_being_released();
};

// {io_request, From, ReplyAs, Request} where Request reads input (get_line, get_chars, ...).
bool is_input_request(Term msg);

}  // namespace beamlet::vm
