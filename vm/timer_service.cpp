// vm/timer_service.cpp — timers in one ordered map under a mutex; schedulers fire them.
#include "vm/timer_service.hpp"

#include "vm/process.hpp"
#include "vm/scheduler.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

namespace {
// What read_timer and cancel_timer answer: the whole milliseconds left, rounded up as OTP's
// (a timer just set for N ms has N left).
std::int64_t milliseconds_left(Clock::time_point deadline) {
    return std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
}
}  // namespace

TimerService::~TimerService() {
    for (auto& [when, e] : m_queue)
        if (e.fragment) HeapFragment::destroy(e.fragment);
}

void TimerService::arm_receive_timeout(Term pid, std::uint64_t seq, std::uint64_t timeout_ms) {
    bool earliest;
    {
        std::lock_guard lock(m_mutex);
        Clock::time_point when = Clock::now() + std::chrono::milliseconds(timeout_ms);
        // Sleeping schedulers wait for the earliest deadline: only an earlier one wakes them.
        earliest = m_queue.empty() || when < m_queue.begin()->first;
        auto [slot, fresh] = m_receive_by_pid.try_emplace(pid);
        if (!fresh) m_queue.erase(slot->second);  // the process's previous receive is over
        slot->second = m_queue.emplace(when, Entry{true, pid, seq, NIL, nullptr, 0});
        queue_changed();
    }
    if (earliest && m_vm.schedulers) m_vm.schedulers->notify_timer();
}

void TimerService::arm_message(Term dest, Term msg, HeapFragment* fragment, std::uint64_t timeout_ms,
                               const Word ref_id[3]) {
    bool earliest;
    {
        std::lock_guard lock(m_mutex);
        Word key = key_of(ref_id);
        Clock::time_point when = Clock::now() + std::chrono::milliseconds(timeout_ms);
        earliest = m_queue.empty() || when < m_queue.begin()->first;
        auto it = m_queue.emplace(when, Entry{false, dest, 0, msg, fragment, key});
        m_by_ref[key] = it;
        if (is_pid(dest)) m_by_pid[dest].insert(key);
        queue_changed();
    }
    if (earliest && m_vm.schedulers) m_vm.schedulers->notify_timer();
}

std::optional<std::int64_t> TimerService::cancel(const Word ref_id[3]) {
    std::lock_guard lock(m_mutex);
    auto found = m_by_ref.find(key_of(ref_id));
    if (found == m_by_ref.end()) return std::nullopt;
    auto it = found->second;
    auto left = milliseconds_left(it->first);
    if (it->second.fragment) HeapFragment::destroy(it->second.fragment);
    forget_target(it->second.target, it->second.ref_key);
    m_queue.erase(it);
    m_by_ref.erase(found);
    queue_changed();
    return left < 0 ? 0 : left;
}

void TimerService::forget_target(Term target, Word key) {
    if (!is_pid(target)) return;
    auto found = m_by_pid.find(target);
    if (found == m_by_pid.end()) return;
    found->second.erase(key);
    if (found->second.empty()) m_by_pid.erase(found);
}

void TimerService::cancel_for_process(Term pid) {
    std::lock_guard lock(m_mutex);
    auto found = m_by_pid.find(pid);
    if (found == m_by_pid.end()) return;
    for (Word key : found->second) {
        auto timer = m_by_ref.find(key);
        if (timer == m_by_ref.end()) continue;
        if (timer->second->second.fragment) HeapFragment::destroy(timer->second->second.fragment);
        m_queue.erase(timer->second);
        m_by_ref.erase(timer);
    }
    m_by_pid.erase(found);
    queue_changed();
}

std::optional<std::int64_t> TimerService::read(const Word ref_id[3]) const {
    std::lock_guard lock(m_mutex);
    auto found = m_by_ref.find(key_of(ref_id));
    if (found == m_by_ref.end()) return std::nullopt;
    auto left = milliseconds_left(found->second->first);
    return left < 0 ? 0 : left;
}

std::optional<Clock::time_point> TimerService::next_deadline() const {
    std::lock_guard lock(m_mutex);
    if (m_queue.empty()) return std::nullopt;
    return m_queue.begin()->first;
}

void TimerService::queue_changed() {
    m_count.store(m_queue.size(), std::memory_order_relaxed);
    m_earliest.store(m_queue.empty() ? Clock::duration::max().count() : m_queue.begin()->first.time_since_epoch().count(),
                     std::memory_order_relaxed);
}

std::optional<Clock::time_point> TimerService::fire_due(Clock::time_point now) {
    for (;;) {
        Entry e;
        {
            std::lock_guard lock(m_mutex);
            if (m_queue.empty()) return std::nullopt;
            auto it = m_queue.begin();
            if (it->first > now) return it->first;
            e = it->second;
            if (!e.is_receive) {
                m_by_ref.erase(e.ref_key);
                forget_target(e.target, e.ref_key);
            } else {
                m_receive_by_pid.erase(e.target);
            }
            m_queue.erase(it);
            queue_changed();
        }
        if (e.is_receive) {
            std::shared_ptr<Process> p = m_vm.lookup_process(e.target);
            if (!p) continue;
            bool enqueue = false;
            {
                std::lock_guard guard(p->lock);
                if (p->timer_seq == e.seq) {
                    if (p->state == ProcessState::Waiting && p->timeout_ip) {
                        p->ip = p->timeout_ip;
                        p->timeout_ip = nullptr;
                        enqueue = Vm::wake_locked(p.get());
                    } else {
                        // Still running toward its wait: the scheduler sees this when it parks it.
                        p->fired_seq = e.seq;
                    }
                }
            }
            if (enqueue) m_vm.schedulers->enqueue(p.get());
        } else {
            std::shared_ptr<Process> p = is_pid(e.target) ? m_vm.lookup_process(e.target) : m_vm.whereis(e.target);
            if (!p) {
                if (e.fragment) HeapFragment::destroy(e.fragment);
                continue;
            }
            m_vm.send_signal(p.get(), Message{e.msg, e.fragment});
        }
    }
}

}  // namespace beamlet::vm
