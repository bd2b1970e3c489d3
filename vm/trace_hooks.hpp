// vm/trace_hooks.hpp — the seam out of vm/ for tracing: breakpoints reached by running code and
// process events (messages, procs, scheduling, garbage collection). tools/boot.cpp installs
// tracing/'s implementation (DESIGN.md §1).
//
// Every event site in vm/ first tests the process's all_trace_flags (one relaxed load and a
// test), so untraced processes never call through the seam.
#pragma once

#include <cstdint>
#include <vector>

#include "vm/term.hpp"

namespace beamlet::vm {

struct CodeInfo;
struct Export;
struct Message;
struct Module;
struct Port;
struct Process;
struct TraceSession;

// Process trace flags (OTP's F_TRACE_* that beamlet implements).
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
    TRACE_SEND = 1u << 11,
    TRACE_RECEIVE = 1u << 12,
    TRACE_PROCS = 1u << 13,
    TRACE_RUNNING = 1u << 14,        // running: in / out
    TRACE_EXITING = 1u << 15,        // exiting: in_exiting / out_exiting / out_exited
    TRACE_GC = 1u << 16,             // garbage_collection
    TRACE_SCHEDULER_ID = 1u << 17,   // scheduler_id: the scheduler's number in every message
    TRACE_PORTS = 1u << 18,
    TRACE_RUNNING_PORTS = 1u << 19,
    TRACE_RUNNING_PROCS = 1u << 20,  // running_procs: in / out, as running without ports
};

inline constexpr std::uint32_t TRACE_TIMESTAMPS = TRACE_TS_NOW | TRACE_TS_MONO | TRACE_TS_STRICT;
// The flags that schedule-in/out events need.
inline constexpr std::uint32_t TRACE_SCHEDULING = TRACE_RUNNING | TRACE_EXITING | TRACE_RUNNING_PROCS;

// Who receives a session's events for a process: a local process (its pid), a local port, or
// a tracer module {Module, State} (tracing/tracer_module.hpp), whose interned descriptor the word holds
// as a small integer. Either way a Tracer is one word that is also a valid term (it can sit in
// a stack frame or a breakpoint's meta-tracer slot) and can be published atomically.
class Tracer {
public:
    constexpr Tracer() = default;
    static constexpr Tracer process(Term pid) { return Tracer(pid); }
    // A port tracer: it gets each message as term_to_binary's bytes, as a command.
    static constexpr Tracer port(Term port_id) { return Tracer(port_id); }
    static Tracer module(const void* descriptor) {
        return Tracer(Word(make_small(SWord(reinterpret_cast<Word>(descriptor)))));
    }
    static constexpr Tracer from_word(Word w) { return Tracer(w); }

    bool is_none() const { return m_word == 0; }
    bool is_process() const { return is_pid(m_word); }
    bool is_port() const { return vm::is_port(m_word); }
    bool is_module() const { return is_small(m_word); }
    // The tracer process's pid (is_process()).
    Term pid() const { return m_word; }
    // The tracer module's descriptor (is_module()).
    const void* descriptor() const { return reinterpret_cast<const void*>(Word(small_value(m_word))); }
    Word word() const { return m_word; }
    explicit operator bool() const { return !is_none(); }
    bool operator==(const Tracer&) const = default;

private:
    constexpr explicit Tracer(Word w) : m_word(w) {}
    Word m_word = 0;
};

// A process's call_time / call_memory state in one session: the function being charged and
// since when (monotonic nanoseconds, or allocated words). A function is named by its
// breakpoint chain: a function header's, or a BIF export's.
struct CallAccounting {
    TraceSession* session;
    const void* time_site;
    std::int64_t time_since;
    std::int64_t time_calls;    // calls to time_site not yet added to its table
    const void* memory_site;
    std::int64_t memory_since;
    std::int64_t memory_calls;
};

// One session's tracing of one process: its flags and tracer.
struct TracerRef {
    TraceSession* session;
    Tracer tracer;
    std::uint32_t flags;
};

// What a process does as the scheduler switches it (the running and exiting events).
enum class SchedEvent : std::uint8_t { In, Out, InExiting, OutExiting, OutExited };

class TraceHooks {
public:
    virtual ~TraceHooks() = default;

    // ---- call tracing ----

    // [p] reached the breakpoint in the function of [ci] with its arguments in [x]. Returns the
    // original first instruction word, which the engine executes next. The engine has stored
    // its stack pointer and continuation pointer in p->stop and p->cp and reloads both: the
    // breakpoint may push trace frames (vm/trace_frames.hpp).
    virtual Word function_breakpoint(Process* p, const CodeInfo* ci, Term* x) = 0;
    // [p] called export [e] whose breakpoint is installed (global tracing, or any kind on a
    // BIF). Returns the address to continue at. p->stop and p->cp as for function_breakpoint.
    virtual const Word* export_breakpoint(Process* p, Export* e, Term* x) = 0;
    // [p] returned into trace_return_code() with [value]: the trace frame is at p->stop. Pops
    // it and returns where execution continues.
    virtual const Word* trace_frame_returned(Process* p, Term value) = 0;
    // An exception (p->exception) unwinds the stack words [from, to) of [p], which hold trace
    // frames; [catch_at] is the handler that catches it, or null when the process dies.
    virtual void exception_unwinding(Process* p, Term* from, Term* to, const Word* catch_at) = 0;
    // [p], which is traced, is being scheduled in: its tracers that have gone lose its flags.
    virtual void drop_dead_tracers(Process* p) { (void)p; }
    // [p], which has call accounting, is scheduled out ([out]) or in.
    virtual void schedule_break(Process* p, bool out) = 0;
    // [module] is about to be published: no process can run its code yet (on_load patterns).
    virtual void module_loading(Module& module) = 0;
    // The function of [ci] starts with [word] from now on (a NIF was bound to it): written
    // where a breakpoint will go on, when the function carries one. Under the code
    // modification permission.
    virtual void replace_entry_word(const CodeInfo* ci, Word word) { write_entry_word(ci, word); }
    // The lazy JIT registered [ci]'s native entry (vm/native_compiler.hpp), under the code
    // modification permission, before switching the function's markers on: a breakpoint in
    // the threaded code arms the native entry too.
    virtual void native_entry_adopted(const CodeInfo* ci) { (void)ci; }
    static void write_entry_word(const CodeInfo* ci, Word word);

    // ---- process and message events; each is called only when the process's
    // all_trace_flags has the event's flag (or for inheritance, the flags it inherits) ----

    // [parent] spawned [child] with the initial call [mfa] ({M, F, Args}), [linked] to it
    // (spawn_link): inheritance (set_on_spawn, set_on_link, new-process flags), then the
    // spawned, spawn, link and getting_linked events. Called for every spawn (new-process
    // flags apply to children of untraced parents).
    virtual void process_spawned(Process* parent, Process* child, Term mfa, bool linked) = 0;
    // [linker] linked to [linked] with link/1: set_on_link inheritance (sessions only: the
    // legacy session inherits through spawn_link alone, as OTP 25), then [linker]'s link event
    // ([linked]'s getting_linked comes with the link signal, Vm::send_link_event).
    virtual void process_linked(Process* linker, Process* linked) = 0;
    // [unlinker] called unlink/1 on [other_pid]: its unlink event.
    virtual void process_unlinked(Process* unlinker, Term other_pid) = 0;
    // A procs event of [p]: {trace, P, [what], [arg]} (exit, register, unregister,
    // getting_unlinked). [p] need not be the running process.
    virtual void process_event(Process* p, Term what, Term arg) = 0;
    // [sender] (traced for send) sent [msg] to [to], the destination as given; [exists] is
    // false when [to] names a local pid that does not exist (send_to_non_existing_process).
    virtual void message_sent(Process* sender, Term to, Term msg, bool exists) = 0;
    // [p] (traced for 'receive') moved [m] from its inbox into its message queue; runs on
    // [p]'s own thread.
    virtual void message_queued(Process* p, const Message& m) = 0;
    // [p]'s receive ... after timed out (traced for 'receive').
    virtual void receive_timeout(Process* p) = 0;
    // [p] is switched in or out by a scheduler (traced for running or exiting).
    virtual void scheduled(Process* p, SchedEvent event) = 0;
    // [p] (traced for garbage_collection) starts ([end] false) or ends a collection; [words]
    // is the need at the start and what was reclaimed at the end. Called from inside the GC:
    // [p]'s heap must not be touched.
    virtual void garbage_collection(Process* p, bool end, bool major, Word words) = 0;

    // ---- port events; each (but port_opened) is called only when the port's all_trace_flags
    // has the event's flag ----

    // [port] was opened by [opener] with [driver] (an atom; 0: by a driver, which has no open
    // event): the sessions' new-port flags,
    // then the open event. Called for every port, traced or not.
    virtual void port_opened(Port* port, Term opener, Term driver) { (void)port, (void)opener, (void)driver; }
    // {trace, Port, [what], [arg]}: closed, getting_linked, getting_unlinked, register,
    // unregister (ports).
    virtual void port_event(Port* port, Term what, Term arg) { (void)port, (void)what, (void)arg; }
    // {trace, Port, in | out, Command} (running_ports); [command] is an atom or 0.
    virtual void port_scheduled(Port* port, Term what, Term command) { (void)port, (void)what, (void)command; }
    // {trace, Port, send, Msg, To} ([exists] false: send_to_non_existing_process).
    virtual void port_sent(Port* port, Term to, Term msg, bool exists) { (void)port, (void)to, (void)msg, (void)exists; }
    // {trace, Port, 'receive', Msg}: [msg] is {From, Operation} as OTP shows it.
    virtual void port_received(Port* port, Term from, Term msg) { (void)port, (void)from, (void)msg; }

    // ---- seq_trace (vm/seq_trace.cpp) ----
    // {seq_trace, Label, {Kind, {LastCnt, Serial}, From, To, Msg}[, Ts]} for [token] to the
    // system tracer [tracer]; [kind] is send, 'receive' or print (then [to] is []).
    virtual void seq_trace_event(Term tracer, Term token, Term kind, Term from, Term to, Term msg) {
        (void)tracer, (void)token, (void)kind, (void)from, (void)to, (void)msg;
    }
};

// Work that is not the process's own (loading and compiling a module it needs): call_time
// stops counting for [p] meanwhile, as if it were scheduled out.
class CallAccountingPause {
public:
    explicit CallAccountingPause(Process* p);
    ~CallAccountingPause();
    CallAccountingPause(const CallAccountingPause&) = delete;
    CallAccountingPause& operator=(const CallAccountingPause&) = delete;

private:
    Process* m_p;  // null: nothing paused
};

}  // namespace beamlet::vm
