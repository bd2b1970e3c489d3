// vm/scheduler.cpp — the scheduler threads: run queues, stealing, sleeping, timers.
#include "vm/scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>


#include "vm/atom_table.hpp"
#include "vm/code_permission.hpp"
#include "vm/magic.hpp"
#include "vm/port.hpp"
#include "vm/thread_progress.hpp"
#include "vm/timer_service.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

namespace {
constexpr int IDLE_SPINS = 1500;  // of a pause each: about 50 µs
constexpr int IDLE_POLL_EVERY = 16;  // spins between two looks at the descriptors
}  // namespace

namespace {

// The monotonic clock as of its last tick: a memory read, where a precise reading costs a
// hardware counter read. Same time base as Clock (CLOCK_MONOTONIC), at most one tick behind.
Clock::time_point coarse_now() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return Clock::time_point(std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec));
}

Clock::duration coarse_resolution() {
    timespec ts{};
    clock_getres(CLOCK_MONOTONIC_COARSE, &ts);
    return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
}

thread_local int t_scheduler_index = -1;
thread_local Priority t_running_priority = Priority::Low;

// Sets the running process's priority for this thread while it is in the scheduler's hands.
struct RunningPriority {
    explicit RunningPriority(Priority p) { t_running_priority = p; }
    ~RunningPriority() { t_running_priority = Priority::Low; }
    RunningPriority(const RunningPriority&) = delete;
    RunningPriority& operator=(const RunningPriority&) = delete;
};
}

Schedulers::Schedulers(Vm& vm, int count) : m_vm(vm) {
    if (count < 1) count = 1;
    for (int i = 0; i < count; ++i) m_scheds.push_back(std::make_unique<Scheduler>());
    m_vm.thread_progress = std::make_unique<ThreadProgress>(count);
    m_vm.schedulers = this;
}

Schedulers::~Schedulers() {
    m_stop.store(true);
    {
        std::lock_guard lock(m_sleep_mutex);
        m_sleep_cv.notify_all();
    }
    for (auto& s : m_scheds)
        if (s->thread.joinable()) s->thread.join();
    // Ports still queued let go of themselves (they hold themselves alive while queued).
    for (auto& s : m_scheds)
        for (auto& queue : s->queues)
            for (Task t : queue)
                if (Port* port = t.port()) port->drop_task();
    // Nothing runs any more: later ops still waiting can run now (they own memory; one may
    // queue another).
    while (true) {
        std::vector<std::pair<std::uint64_t, std::function<void()>>> ops;
        {
            std::lock_guard lock(m_progress_mutex);
            ops.swap(m_later_ops);
        }
        if (ops.empty()) break;
        for (auto& op : ops) op.second();
    }
    m_vm.schedulers = nullptr;
}

int Schedulers::current_index() { return t_scheduler_index; }

void Schedulers::enqueue(Task task) {
    int index = t_scheduler_index;
    bool own = index >= 0;
    // Processes this scheduler woke lazily (tracers) were woken first: they go ahead, as on
    // erts, where they would be in the queue already (a shell's tracer prints its trace
    // message before the shell prints the traced call's value).
    if (own && !m_scheds[std::size_t(index)]->wake_later.empty()) wake_pending(*m_scheds[std::size_t(index)]);
    if (!own) index = int(m_round_robin.fetch_add(1, std::memory_order_relaxed) % m_scheds.size());
    Process* p = task.process();
    Priority prio = p ? p->run_priority() : Priority::Normal;
    if (std::min(int(prio), QUEUES - 1) >= queues_for(index)) {
        index = 0;  // multi-scheduling blocked: the first scheduler's work
        own = t_scheduler_index == 0;
    }
    Scheduler& s = *m_scheds[std::size_t(index)];
    std::size_t length;
    {
        std::lock_guard lock(s.mutex);
        s.queues[std::min(int(prio), QUEUES - 1)].push_back(task);
        if (p) p->queued_as = prio;
        if (prio == Priority::Low) ++s.low_queued;
        length = queued(s);
        s.length.store(length, std::memory_order_seq_cst);
    }
    // A scheduler's single runnable process is its own next job: waking an idle scheduler
    // only makes them fight over it. Extra work, or work from outside, wakes one.
    // seq_cst pairs with the sleeper (store hint, load lengths): one of the two sees the other.
    if ((!own || length > 1) && m_sleepers_hint.load(std::memory_order_seq_cst) > 0) wake_one();
}

void Schedulers::wake_later(Process* p) {
    int index = t_scheduler_index;
    if (index < 0) {
        enqueue(p);
        return;
    }
    Scheduler& s = *m_scheds[std::size_t(index)];
    if (s.wake_later.empty()) {
        s.runs_since_wake = 0;
        s.wake_later_since = std::chrono::steady_clock::now();
    }
    s.wake_later.push_back(p);
}

bool Schedulers::wake_later_due(Scheduler& s) {
    int runs = ++s.runs_since_wake;
    if (runs > WAKE_LATER_RUNS) return true;
    return runs % 16 == 0 && std::chrono::steady_clock::now() - s.wake_later_since > WAKE_LATER_MAX;
}

void Schedulers::wake_pending(Scheduler& s) {
    std::vector<Process*> ready;
    ready.swap(s.wake_later);
    for (Process* p : ready) enqueue(p);
}

void Schedulers::wake_one() {
    std::lock_guard lock(m_sleep_mutex);
    // One notification per sleeper: wakeups already on their way are not repeated (each
    // notify is a futex system call).
    if (m_sleepers > m_waking) {
        ++m_waking;
        m_sleep_cv.notify_one();
    }
}

void Schedulers::notify_timer() {
    if (m_sleepers_hint.load(std::memory_order_acquire) > 0) {
        std::lock_guard lock(m_sleep_mutex);
        m_sleep_cv.notify_all();
    }
}

Task Schedulers::spin_for_work(int index, int progress_index) {
    // About 50 µs. Another scheduler's single runnable process stays its own next job (taking
    // it would move a ping-pong between cores at every message); more than one is shared.
    for (int spin = 0; spin < IDLE_SPINS && !m_stop.load(std::memory_order_relaxed); ++spin) {
        m_vm.thread_progress->update(progress_index);
        bool work = m_scheds[std::size_t(index)]->length.load(std::memory_order_relaxed) > 0;
        for (std::size_t k = 0; k < m_scheds.size() && !work; ++k)
            work = int(k) != index && m_scheds[k]->length.load(std::memory_order_relaxed) > 1;
        if (work)
            if (Task task = take(index)) return task;
        if (m_progress_waiting.load(std::memory_order_relaxed)) return Task();
        // Now and then it looks at the descriptors itself (as OTP's schedulers poll): a
        // socket's data then reaches its process without the I/O thread's wake-up between.
        if (spin % IDLE_POLL_EVERY == IDLE_POLL_EVERY - 1 && m_vm.services.io && m_vm.services.io->poll_now())
            continue;
        cpu_relax();
    }
    return Task();
}

namespace {
constexpr std::uint8_t LOW_SKIPS = 7;  // a low process runs once for every eight normal ones

// Whether [t] waits as a low process (its scheduler's lock held).
bool is_low(Task t) {
    Process* p = t.process();
    return p && p->queued_as == Priority::Low;
}
}  // namespace

Task Schedulers::pop_front(Scheduler& s, int queues) {
    for (int q = 0; q < std::min(queues, QUEUES - 1); ++q) {
        if (s.queues[q].empty()) continue;
        Task t = s.queues[q].front();
        s.queues[q].pop_front();
        return t;
    }
    if (queues < QUEUES) return Task();
    std::deque<Task>& shared = s.queues[QUEUES - 1];
    // Low processes wait behind normal ones (a count of their own, as OTP's
    // RESCHEDULE_LOW); with no normal one queued, they take turns.
    for (std::size_t n = shared.size(); n > 0; --n) {
        Task t = shared.front();
        shared.pop_front();
        if (!is_low(t)) return t;
        Process* p = t.process();
        if (p->low_skips < LOW_SKIPS && s.low_queued < shared.size() + 1) {
            ++p->low_skips;
            shared.push_back(t);
            continue;
        }
        p->low_skips = 0;
        --s.low_queued;
        return t;
    }
    return Task();
}

Task Schedulers::pop_back(Scheduler& s, int queues) {
    for (int q = 0; q < queues; ++q) {
        std::deque<Task>& queue = s.queues[q];
        if (queue.empty()) continue;
        Task t = queue.back();
        queue.pop_back();
        if (is_low(t)) --s.low_queued;
        return t;
    }
    return Task();
}

void Schedulers::promote(Process* p) {
    Priority prio = p->run_priority();
    for (auto& sched : m_scheds) {
        Scheduler& s = *sched;
        std::lock_guard lock(s.mutex);
        // (A low process asked for a normal task moves within the shared queue: it is no
        // longer passed over.)
        for (int q = std::min(int(prio), QUEUES - 1); q < QUEUES; ++q) {
            std::deque<Task>& queue = s.queues[q];
            auto it = std::find(queue.begin(), queue.end(), Task(p));
            if (it == queue.end()) continue;
            if (p->queued_as <= prio) return;  // already as urgent
            queue.erase(it);
            if (p->queued_as == Priority::Low) --s.low_queued;
            s.queues[std::min(int(prio), QUEUES - 1)].push_back(Task(p));
            p->queued_as = prio;
            s.length.store(queued(s), std::memory_order_seq_cst);
            return;
        }
    }
}

void Schedulers::block(Blocking blocking) {
    m_blocking.store(blocking, std::memory_order_seq_cst);
    // What waits in the other schedulers' queues and may no longer run there moves to the first.
    std::vector<Task> moved;
    for (std::size_t i = 1; i < m_scheds.size(); ++i) {
        Scheduler& s = *m_scheds[i];
        std::lock_guard lock(s.mutex);
        for (int q = queues_for(int(i)); q < QUEUES; ++q) {
            moved.insert(moved.end(), s.queues[q].begin(), s.queues[q].end());
            s.queues[q].clear();
        }
        s.low_queued = 0;
        for (const auto& queue : s.queues)
            for (Task t : queue)
                if (is_low(t)) ++s.low_queued;
        s.length.store(queued(s), std::memory_order_seq_cst);
    }
    if (moved.empty()) return;
    Scheduler& first = *m_scheds[0];
    {
        std::lock_guard lock(first.mutex);
        for (Task t : moved) {
            Process* p = t.process();
            Priority prio = p ? p->queued_as : Priority::Normal;
            first.queues[std::min(int(prio), QUEUES - 1)].push_back(t);
            if (p && prio == Priority::Low) ++first.low_queued;
        }
        first.length.store(queued(first), std::memory_order_seq_cst);
    }
    if (m_sleepers_hint.load(std::memory_order_seq_cst) > 0) wake_one();
}

std::uint64_t Schedulers::reductions() const {
    std::uint64_t total = 0;
    for (const auto& s : m_scheds) total += s->reductions.load(std::memory_order_relaxed);
    return total;
}

std::vector<std::size_t> Schedulers::queue_lengths() const {
    std::vector<std::size_t> lengths;
    for (const auto& s : m_scheds) lengths.push_back(s->length.load(std::memory_order_relaxed));
    return lengths;
}

Task Schedulers::take(int index) {
    {
        Scheduler& own = *m_scheds[std::size_t(index)];
        std::lock_guard lock(own.mutex);
        if (Task t = pop_front(own, queues_for(index))) {
            own.length.store(queued(own), std::memory_order_seq_cst);
            return t;
        }
    }
    // Steals from the back of another queue, the highest priority first.
    for (std::size_t k = 1; k < m_scheds.size(); ++k) {
        Scheduler& other = *m_scheds[(std::size_t(index) + k) % m_scheds.size()];
        if (other.length.load(std::memory_order_relaxed) == 0) continue;
        std::lock_guard lock(other.mutex);
        if (Task t = pop_back(other, queues_for(index))) {
            other.length.store(queued(other), std::memory_order_seq_cst);
            return t;
        }
    }
    return Task();
}

namespace {
// A running / exiting event for [p], if it is traced for scheduling.
void trace_scheduling(Process* p, SchedEvent event) {
    if (!p->all_trace_flags.load(std::memory_order_relaxed) || !p->vm.services.trace) return;
    // Scheduled in, a traced process forgets a tracer that has gone (OTP's trace_schedule_in).
    if (event == SchedEvent::In) p->vm.services.trace->drop_dead_tracers(p);
    if (p->all_trace_flags.load(std::memory_order_relaxed) & TRACE_SCHEDULING) p->vm.services.trace->scheduled(p, event);
}
}  // namespace

namespace {
// {M, F, A} of the function holding [ip], built in [words]; undefined if none.
Term current_mfa(Vm& vm, const Word* ip, Term words[4]) {
    const Module* m = ip ? vm.module_containing(ip) : nullptr;
    const FunctionInfo* fi = m ? m->function_at(ip) : nullptr;
    if (!fi) return atom("undefined");
    words[0] = make_arityval(3);
    words[1] = m->name;
    words[2] = fi->name;
    words[3] = make_small(SWord(fi->arity));
    return make_boxed(words);
}

bool is_suspended(Process* p) {
    std::lock_guard guard(p->lock);
    return !p->suspenders.empty();
}

// Whether [p] was woken from a receive by copy_literals signals alone (a module's literals
// being released: every process gets one).
bool woken_for_literals_only(Process* p) {
    std::lock_guard guard(p->lock);
    if (!p->woken_from_wait || p->inbox.empty() || !p->suspenders.empty()) return false;
    for (const Message& m : p->inbox)
        if (m.kind != SignalKind::CopyLiterals) return false;
    return true;
}

bool still_in_signal_only_wait(Process* p) {
    if (!p->signal_only_wait.load(std::memory_order_relaxed)) return false;  // the common case
    std::lock_guard guard(p->lock);
    return p->signal_only_wait.load(std::memory_order_relaxed);
}
}  // namespace

Priority Schedulers::running_priority() { return t_running_priority; }

void Schedulers::run_one(int index, Process* p) {
    p->scheduler_index = index;
    RunningPriority running(p->priority.load(std::memory_order_relaxed));
    if (still_in_signal_only_wait(p)) {
        // Woken for its signals only: it handles them, then waits on (for the port, the purge).
        m_vm.process_signals(p);
        if (p->pending_exit) {
            finish(p, p->pending_exit);
            return;
        }
        bool runnable;
        {
            std::lock_guard guard(p->lock);
            runnable = !p->signal_only_wait.load(std::memory_order_relaxed);  // its wait ended meanwhile
            p->state = runnable ? ProcessState::Runnable : ProcessState::Suspended;
        }
        if (runnable) enqueue(p);
        return;
    }
    if (woken_for_literals_only(p)) {
        // OTP copies the literals in a system task, without scheduling the process in (no
        // in/out events): so here, and the process waits on, unless something came meanwhile.
        m_vm.process_signals(p);
        std::lock_guard guard(p->lock);
        if (p->timeout_ip && p->fired_seq == p->timer_seq) {
            // Its receive timed out meanwhile: it runs, at the timeout (as RunResult::Wait does).
            p->ip = p->timeout_ip;
            p->timeout_ip = nullptr;
        } else if (p->inbox.empty() && !p->queue.current() && !p->pending_exit && p->suspenders.empty()) {
            p->state = ProcessState::Waiting;
            return;
        }
    }
    // A suspended process (erlang:suspend_process/2) only handles its signals, without
    // being scheduled in, and is parked until the last resume or the next signal.
    bool suspended = is_suspended(p);
    // Scheduled in before its signals are handled, as in OTP: a process killed while it
    // waited is switched in, then exits. One in the middle of its exit goes on with it.
    SchedEvent in_event = p->exit_work ? SchedEvent::InExiting : SchedEvent::In;
    if (!suspended) trace_scheduling(p, in_event);
    bool park;
    std::vector<Process::SuspendReply> suspend_replies;  // answered now: parked or resumed since
    for (bool handled = false; !handled;) {
        m_vm.process_signals(p);
        if (p->pending_exit) {
            if (suspended) trace_scheduling(p, in_event);
            finish(p, p->pending_exit);
            return;
        }
        std::lock_guard guard(p->lock);
        // Parked between two slices of a trapping BIF too, as in OTP, except one holding the
        // code modification permission: it runs to its end first (erts finishes a staged
        // breakpoint change in the schedulers' aux work whether the caller is suspended or
        // not). Parked in the middle, trace_pattern would keep the permission, and whoever
        // suspended it could wait on that (dbg's tracer suspends a traced caller, then loads
        // the modules that print the trace through the code server).
        park = !p->suspenders.empty() && !(p->continuation && m_vm.code_permission->held_by(p));
        // A signal that came once its signals were handled found it runnable, not parked to
        // be woken: it is handled first.
        handled = !park || p->inbox_signals.load(std::memory_order_relaxed) == 0;
        if (!handled) continue;
        if (park) {
            p->parked = true;
            p->state = ProcessState::Waiting;
            for (auto& s : p->suspenders) s.active = true;
        } else {
            p->state = ProcessState::Running;
            p->woken_from_wait = false;
        }
        if (park || p->suspenders.empty()) suspend_replies.swap(p->suspend_replies);
    }
    if (!suspend_replies.empty()) {
        static const Term am_suspended = atom("suspended");
        static const Term am_not_suspended = atom("not_suspended");
        m_vm.send_suspend_replies(suspend_replies, park ? am_suspended : am_not_suspended);
    }
    if (park) {
        if (!suspended) trace_scheduling(p, SchedEvent::Out);
        return;
    }
    if (suspended) trace_scheduling(p, SchedEvent::In);
    if (p->gc_requested != Process::GcRequest::none) {
        bool major = p->gc_requested == Process::GcRequest::major;
        p->gc_requested = Process::GcRequest::none;
        garbage_collect(p, p->saved_x.data(), p->arity, 0, major);
    } else if (p->young_binary_words > BINARY_GC_WORDS) {
        garbage_collect(p, p->saved_x.data(), p->arity, 0);
    }
    // call_time does not count time scheduled out.
    bool accounting = !p->call_accounting.empty() && m_vm.services.trace;
    if (accounting) m_vm.services.trace->schedule_break(p, false);
    // long_schedule (erlang:system_monitor/2, trace:system/3): how long it ran, from which function to which.
    bool timed = m_vm.system_monitors.long_schedule_ms() != 0;
    Term in_words[4], out_words[4];
    Term in = timed ? current_mfa(m_vm, p->ip, in_words) : 0;
    auto started = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    std::int64_t reductions_before = p->reductions;
    RunResult r = run_process(p, m_scheds[std::size_t(index)]->regs);
    {
        // statistics(reductions): this scheduler's count (its thread writes, anyone reads).
        std::atomic<std::uint64_t>& count = m_scheds[std::size_t(index)]->reductions;
        count.store(count.load(std::memory_order_relaxed) + std::uint64_t(p->reductions - reductions_before),
                    std::memory_order_relaxed);
    }
    if (timed) {
        auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
        Term out = r == RunResult::Exited ? atom("undefined") : current_mfa(m_vm, p->ip, out_words);
        m_vm.monitor_schedule(p, std::uint64_t(ms), in, out);
    }
    p->ever_ran = true;
    if (p->max_heap_reached && r != RunResult::Exited) m_vm.report_max_heap_size(p);
    if (accounting || !p->call_accounting.empty()) m_vm.services.trace->schedule_break(p, true);
    if (r != RunResult::Exited) trace_scheduling(p, SchedEvent::Out);
    switch (r) {
    case RunResult::Yield: {
        {
            std::lock_guard guard(p->lock);
            p->state = ProcessState::Runnable;
        }
        enqueue(p);
        break;
    }
    case RunResult::Suspended: {
        // Parked until its condition holds: thread progress (polled by the schedulers at their
        // quiescent points), the permission (handed over by its holder), a busy port, the end
        // of a pending purge (both woken by Vm::resume_suspended).
        bool runnable = false;
        {
            std::lock_guard guard(p->lock);
            if (p->resume_pending) {
                p->resume_pending = false;
                runnable = true;
            }
            bool signal_only = !runnable && (p->suspend_for == SuspendFor::BusyPort ||
                                             p->suspend_for == SuspendFor::PendingPurge);
            // A signal that came while it ran found no signal-only wait to wake it from:
            // it is handled now (Schedulers::run_one), then the process waits on.
            if (signal_only && p->inbox_signals.load(std::memory_order_relaxed) != 0) runnable = true;
            p->state = runnable ? ProcessState::Runnable : ProcessState::Suspended;
            p->signal_only_wait.store(signal_only, std::memory_order_relaxed);
        }
        if (runnable) {
            enqueue(p);
        } else if (p->suspend_for == SuspendFor::ThreadProgress) {
            std::lock_guard lock(m_progress_mutex);
            m_progress_waiters.push_back(p);
            m_progress_waiting.store(true, std::memory_order_relaxed);
        }
        break;
    }
    case RunResult::Wait: {
        bool runnable;
        std::vector<Process::SuspendReply> suspend_replies;
        {
            std::lock_guard guard(p->lock);
            if (!p->inbox.empty()) {
                runnable = true;
            } else if (p->timeout_ip && p->fired_seq == p->timer_seq) {
                p->ip = p->timeout_ip;
                p->timeout_ip = nullptr;
                runnable = true;
            } else {
                runnable = false;
            }
            p->state = runnable ? ProcessState::Runnable : ProcessState::Waiting;
            // Suspended while it ran, it is in effect now that it waits (erts handles the
            // suspend signal before it waits in receive).
            if (!runnable && !p->suspenders.empty()) {
                for (auto& s : p->suspenders) s.active = true;
                suspend_replies.swap(p->suspend_replies);
            }
        }
        if (!suspend_replies.empty()) m_vm.send_suspend_replies(suspend_replies, atom("suspended"));
        if (runnable) enqueue(p);
        break;
    }
    case RunResult::Exited: {
        Term reason = p->exit_reason;
        if (reason == atoms::normal) {
            // Returned from its entry function.
        } else if (p->exception.cls) {
            // Uncaught: error -> {Reason, Stack}; throw -> {{nocatch, V}, Stack}; exit -> Reason.
            const PendingException& e = p->exception;
            if (e.cls == atoms::exit) {
                reason = e.reason;
            } else {
                Term inner = e.reason;
                if (e.cls == atoms::throw_) {
                    Term* hp = p->alloc(3);
                    hp[0] = make_arityval(2);
                    hp[1] = atoms::nocatch;
                    hp[2] = e.reason;
                    inner = make_boxed(hp);
                }
                Term* hp = p->alloc(3);
                hp[0] = make_arityval(2);
                hp[1] = inner;
                hp[2] = e.stacktrace;
                reason = make_boxed(hp);
            }
        } else if (p->pending_exit) {
            reason = p->pending_exit;
        }
        finish(p, reason);
        break;
    }
    }
}

namespace {
bool has_exited(Process* q) {
    std::lock_guard guard(q->lock);
    return q->state == ProcessState::Exited;
}

// An exited process gives its binaries back at once, as OTP's exit does (process_info(P,
// binary) of a receiver no longer counts them): its heap stays until no scheduler can hold the
// process (Vm::bury), but no one reads an exited process's terms.
void release_binaries_of_exited(Process* p) {
    release_off_heap_list(p->off_heap_first);
    p->off_heap_first = nullptr;
}
}  // namespace

bool Schedulers::exit_resources_slice(Process* p) {
    if (p->exit_resources_done) return true;
    if (!p->exit_work) {  // the exit begins: the first slice is done as the work is found
        if (p->ets_user.load(std::memory_order_relaxed) && m_vm.services.ets)
            p->exit_work = m_vm.services.ets->process_exited(p);
        if (p->exit_work) return false;
    } else if (!p->exit_work()) {
        return false;
    }
    p->exit_work = nullptr;
    p->exit_resources_done = true;
    return true;
}

void Schedulers::finish(Process* p, Term reason) {
    if (!exit_resources_slice(p)) {
        // More to free than a slice's worth (the objects of the ETS tables it owned): it is
        // scheduled out and goes on with its exit next time, as OTP's (out_exiting/in_exiting).
        p->pending_exit = reason;
        trace_scheduling(p, SchedEvent::OutExiting);
        {
            std::lock_guard guard(p->lock);
            p->state = ProcessState::Runnable;
        }
        enqueue(p);
        return;
    }
    m_vm.do_exit(p, reason);
    Process* main = m_main.load(std::memory_order_acquire);
    // (The run reports how main and init ended from their exit reasons, once stopped.)
    if (p != main && p != m_boot) release_binaries_of_exited(p);
    trace_scheduling(p, SchedEvent::OutExited);
    if (p == main && !has_exited(m_boot)) {
        // beamlet_run (bif/lib/beamlet_run.erl) writes out what the logger and the io
        // servers hold, then halts. Without it, init is stopping the system (init:stop/0
        // killed both) and halts when done.
        static const Term am_beamlet_run = atom("beamlet_run");
        if (Term watcher = m_vm.whereis_id(am_beamlet_run)) m_vm.send_message(nullptr, watcher, atom("$beamlet_main_exited"));
    } else if (p == main || (p == m_boot && (!main || has_exited(main)))) {
        stop();
    }
}

void Schedulers::stop() {
    std::lock_guard lock(m_sleep_mutex);
    m_stop.store(true);
    m_sleep_cv.notify_all();
}

void Schedulers::after_thread_progress(std::uint64_t value, std::function<void()> fn) {
    {
        std::lock_guard lock(m_progress_mutex);
        m_later_ops.emplace_back(value, std::move(fn));
        m_progress_waiting.store(true, std::memory_order_relaxed);
    }
    // A sleeping scheduler must come round to poll progress.
    if (m_sleepers_hint.load(std::memory_order_seq_cst) > 0) wake_one();
}

void Schedulers::resume_progress_waiters() {
    std::vector<Process*> ready;
    std::vector<std::function<void()>> ops;
    {
        std::lock_guard lock(m_progress_mutex);
        for (auto it = m_later_ops.begin(); it != m_later_ops.end();) {
            if (m_vm.thread_progress->has_reached(it->first)) {
                ops.push_back(std::move(it->second));
                it = m_later_ops.erase(it);
            } else {
                ++it;
            }
        }
        for (auto it = m_progress_waiters.begin(); it != m_progress_waiters.end();) {
            if (m_vm.thread_progress->has_reached((*it)->progress_value)) {
                ready.push_back(*it);
                it = m_progress_waiters.erase(it);
            } else {
                ++it;
            }
        }
        m_progress_waiting.store(!m_progress_waiters.empty() || !m_later_ops.empty(), std::memory_order_relaxed);
    }
    for (auto& op : ops) op();
    for (Process* p : ready) {
        p->suspend_for = SuspendFor::Nothing;
        m_vm.resume_suspended(p);
    }
}

bool Schedulers::timer_may_be_due(Scheduler& self, Clock::time_point earliest, Clock::time_point* now) {
    // The coarse clock is cheap but may lag: by a tick, and by more while the CPU that keeps
    // it sleeps (a tickless kernel; seen lagging 3 ms here, which made `after 1` take 3.7 ms
    // beside a busy process). So the precise clock is read also once the processes run since
    // the last read did some work (1,000 reductions: some 20 us) or every 64 rounds: a timer
    // is late by about that much at most, for a clock read per 20 us of work.
    static const Clock::duration tick = coarse_resolution();
    constexpr std::uint64_t REDUCTIONS_BETWEEN_READS = 1000;
    constexpr unsigned ROUNDS_BETWEEN_READS = 64;
    std::uint64_t reductions = self.reductions.load(std::memory_order_relaxed);
    if (!self.read_clock && coarse_now() + tick < earliest &&
        reductions - self.reductions_at_clock < REDUCTIONS_BETWEEN_READS && ++self.rounds_since_clock < ROUNDS_BETWEEN_READS)
        return false;
    self.reductions_at_clock = reductions;
    self.rounds_since_clock = 0;
    self.read_clock = false;
    *now = Clock::now();
    return true;
}

void Schedulers::loop(int index) {
    t_scheduler_index = index;
    int progress_index = m_vm.thread_progress->register_managed_thread();
    unsigned idle_polls = 0;  // consecutive idle rounds spent polling thread progress
    while (!m_stop.load(std::memory_order_acquire)) {
        // A quiescent point: nothing read from shared code state before this is still in use.
        m_vm.thread_progress->update(progress_index);
        if (m_progress_waiting.load(std::memory_order_relaxed)) resume_progress_waiters();
        std::optional<Clock::time_point> next_deadline;
        Scheduler& self = *m_scheds[std::size_t(index)];
        if (m_vm.timers->any()) {
            // Most rounds no timer is near: the precise clock (and the timer lock) is only
            // for the rounds when one may be due.
            Clock::time_point earliest = m_vm.timers->earliest(), now;
            if (!timer_may_be_due(self, earliest, &now)) next_deadline = earliest;
            else next_deadline = now < earliest ? std::optional(earliest) : m_vm.timers->fire_due(now);
        }
        // Processes woken lazily wait a few runs, and never past the point where this
        // scheduler runs out of work (another one may steal its last job just before take).
        if (!self.wake_later.empty() && wake_later_due(self)) wake_pending(self);
        Task task = take(index);
        if (!task && !self.wake_later.empty()) {
            wake_pending(self);
            task = take(index);
        }
        if (task) {
            idle_polls = 0;
            if (Port* port = task.port()) port->run_task();
            else run_one(index, task.process());
            continue;
        }
        if (m_progress_waiting.load(std::memory_order_relaxed)) {
            // A process waits for thread progress: keep passing quiescent points (each one
            // lets progress advance) instead of sleeping. Spin first (progress usually takes a
            // few rounds); yield the core only if it takes long, e.g. while a busy scheduler
            // has yet to reach its next quiescent point.
            if (++idle_polls > 4096) std::this_thread::yield();
            continue;
        }
        idle_polls = 0;
        // Out of work: what the program wrote so far goes out now (vm/stdio.hpp).
        if (m_vm.services.io) m_vm.services.io->flush_if_pending();
        // Look a little longer before sleeping: work that appears meanwhile is taken without
        // anyone paying a futex call to wake this scheduler.
        if (Task found = spin_for_work(index, progress_index)) {
            if (Port* port = found.port()) port->run_task();
            else run_one(index, found.process());
            continue;
        }
        std::unique_lock lock(m_sleep_mutex);
        if (m_stop.load()) break;
        ++m_sleepers;
        m_sleepers_hint.store(m_sleepers, std::memory_order_seq_cst);
        // Re-check under the sleep lock: an enqueue that missed the hint notifies after it.
        bool any = false;
        for (auto& s : m_scheds) any = any || s->length.load(std::memory_order_seq_cst) > 0;
        if (!any) {
            // Asleep, this thread does not hold thread progress back. While processes wait for
            // progress, sleep briefly so that someone keeps polling it.
            m_vm.thread_progress->prepare_wait(progress_index);
            next_deadline = m_vm.timers->next_deadline();
            if (m_progress_waiting.load(std::memory_order_relaxed)) {
                auto soon = Clock::now() + std::chrono::microseconds(200);
                m_sleep_cv.wait_until(lock, next_deadline && *next_deadline < soon ? *next_deadline : soon);
            } else if (next_deadline) {
                m_sleep_cv.wait_until(lock, *next_deadline);
            } else {
                // Bounded, as a safety net: an idle VM wakes 20 times a second at most.
                m_sleep_cv.wait_for(lock, std::chrono::milliseconds(50));
            }
            m_vm.thread_progress->finalize_wait(progress_index);
            self.read_clock = true;
        }
        if (m_waking > 0) --m_waking;
        --m_sleepers;
        m_sleepers_hint.store(m_sleepers, std::memory_order_release);
    }
}

void Schedulers::run_until_exit(Process* boot) {
    m_boot = boot;
    if (boot->exited) return;
    for (std::size_t i = 0; i < m_scheds.size(); ++i)
        m_scheds[i]->thread = std::thread([this, i] { loop(int(i)); });
    for (auto& s : m_scheds) s->thread.join();
}

}  // namespace beamlet::vm
