// vm/scheduler.cpp — the run loop.
#include "vm/scheduler.hpp"

#include <thread>

#include "vm/vm.hpp"

namespace beamlet::vm {

Scheduler::Scheduler(Vm& vm) : m_vm(vm) {
    m_vm.on_message_sent = [this](Process* p) { wake(p); };
    m_vm.on_start_timer = [this](Process* p, std::uint64_t ms) { arm_timer(p, ms); };
}

Scheduler::~Scheduler() {
    m_vm.on_message_sent = nullptr;
    m_vm.on_start_timer = nullptr;
    for (auto& p : m_processes) m_vm.remove_process(p.get());
}

Process* Scheduler::spawn(const Export* entry, const std::vector<Term>& args) {
    auto p = std::make_unique<Process>(m_vm, m_vm.next_pid.fetch_add(1) + 1);
    prepare_call(p.get(), entry, args);
    Process* raw = p.get();
    m_processes.push_back(std::move(p));
    m_vm.add_process(raw);
    m_run_queue.push_back(raw);
    return raw;
}

void Scheduler::wake(Process* p) {
    if (m_waiting.erase(p)) m_run_queue.push_back(p);
}

void Scheduler::arm_timer(Process* p, std::uint64_t timeout_ms) {
    m_timers.emplace(std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms), p);
}

void Scheduler::fire_due_timers() {
    auto now = std::chrono::steady_clock::now();
    while (!m_timers.empty() && m_timers.begin()->first <= now) {
        Process* p = m_timers.begin()->second;
        m_timers.erase(m_timers.begin());
        if (p->timeout_ip && m_waiting.count(p)) {
            p->ip = p->timeout_ip;
            p->timeout_ip = nullptr;
            wake(p);
        }
    }
}

void Scheduler::run_until_exit(Process* main) {
    while (!main->exited) {
        fire_due_timers();
        if (m_run_queue.empty()) {
            if (m_timers.empty()) {
                // Every process waits for a message that cannot come: like erl, wait forever.
                std::this_thread::sleep_for(std::chrono::hours(24));
                continue;
            }
            std::this_thread::sleep_until(m_timers.begin()->first);
            continue;
        }
        Process* p = m_run_queue.front();
        m_run_queue.pop_front();
        RunResult r = run_process(p, m_regs);
        switch (r) {
        case RunResult::Yield:
            m_run_queue.push_back(p);
            break;
        case RunResult::Wait:
            if (p->fetch_inbox()) {
                m_run_queue.push_back(p);
            } else {
                m_waiting.insert(p);
            }
            break;
        case RunResult::Exited:
            m_vm.remove_process(p);
            break;
        }
    }
}

}  // namespace beamlet::vm
