// vm/scheduler.cpp — the scheduler threads: run queues, stealing, sleeping, timers.
#include "vm/scheduler.hpp"

#include "vm/atom_table.hpp"
#include "vm/timer_service.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

namespace {
thread_local int t_scheduler_index = -1;
}

Schedulers::Schedulers(Vm& vm, int count) : m_vm(vm) {
    if (count < 1) count = 1;
    for (int i = 0; i < count; ++i) m_scheds.push_back(std::make_unique<Scheduler>());
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
    m_vm.schedulers = nullptr;
}

int Schedulers::current_index() { return t_scheduler_index; }

void Schedulers::enqueue(Process* p) {
    int index = t_scheduler_index;
    if (index < 0) index = int(m_round_robin.fetch_add(1, std::memory_order_relaxed) % m_scheds.size());
    Scheduler& s = *m_scheds[std::size_t(index)];
    {
        std::lock_guard lock(s.mutex);
        s.queue.push_back(p);
        s.length.store(s.queue.size(), std::memory_order_seq_cst);
    }
    // seq_cst pairs with the sleeper (store hint, load lengths): one of the two sees the other.
    if (m_sleepers_hint.load(std::memory_order_seq_cst) > 0) wake_one();
}

void Schedulers::wake_one() {
    std::lock_guard lock(m_sleep_mutex);
    m_sleep_cv.notify_one();
}

void Schedulers::notify_timer() {
    if (m_sleepers_hint.load(std::memory_order_acquire) > 0) {
        std::lock_guard lock(m_sleep_mutex);
        m_sleep_cv.notify_all();
    }
}

Process* Schedulers::take(int index) {
    {
        Scheduler& own = *m_scheds[std::size_t(index)];
        std::lock_guard lock(own.mutex);
        if (!own.queue.empty()) {
            Process* p = own.queue.front();
            own.queue.pop_front();
            own.length.store(own.queue.size(), std::memory_order_seq_cst);
            return p;
        }
    }
    // Steals from the back of the longest-looking other queue.
    for (std::size_t k = 1; k < m_scheds.size(); ++k) {
        Scheduler& other = *m_scheds[(std::size_t(index) + k) % m_scheds.size()];
        if (other.length.load(std::memory_order_relaxed) == 0) continue;
        std::lock_guard lock(other.mutex);
        if (!other.queue.empty()) {
            Process* p = other.queue.back();
            other.queue.pop_back();
            other.length.store(other.queue.size(), std::memory_order_seq_cst);
            return p;
        }
    }
    return nullptr;
}

void Schedulers::run_one(int index, Process* p) {
    p->scheduler_index = index;
    m_vm.process_signals(p);
    if (p->pending_exit) {
        m_vm.do_exit(p, p->pending_exit);
        return;
    }
    {
        std::lock_guard guard(p->lock);
        p->state = ProcessState::Running;
        p->woken_from_wait = false;
    }
    RunResult r = run_process(p, m_scheds[std::size_t(index)]->regs);
    switch (r) {
    case RunResult::Yield: {
        {
            std::lock_guard guard(p->lock);
            p->state = ProcessState::Runnable;
        }
        enqueue(p);
        break;
    }
    case RunResult::Wait: {
        bool runnable;
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
        }
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
        m_vm.do_exit(p, reason);
        if (p == m_main) {
            std::lock_guard lock(m_sleep_mutex);
            m_stop.store(true);
            m_sleep_cv.notify_all();
        }
        break;
    }
    }
}

void Schedulers::loop(int index) {
    t_scheduler_index = index;
    while (!m_stop.load(std::memory_order_acquire)) {
        auto next_deadline = m_vm.timers->fire_due(Clock::now());
        Process* p = take(index);
        if (p) {
            run_one(index, p);
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
            next_deadline = m_vm.timers->next_deadline();
            if (next_deadline) m_sleep_cv.wait_until(lock, *next_deadline);
            else m_sleep_cv.wait(lock);
        }
        --m_sleepers;
        m_sleepers_hint.store(m_sleepers, std::memory_order_release);
    }
}

void Schedulers::run_until_exit(Process* main) {
    m_main = main;
    if (main->exited) return;
    for (std::size_t i = 0; i < m_scheds.size(); ++i)
        m_scheds[i]->thread = std::thread([this, i] { loop(int(i)); });
    for (auto& s : m_scheds) s->thread.join();
}

}  // namespace beamlet::vm
