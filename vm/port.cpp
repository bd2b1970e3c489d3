// vm/port.cpp — a port's operations, its turns on the schedulers, and its end.
#include "vm/port.hpp"

#include <algorithm>
#include <chrono>

#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/copy.hpp"
#include "vm/external_term.hpp"
#include "vm/port_driver.hpp"
#include "vm/port_table.hpp"
#include "vm/scheduler.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

namespace {

// How many read turns an I/O run takes before it lets other tasks run.
constexpr int IO_RUN_BUDGET = 16;

bool traced(const Port* port, std::uint32_t flag) {
    return (port->all_trace_flags.load(std::memory_order_relaxed) & flag) && port->vm.services.trace;
}

Term tuple_on(Term* hp, std::initializer_list<Term> elements) {
    hp[0] = make_arityval(elements.size());
    Word i = 1;
    for (Term e : elements) hp[i++] = e;
    return make_boxed(hp);
}

// The port whose turn this thread is running (innermost), or null.
thread_local Port* t_executing = nullptr;

}  // namespace

PortExecution::PortExecution(Port& port) : m_guard(port.exec), m_outer(t_executing) { t_executing = &port; }

PortExecution::~PortExecution() { t_executing = m_outer; }

bool PortExecution::active() { return t_executing != nullptr; }

Term port_op_name(PortOp op) {
    switch (op) {
    case PortOp::Open: return atom("open");
    case PortOp::Command: return atom("command");
    case PortOp::Close: return atom("close");
    case PortOp::Connect: return atom("connect");
    case PortOp::Link: return atoms::link;
    case PortOp::Unlink: return atoms::unlink;
    case PortOp::Info: return atom("info");
    case PortOp::Control: return atom("control");
    case PortOp::Call: return atom("call");
    case PortOp::Monitor: return atom("monitor");
    case PortOp::Demonitor: return atom("demonitor");
    case PortOp::Exit:
    case PortOp::Io:
    case PortOp::DistOutput: return make_small(0);
    }
    return make_small(0);
}

std::shared_ptr<Port> open_port(Vm& vm, Process* owner, std::unique_ptr<PortDriver> driver, const std::string& name,
                                Term driver_name, bool parallelism, bool by_driver) {
    std::shared_ptr<Port> port = vm.port_table->make();
    port->name = name;
    port->parallelism = parallelism;
    port->driver_name = driver_name;
    port->owner.store(owner->id, std::memory_order_release);
    port->links.push_back(owner->id);
    port->driver = std::move(driver);
    port->takes_vectors = port->driver->takes_vectors();
    {
        std::lock_guard guard(owner->lock);
        owner->links.push_back(port->id);
    }
    vm.port_table->add(port);
    if (vm.services.trace) vm.services.trace->port_opened(port.get(), owner->id, by_driver ? 0 : driver_name);
    port->start(owner->id, !by_driver);
    return port;
}

Port::Port(Vm& vm_, Word number) : vm(vm_), id(make_port(number)), index(number) {}

Port::~Port() { free_fragment(data_fragment); }

void Port::trace_in(PortOp op) {
    if (traced(this, TRACE_RUNNING_PORTS)) vm.services.trace->port_scheduled(this, atoms::in, port_op_name(op));
}

void Port::trace_out(PortOp op) {
    if (traced(this, TRACE_RUNNING_PORTS)) vm.services.trace->port_scheduled(this, atoms::out, port_op_name(op));
}

// ---- scheduling ----------------------------------------------------------------------------------

void Port::schedule() {
    if (!vm.schedulers) return;  // nothing runs any more (VM exit)
    std::shared_ptr<Port> hold = self.lock();
    if (!hold) return;
    {
        std::lock_guard guard(lock);
        if (task_queued || state == PortState::Closed) return;
        task_queued = true;
        task_hold = std::move(hold);
    }
    vm.schedulers->enqueue(Task(this));
}

void Port::io_ready(std::uint32_t events) {
    io_events.fetch_or(events, std::memory_order_release);
    schedule();
}

void Port::reschedule() { schedule(); }

void Port::post_term(Term msg) {
    PortSignal command(PortOp::Command);
    encode_external(msg, EncodeOptions{}, &command.data);
    post(std::move(command));
}

void Port::post(PortSignal signal) {
    {
        std::lock_guard guard(lock);
        if (state != PortState::Open) return;
        signals.push_back(std::move(signal));
    }
    schedule();
}

void Port::after_execution() {
    // Work that arrived while [exec] was held (I/O readiness, queued operations) gets a turn:
    // its producer saw the port busy and relied on the holder to notice it.
    bool pending = io_events.load(std::memory_order_acquire) != 0;
    if (!pending) {
        std::lock_guard guard(lock);
        pending = !signals.empty();
    }
    if (pending) schedule();
}

void Port::run_task() {
    std::shared_ptr<Port> hold;
    {
        std::lock_guard guard(lock);
        task_queued = false;
        hold = std::move(task_hold);
    }
    {
        // Someone else executing the port runs this work when it finishes (after_execution).
        std::unique_lock guard(exec, std::try_to_lock);
        if (!guard.owns_lock()) return;
        Port* outer = t_executing;
        t_executing = this;
        drain_signals();
        handle_io();
        t_executing = outer;
    }
    after_execution();
}

void Port::drop_task() {
    std::shared_ptr<Port> hold;
    std::lock_guard guard(lock);
    task_queued = false;
    hold.swap(task_hold);
}

void Port::drain_signals() {
    while (true) {
        PortSignal s;
        {
            std::lock_guard guard(lock);
            if (signals.empty() || state != PortState::Open) return;
            s = std::move(signals.front());
            signals.erase(signals.begin());
        }
        perform(s);
    }
}

void Port::trace_received_command(Term caller, std::string_view bytes, std::span<const std::size_t> pieces) {
    if (!traced(this, TRACE_RECEIVE)) return;
    // {Caller, {command, Data}}: the data as one binary whatever iolist it was, or, for a
    // driver that takes vectors, the vector's pieces as a list of binaries.
    std::size_t one[1] = {bytes.size()};
    if (pieces.empty() && !bytes.empty()) pieces = one;
    Word words = binary_words(bytes.size()) + 6 + 2 * pieces.size();
    for (std::size_t i = 0, from = 0; i < pieces.size(); from = pieces[i++]) words += binary_words(pieces[i] - from);
    HeapFragment* frag = HeapFragment::create(words);
    auto binary_of = [&](std::size_t from, std::size_t to) {
        return make_binary_in(frag->alloc(binary_words(to - from)), &frag->off_heap_first,
                              reinterpret_cast<const std::uint8_t*>(bytes.data() + from), to - from);
    };
    Term data;
    if (takes_vectors) {
        data = NIL;
        for (std::size_t i = pieces.size(); i-- > 0;)
            data = make_cons_on(frag->alloc(2), binary_of(i ? pieces[i - 1] : 0, pieces[i]), data);
    } else {
        data = binary_of(0, bytes.size());
    }
    Term cmd = tuple_on(frag->alloc(3), {atom("command"), data});
    vm.services.trace->port_received(this, caller, tuple_on(frag->alloc(3), {caller, cmd}));
    free_fragment(frag);
}

void Port::output_command(Term caller, std::string_view bytes, std::span<const std::size_t> pieces) {
    if (caller) trace_received_command(caller, bytes, pieces);
    count_output(bytes.size());
    if (takes_vectors) driver->output_vector(*this, caller, bytes, pieces);
    else driver->output(*this, caller, bytes);
}

void Port::perform(PortSignal& s) {
    switch (s.op) {
    case PortOp::DistOutput:
        if (vm.services.dist) vm.services.dist->output(*this);
        break;
    case PortOp::Command:
        trace_in(PortOp::Command);
        output_command(s.from, s.data, s.pieces);
        if (is_open()) trace_out(PortOp::Command);
        break;
    default:
        break;
    }
}

namespace {

// erlang:system_monitor's long_schedule for a port: a turn of its driver that took [ms]
// milliseconds, {monitor, Port, long_schedule, [{timeout, Ms}, {port_op, Op}]} (OTP names the
// operation: timeout, input, output).
void monitor_port_schedule(Port& port, std::uint64_t ms, Term op) {
    std::uint64_t limit = port.vm.system_monitors.long_schedule_ms();
    if (!limit || ms < limit) return;
    port.vm.monitor_schedule(port.id, ms, {{atom("timeout"), make_small(SWord(ms))}, {atom("port_op"), op}});
}

}  // namespace

void Port::handle_io() {
    bool timed = vm.system_monitors.long_schedule_ms() != 0;
    for (int turn = 0; turn < IO_RUN_BUDGET; ++turn) {
        std::uint32_t events = io_events.exchange(0, std::memory_order_acq_rel);
        if (!events || !is_alive()) return;
        if (!is_open()) {
            // Closing: only the output still queued matters (no trace: the port is closed).
            driver->ready(*this, events & IO_WRITE);
            continue;
        }
        // Room in the program's input pipe matters only when output is waiting, input only
        // when someone takes it (OTP selects only then): such a turn is no turn at all.
        if (!driver->wants_write()) events &= ~std::uint32_t(IO_WRITE);
        if (!driver->wants_read()) events &= ~std::uint32_t(IO_READ | IO_HUP);
        if (!events) continue;
        trace_in(PortOp::Io);
        auto started = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
        driver->ready(*this, events);
        if (timed) {
            auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
            Term op = (events & IO_TIMER) ? atom("timeout") : (events & IO_READ) ? atom("input") : atom("output");
            monitor_port_schedule(*this, std::uint64_t(ms), op);
        }
        if (is_open()) trace_out(PortOp::Io);
    }
    // Still more: the next turn, after the other tasks in the run queue.
    if (io_events.load(std::memory_order_acquire)) schedule();
}

// ---- operations from processes ---------------------------------------------------------------

void Port::start(Term opener, bool traced_open) {
    {
        PortExecution running(*this);
        if (traced_open) {
            trace_in(PortOp::Open);
            trace_out(PortOp::Open);
            if (traced(this, TRACE_PORTS)) vm.services.trace->port_event(this, atoms::getting_linked, opener);
        }
        bool io_turn = driver->starts_with_io_turn();
        if (io_turn) trace_in(PortOp::Io);
        driver->start(*this);
        if (io_turn && is_open()) trace_out(PortOp::Io);
    }
    after_execution();
}

PortOpResult Port::command(Term caller, std::string_view bytes, PortCommandMode mode, Term waiter,
                           std::span<const std::size_t> pieces) {
    if (PortExecution::active()) {
        // From inside a port's turn: it waits for this port's next turn.
        if (!is_open()) return PortOpResult::Dropped;
        PortSignal s;
        s.op = PortOp::Command;
        s.from = caller;
        s.data.assign(bytes);
        s.pieces.assign(pieces.begin(), pieces.end());
        post(std::move(s));
        return PortOpResult::Done;
    }
    bool wait = false;
    {
        // As OTP: a port that is busy when the command comes makes the caller wait (after the
        // data went out); one that turns busy with this command does not.
        std::lock_guard guard(lock);
        if (state != PortState::Open) return PortOpResult::Dropped;
        if (busy && mode == PortCommandMode::NoSuspend) return PortOpResult::Busy;
        if (busy && mode == PortCommandMode::Normal && waiter) {
            busy_waiters.push_back(waiter);
            wait = true;
        }
    }
    PortOpResult result = execute(PortOp::Command, [&] {
        output_command(caller, bytes, pieces);
        return PortOpResult::Done;
    });
    if (result == PortOpResult::Done && wait) {
        vm.monitor_busy_port(waiter, id);  // erlang:system_monitor/2's busy_port
        return PortOpResult::Suspend;
    }
    return result;
}

std::size_t Port::write_in_turn(const std::vector<RuntimePacket>& packets) {
    std::size_t bytes = 0;
    for (const RuntimePacket& packet : packets) bytes += packet.size();
    count_output(bytes);
    driver->output_all(*this, packets);
    return driver->queue_size();
}

namespace {
// The exit signal badsig from [port] to its owner: a message or operation it could not accept.
void send_badsig(Port* port) {
    port->vm.send_exit(port->id, port->owner.load(std::memory_order_acquire), atom("badsig"), false);
}
}  // namespace

PortOpResult Port::close(Term caller, bool bang) {
    return execute(PortOp::Close, [&] {
        if (bang && caller != owner.load(std::memory_order_acquire)) {
            send_badsig(this);
            return PortOpResult::Dropped;
        }
        if (traced(this, TRACE_RECEIVE)) {
            Term words[3];
            vm.services.trace->port_received(this, caller, tuple_on(words, {caller, atom("close")}));
        }
        terminate(atoms::normal);
        if (bang) {
            // {Port, closed} to the closer; the send event shows the bare atom (as OTP's).
            Term words[3];
            Term reply = tuple_on(words, {id, atom("closed")});
            Process* to = vm.find_process(caller);
            if (traced(this, TRACE_SEND)) vm.services.trace->port_sent(this, caller, atom("closed"), to != nullptr);
            if (to) {
                Message m;
                m.fragment = copy_to_fragment(reply, &m.term);
                m.from = id;
                vm.send_signal(to, m);
            }
        }
        return PortOpResult::Done;
    });
}

PortOpResult Port::connect(Term caller, Term new_owner, bool bang) {
    return execute(PortOp::Connect, [&] {
        Term old = owner.load(std::memory_order_acquire);
        if (bang && (caller != old || !is_pid(new_owner))) {
            send_badsig(this);
            return PortOpResult::Dropped;
        }
        Term connect_words[3], msg_words[3];
        Term traced_msg = tuple_on(msg_words, {caller, tuple_on(connect_words, {atom("connect"), new_owner})});
        if (!bang) {
            // port_connect/2 links the new owner to the port.
            std::shared_ptr<Process> p = vm.lookup_process(new_owner);
            bool linked = false, fresh_for_owner = false;
            if (p) {
                std::lock_guard guard(p->lock);
                if (!p->exiting) {
                    fresh_for_owner = std::find(p->links.begin(), p->links.end(), id) == p->links.end();
                    if (fresh_for_owner) p->links.push_back(id);
                    linked = true;
                }
            }
            if (!linked) return PortOpResult::Dropped;
            bool fresh_link;
            {
                std::lock_guard guard(lock);
                fresh_link = std::find(links.begin(), links.end(), new_owner) == links.end();
                if (fresh_link) links.push_back(new_owner);
            }
            owner.store(new_owner, std::memory_order_release);
            if (fresh_link && traced(this, TRACE_PORTS)) vm.services.trace->port_event(this, atoms::getting_linked, new_owner);
            // The new owner hears of the link as a link signal (its getting_linked event).
            if (fresh_for_owner) vm.send_link_event(id, p.get(), true);
            if (traced(this, TRACE_RECEIVE)) vm.services.trace->port_received(this, caller, traced_msg);
            if (traced(this, TRACE_SEND)) {
                Term words[3];
                vm.services.trace->port_sent(this, caller, tuple_on(words, {id, atom("connected")}), true);
            }
            return PortOpResult::Done;
        }
        if (traced(this, TRACE_RECEIVE)) vm.services.trace->port_received(this, caller, traced_msg);
        owner.store(new_owner, std::memory_order_release);
        // {Port, connected} to the old owner.
        Term words[3];
        Term reply = tuple_on(words, {id, atom("connected")});
        Process* to = vm.find_process(caller);
        if (traced(this, TRACE_SEND)) vm.services.trace->port_sent(this, caller, reply, to != nullptr);
        if (to) {
            Message m;
            m.fragment = copy_to_fragment(reply, &m.term);
            m.from = id;
            vm.send_signal(to, m);
        }
        return PortOpResult::Done;
    });
}

PortOpResult Port::link(Term pid) {
    return execute(PortOp::Link, [&] {
        bool fresh;
        {
            std::lock_guard guard(lock);
            fresh = std::find(links.begin(), links.end(), pid) == links.end();
            if (fresh) links.push_back(pid);
        }
        if (fresh && traced(this, TRACE_PORTS)) vm.services.trace->port_event(this, atoms::getting_linked, pid);
        return PortOpResult::Done;
    });
}

void Port::unlink(Term pid) {
    execute(PortOp::Unlink, [&] {
        bool had;
        {
            std::lock_guard guard(lock);
            auto it = std::find(links.begin(), links.end(), pid);
            had = it != links.end();
            if (had) links.erase(it);
        }
        if (had && traced(this, TRACE_PORTS)) vm.services.trace->port_event(this, atoms::getting_unlinked, pid);
        return PortOpResult::Done;
    });
}

PortOpResult Port::exit_signal(Term from, Term reason, bool linked) {
    Term current_owner = owner.load(std::memory_order_acquire);
    // As OTP 25 reports it: a linked process's death runs as the port's "0" operation,
    // exit/2 as close.
    return execute(linked ? PortOp::Exit : PortOp::Close, [&] {
        if (linked) {
            std::lock_guard guard(lock);
            auto it = std::find(links.begin(), links.end(), from);
            if (it == links.end()) return PortOpResult::Dropped;
            links.erase(it);
        }
        if (from && traced(this, TRACE_RECEIVE)) {
            Term words[3];
            vm.services.trace->port_received(this, from, tuple_on(words, {from, atom("close")}));
        }
        // A normal exit of a linked process other than the owner leaves the port alone (it
        // was still received, as OTP traces it).
        if (linked && reason == atoms::normal && from != current_owner) return PortOpResult::Dropped;
        terminate(reason == atoms::kill ? atoms::killed : reason, reason);
        return PortOpResult::Done;
    });
}

bool Port::add_monitor(const MonitorEntry& entry) {
    return execute(PortOp::Monitor, [&] {
        std::lock_guard guard(lock);
        monitored_by.push_back(entry);
        return PortOpResult::Done;
    }) == PortOpResult::Done;
}

bool Port::remove_monitor(const Word ref_id[3], bool quiet) {
    auto remove = [&] {
        std::lock_guard guard(lock);
        for (auto it = monitored_by.begin(); it != monitored_by.end(); ++it)
            if (std::equal(it->ref_id, it->ref_id + 3, ref_id)) {
                monitored_by.erase(it);
                return PortOpResult::Done;
            }
        return PortOpResult::Dropped;
    };
    if (quiet) return remove() == PortOpResult::Done;
    return execute(PortOp::Demonitor, remove) == PortOpResult::Done;
}

std::optional<std::string> Port::request(PortOp kind, Term caller, Term op, std::string_view bytes, bool* binary) {
    Term tag = port_op_name(kind);
    auto binary_in = [](HeapFragment* frag, std::string_view b) {
        return make_binary_in(frag->alloc(binary_words(b.size())), &frag->off_heap_first,
                              reinterpret_cast<const std::uint8_t*>(b.data()), b.size());
    };
    std::optional<std::string> reply;
    execute(kind, [&] {
        if (kind == PortOp::Call && !driver->takes_calls()) return PortOpResult::Dropped;
        if (traced(this, TRACE_RECEIVE)) {
            // {Caller, {Tag, {Op, Bytes}}}, as OTP traces it before the driver answers.
            HeapFragment* frag = HeapFragment::create(binary_words(bytes.size()) + 9);
            Term args = tuple_on(frag->alloc(3), {op, binary_in(frag, bytes)});
            Term request = tuple_on(frag->alloc(3), {tag, args});
            vm.services.trace->port_received(this, caller, tuple_on(frag->alloc(3), {caller, request}));
            free_fragment(frag);
        }
        if (is_small(op) && small_value(op) >= 0) {
            unsigned operation = unsigned(small_value(op));
            reply = kind == PortOp::Call ? driver->call(*this, caller, operation, bytes)
                                         : driver->control(*this, caller, operation, bytes);
        }
        // Asked after the operation: a loaded driver may switch to binaries in it.
        if (binary) *binary = driver->binary_control();
        if (reply && traced(this, TRACE_SEND)) {
            // The reply, as OTP traces it: a send of {Port, {Tag, Reply}} to the caller.
            HeapFragment* frag = HeapFragment::create(binary_words(reply->size()) + 6);
            Term answer = tuple_on(frag->alloc(3), {tag, binary_in(frag, *reply)});
            vm.services.trace->port_sent(this, caller, tuple_on(frag->alloc(3), {id, answer}), true);
            free_fragment(frag);
        }
        return PortOpResult::Done;
    });
    return reply;
}

std::optional<std::string> Port::control(Term caller, Term op, std::string_view bytes, bool* binary) {
    return request(PortOp::Control, caller, op, bytes, binary);
}

std::optional<std::string> Port::call(Term caller, Term op, std::string_view data) {
    return request(PortOp::Call, caller, op, data, nullptr);
}

void Port::set_data(Term value) {
    Term copy;
    HeapFragment* frag = copy_to_fragment(value, &copy);
    HeapFragment* old;
    {
        std::lock_guard guard(lock);
        old = data_fragment;
        data_fragment = frag;
        data = copy;
    }
    free_fragment(old);
}

Term Port::get_data(Process* p) {
    std::lock_guard guard(lock);
    if (!data) return atoms::undefined;
    Word size = term_size_words(data);
    if (!size) return data;
    Term* hp = p->alloc(size);
    return copy_term(data, &hp, &p->off_heap_first);
}

// ---- for drivers ---------------------------------------------------------------------------------

void Port::send_to_owner(Term msg, HeapFragment* frag) { send_to(owner.load(std::memory_order_acquire), msg, frag); }

void Port::send_to(Term to, Term msg, HeapFragment* frag, bool trace_missing, bool traced_send) {
    Process* p = vm.find_process(to);
    traced_send = traced_send && traced(this, TRACE_SEND);
    if (!p) {
        if (trace_missing && traced_send) vm.services.trace->port_sent(this, to, msg, false);
        free_fragment(frag);
        return;
    }
    if (traced_send) vm.services.trace->port_sent(this, to, msg, true);
    Message m;
    m.term = msg;
    m.fragment = frag;
    m.from = id;
    vm.send_signal(p, m);
}

void Port::trace_received(Term msg) {
    if (traced(this, TRACE_RECEIVE)) vm.services.trace->port_received(this, 0, msg);
}

void Port::deliver(Term data, HeapFragment* frag) {
    Term* hp = frag->alloc(6);
    Term inner = tuple_on(hp, {atom("data"), data});
    send_to_owner(tuple_on(hp + 3, {id, inner}), frag);
}

void Port::finish_closing() {
    {
        std::lock_guard guard(lock);
        if (state == PortState::Closed) return;
        state = PortState::Closed;
    }
    vm.port_table->remove(this);
}

void Port::set_busy(bool on) {
    std::vector<Term> waiters;
    {
        std::lock_guard guard(lock);
        busy = on;
        if (!on) waiters.swap(busy_waiters);
    }
    for (Term pid : waiters)
        if (std::shared_ptr<Process> p = vm.lookup_process(pid)) vm.resume_suspended(p.get());
}

void Port::terminate(Term reason, Term trace_reason, bool tell_links) {
    std::vector<Term> linked;
    std::vector<MonitorEntry> monitors;
    std::vector<Term> waiters;
    std::vector<PortSignal> dropped;
    std::shared_ptr<DistChannel> channel;
    Term name;
    {
        std::lock_guard guard(lock);
        if (state != PortState::Open) return;
        state = PortState::Closing;
        channel.swap(dist);
        // A distribution port's links (net_kernel, the connection's process) always hear of
        // its end: net_kernel takes the controller's exit for the node going down.
        if (channel) tell_links = true;
        linked.swap(links);
        monitors.swap(monitored_by);
        waiters.swap(busy_waiters);
        dropped.swap(signals);
        name = registered_name;
        registered_name = 0;
        busy = false;
    }
    // A normal close lets the program have what was sent before it (OTP flushes then).
    bool lingering = driver && driver->stop(*this, reason == atoms::normal);
    if (!lingering) finish_closing();
    if (traced(this, TRACE_PORTS)) vm.services.trace->port_event(this, atom("closed"), trace_reason ? trace_reason : reason);
    if (name) vm.unregister_port(name, this);
    // A distribution port: its connection is down before its links hear of the close.
    if (channel && vm.services.dist) vm.services.dist->channel_closed(channel, reason);
    for (Term pid : linked) {
        if (tell_links) {
            vm.send_exit(id, pid, reason, true);
        } else if (std::shared_ptr<Process> p = vm.lookup_process(pid)) {
            std::lock_guard guard(p->lock);
            std::erase(p->links, id);
        }
    }
    // OTP 25 names the object port only for an immediate reason; for any other, process
    // (a quirk of its port monitor code, reproduced: programs match on it).
    Term type = is_immediate(reason) ? atom("port") : atoms::process;
    for (const MonitorEntry& m : monitors) vm.send_down(m, type, id, reason);
    for (Term pid : waiters)
        if (std::shared_ptr<Process> p = vm.lookup_process(pid)) vm.resume_suspended(p.get());
}

}  // namespace beamlet::vm
