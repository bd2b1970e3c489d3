// vm/port.hpp — Port: an Erlang port — its identity, owner, links and monitors, registered
// name and trace state, the operations processes perform on it, and how it runs (DESIGN.md §6).
//
// A port is a scheduler task next to processes (vm/task.hpp). Work reaches it two ways:
//  - operations from processes (commands, close, connect, link, unlink, exit signals,
//    port_info), which the calling process executes itself, at once, as OTP's immediate port
//    calls do: it takes the port's execution lock [exec] (blocking: a port's turn is short and
//    bounded), first runs anything queued before it, then its own operation;
//  - I/O readiness from the poller thread (vm/io_poller.hpp), which sets a bit in
//    [io_events] and puts the port in a run queue; a scheduler runs it (Port::run_task).
// Exactly one thread executes a port at a time, the holder of [exec]; the driver's state is
// touched only there. Operations that may not execute where they are issued (a trace message
// to a port tracer, from inside a collection or with locks held) are queued (Port::post) and
// run by the port's next turn.
//
// Locks: [exec] may be taken before [lock] and before any process's lock, never after them,
// and a thread holding [exec] never takes another port's [exec].
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vm/heap.hpp"
#include "vm/process.hpp"
#include "vm/term.hpp"
#include "vm/trace_hooks.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

struct Vm;
class PortDriver;
struct RuntimePacket;

// What a port is asked to do (OTP's proc-to-port signals). The running_ports events name it
// (in/out Command): Io is an I/O readiness run, named 0 as in OTP.
enum class PortOp : std::uint8_t {
    Open, Command, Close, Connect, Link, Unlink, Exit, Info, Control, Call, Monitor, Demonitor, Io,
    DistOutput,  // a distribution port's output queue has packets (OTP's dist command task)
};

// I/O readiness, bits of Port::io_events set by the poller.
enum IoEvent : std::uint32_t {
    IO_READ = 1u << 0,   // the program's output can be read (or reached end of file)
    IO_WRITE = 1u << 1,  // the program's input pipe has room again
    IO_CHILD = 1u << 2,  // the program exited
    IO_HUP = 1u << 3,    // with IO_READ: the writer hung up (no edge will follow the last data)
    IO_START_INPUT = 1u << 4,  // an on-demand input side starts reading (Vm::stdin_on_demand)
    IO_TIMER = 1u << 5,        // a driver's timer expired (a timerfd: inet's timeouts)
    IO_SOCKET = IO_READ | IO_WRITE,  // IoPoller::watch: both directions of one descriptor
};

// What a port operation came to (OTP's ErtsPortOpResult, as the BIFs need it).
enum class PortOpResult : std::uint8_t {
    Done,
    Dropped,  // the port is closed (badarg for the BIFs), or the operation was refused
    Busy,     // the port is busy: nothing was done (port_command's nosuspend)
    Suspend,  // done, but the port is busy: the caller waits until it is not (a busy waiter)
};

// How a command treats a busy port: PortCommandMode (vm/vm.hpp).

// An operation queued for a port's next turn.
struct PortSignal {
    PortSignal() = default;
    explicit PortSignal(PortOp op_, Term from_ = 0) : op(op_), from(from_) {}

    PortOp op = PortOp::Command;
    Term from = 0;       // who issued it (a pid; 0: the runtime)
    std::string data;    // Command: the bytes
    std::vector<std::size_t> pieces;  // Command: where its I/O vector's pieces end (Port::command)
};

// Open; Closing: closed for Erlang (operations are refused, links and monitors were told) but
// still listed while the program takes the output queued before the close (OTP's closing
// state: no data is lost); Closed.
enum class PortState : std::uint8_t { Open, Closing, Closed };

struct Port {
    Port(Vm& vm, Word number);
    ~Port();
    Port(const Port&) = delete;
    Port& operator=(const Port&) = delete;

    Vm& vm;
    const Term id;
    Term driver_name = 0;   // the atom of the open trace event: the command or the executable
    std::string name;       // port_info(Port, name)
    Word index = 0;         // port_info(Port, id): the port's number
    bool parallelism = false;  // port_info(Port, parallelism), as opened
    bool takes_vectors = false;  // the driver's (PortDriver::takes_vectors), as opened

    // ---- guarded by [lock] ----
    std::mutex lock;
    PortState state = PortState::Open;
    std::atomic<Term> owner{0};             // the connected process (read without the lock)
    std::vector<Term> links;                // pids
    std::vector<MonitorEntry> monitored_by; // monitors processes hold on this port
    Term registered_name = 0;
    // Queued operations (post): rare, so a vector (a deque costs half a kilobyte per port).
    std::vector<PortSignal> signals;
    std::vector<Term> busy_waiters;         // processes suspended until the port is not busy
    bool busy = false;                      // its output queue passed the high watermark
    // Scheduling: [task_hold] keeps the port alive while it sits in a run queue.
    bool task_queued = false;
    std::shared_ptr<Port> task_hold;
    std::weak_ptr<Port> self;               // set by the port table

    // ---- tracing: the same members as Process, so tracing/ treats both alike ----
    std::vector<TracerRef> trace_refs;
    std::atomic<std::uint32_t> all_trace_flags{0};
    std::atomic<std::uint32_t> trace_seq{0};
    std::atomic<TraceSession*> sole_trace_session{nullptr};
    std::atomic<Word> sole_tracer{0};

    // ---- I/O readiness (poller thread → executor) ----
    std::atomic<std::uint32_t> io_events{0};

    // ---- statistics (port_info, and every port's for statistics(io)) ----
    std::atomic<std::uint64_t> input_bytes{0}, output_bytes{0};
    static inline std::atomic<std::uint64_t> all_input_bytes{0}, all_output_bytes{0};
    void count_input(std::size_t n) {
        input_bytes.fetch_add(n, std::memory_order_relaxed);
        all_input_bytes.fetch_add(n, std::memory_order_relaxed);
    }
    void count_output(std::size_t n) {
        output_bytes.fetch_add(n, std::memory_order_relaxed);
        all_output_bytes.fetch_add(n, std::memory_order_relaxed);
    }
    // A distribution port's connection (erlang:setnode/3), under [lock]; [distribution] says
    // so without it: the driver then hands its input packets to VmServices::dist.
    std::shared_ptr<DistChannel> dist;
    std::atomic<bool> distribution{false};
    // port_set_data/2's term, in its own fragment (under [lock]).
    Term data = 0;
    HeapFragment* data_fragment = nullptr;

    // ---- executor-only: the holder of [exec] ----
    std::mutex exec;
    std::unique_ptr<PortDriver> driver;

    bool is_open() {
        std::lock_guard guard(lock);
        return state == PortState::Open;
    }
    // Open, or closing while its output drains (what port_info and I/O turns still serve).
    bool is_alive() {
        std::lock_guard guard(lock);
        return state != PortState::Closed;
    }

    // ---- operations from processes (each takes [exec]; the caller holds no lock) ----

    // The port's first turn, right after open_port put it in the table: the open operation,
    // the link to [opener], then the driver's start as an I/O turn (OTP's spawn
    // acknowledgement).
    // A port a driver opened (![traced_open]: an accepted socket) has no open operation or
    // link events, as OTP's driver_create_port.
    void start(Term opener, bool traced_open = true);

    // Output [bytes] from [caller] (port_command/2,3, Port ! {Pid, {command, D}}). A port that
    // is busy when it comes is treated as [mode] says; in Normal mode [waiter] (if not 0) is
    // registered to be resumed when the port stops being busy, and the answer is Suspend.
    // [pieces]: where the I/O vector's pieces end, for a port that [takes_vectors]
    // (iolist_vector); none: one piece.
    PortOpResult command(Term caller, std::string_view bytes, PortCommandMode mode, Term waiter = 0,
                         std::span<const std::size_t> pieces = {});
    // [packets] from the runtime, each one command as if by command(0, ...), in the port's
    // turn (the holder of [exec]): the distribution's output queue, written by its
    // DistOutput operation.
    // Answers the bytes the driver still queues.
    std::size_t write_in_turn(const std::vector<RuntimePacket>& packets);
    // port_close/1, Port ! {Pid, close} ([bang]: the owner only; {Port, closed} goes back).
    PortOpResult close(Term caller, bool bang);
    // port_connect/2 ([bang]: Port ! {Pid, {connect, New}}, owner only, {Port, connected}).
    PortOpResult connect(Term caller, Term new_owner, bool bang);
    // A link from [pid] (link/1 on the process side has added its half).
    PortOpResult link(Term pid);
    // unlink/1 from [pid].
    void unlink(Term pid);
    // An exit signal from [from] with [reason]: exit/2 ([linked] false) or a linked process
    // that died ([linked] true; a normal exit of a process that is not the owner is ignored).
    PortOpResult exit_signal(Term from, Term reason, bool linked);
    // Adds a monitor from [watcher] (erlang:monitor(port, ...)); false if the port is closed.
    bool add_monitor(const MonitorEntry& entry);
    // Removes the monitor with reference [ref_id]; true if it was there. As a port operation
    // (demonitor/1,2) or quietly ([quiet]: the watcher exited).
    bool remove_monitor(const Word ref_id[3], bool quiet = false);
    // port_control/3 from [caller] with [op] and [data] (traced as received): the driver's
    // reply, or nullopt (badarg: a closed port, or no such operation).
    std::optional<std::string> control(Term caller, Term op, std::string_view data, bool* binary = nullptr);
    // port_call/3 from [caller] with [op] and [data] (the argument in the external format): the
    // driver's reply, or nullopt (badarg: a closed port, a driver without call operations).
    std::optional<std::string> call(Term caller, Term op, std::string_view data);
    // port_set_data/2 and port_get_data/1: a term kept with the port (copied).
    void set_data(Term data);
    Term get_data(Process* p);
    // Runs [fn] as the port's info operation (port_info: the in/out info events).
    template <typename Fn>
    auto info(Fn&& fn);

    // Queues [signal] for the port's next turn, from any thread (never executes it here).
    void post(PortSignal signal);
    // Queues [msg] in the external format as a command from the runtime: what a port that is
    // a tracer or a system monitor's receiver is sent.
    void post_term(Term msg);
    // Called by the poller: [events] happened; schedules a run.
    void io_ready(std::uint32_t events);
    // A scheduler's run of this port (I/O readiness and queued operations).
    void run_task();
    // The port leaves a run queue without running (the schedulers stopped).
    void drop_task();

    // ---- for drivers, while executing (holding [exec]) ----

    // Sends [msg] (built in [frag], which it takes) to the owner, traced as the port's send.
    void send_to_owner(Term msg, HeapFragment* frag);
    // Likewise to [to] (a driver's reply to the process that asked). As OTP traces a driver's
    // messages: output for a process that is gone is dropped untraced, a term sent to one
    // ([trace_missing]: driver_send_term) is traced as send_to_non_existing_process, and what
    // a thread of the driver's own sends is not traced at all (![traced]).
    void send_to(Term to, Term msg, HeapFragment* frag, bool trace_missing = false, bool traced = true);
    // The port's 'receive' event for [msg] from the runtime (a driver's timer: timeout).
    void trace_received(Term msg);
    // Sends {Port, {data, [data]}} with [data] built by the caller in [frag].
    void deliver(Term data, HeapFragment* frag);
    // Closes the port with [reason]: links get exit signals (unless not [tell_links]: they are
    // dropped quietly, as inet's exit_on_close does), monitors 'DOWN', the driver stops.
    // [trace_reason]: the reason the closed event shows (kill where links see killed).
    void terminate(Term reason, Term trace_reason = 0, bool tell_links = true);
    // The driver's output queue crossed a watermark.
    void set_busy(bool on);
    // A closing port's output has drained (or cannot): it leaves the port table.
    void finish_closing();
    // The driver wants another turn (it stopped early to let others run).
    void reschedule();

    // Port-running events (running_ports), traced when flagged.
    void trace_in(PortOp op);
    void trace_out(PortOp op);

private:
    // Takes [exec], runs what was queued, then [fn] (if the port is still open), releases
    // [exec] and schedules a run if work arrived meanwhile.
    template <typename Fn>
    PortOpResult execute(PortOp op, Fn&& fn);
    void drain_signals();
    void handle_io();
    void schedule();
    void after_execution();
    void perform(PortSignal& s);
    // The 'receive' event of a command.
    void trace_received_command(Term caller, std::string_view bytes, std::span<const std::size_t> pieces);
    // The driver's output of a command, with its 'receive' event (the caller holds [exec]).
    void output_command(Term caller, std::string_view bytes, std::span<const std::size_t> pieces);
    // port_control/3 and port_call/3 ([tag] control or call): traced as received and the reply
    // as sent, both as OTP traces them.
    std::optional<std::string> request(PortOp op, Term caller, Term operation, std::string_view bytes,
                                       bool* binary);
};

// Opens the port [driver] serves for [owner] (a running process, linked to it): named [name]
// (port_info) and [driver_name] (the open trace event), in the port table, its new-port trace
// flags and open event first, then its own open operation and the driver's first I/O turn
// (OTP's spawn acknowledgement), which starts the watching of its descriptors. open_port/2,
// and a driver that opens a port of its own ([by_driver]: an accepted socket, OTP's
// driver_create_port, which takes the new-port trace flags but reports no open event).
std::shared_ptr<Port> open_port(Vm& vm, Process* owner, std::unique_ptr<PortDriver> driver, const std::string& name,
                                Term driver_name, bool parallelism = false, bool by_driver = false);

// The atom a running_ports event names [op] with (0 for Io).
Term port_op_name(PortOp op);

// Holds a port's execution lock for a scope and marks this thread as executing a port: code
// that runs inside a port's turn (an Erlang tracer module called for one of its events) must
// not wait for a port's execution lock — the same port's would deadlock, another's could —
// so port operations from there are queued (Port::post) or refused instead.
class PortExecution {
public:
    explicit PortExecution(Port& port);
    ~PortExecution();
    PortExecution(const PortExecution&) = delete;
    PortExecution& operator=(const PortExecution&) = delete;
    // Whether this thread is inside some port's turn.
    static bool active();

private:
    std::unique_lock<std::mutex> m_guard;
    Port* m_outer;
};

template <typename Fn>
PortOpResult Port::execute(PortOp op, Fn&& fn) {
    if (PortExecution::active()) return PortOpResult::Dropped;  // from inside a port's turn
    PortOpResult result = PortOpResult::Dropped;
    {
        PortExecution running(*this);
        drain_signals();
        if (is_open()) {
            trace_in(op);
            result = fn();
            if (is_open()) trace_out(op);
        }
    }
    after_execution();
    return result;
}

template <typename Fn>
auto Port::info(Fn&& fn) {
    // Inside a port's turn, the answer is read without the port's lock (and untraced).
    if (PortExecution::active()) return fn(is_alive());
    std::optional<PortExecution> running(std::in_place, *this);
    drain_signals();
    bool open = is_alive();
    if (open) trace_in(PortOp::Info);
    auto value = fn(open);
    if (open) trace_out(PortOp::Info);
    running.reset();
    after_execution();
    return value;
}

}  // namespace beamlet::vm
