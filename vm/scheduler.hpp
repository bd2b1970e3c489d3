// vm/scheduler.hpp — Scheduler: runs processes by reductions; parks waiting processes and wakes
// them on messages and receive timeouts. (Single scheduler thread for now; issue 3 adds N.)
#pragma once

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <unordered_set>
#include <vector>

#include "vm/interpreter.hpp"
#include "vm/process.hpp"

namespace beamlet::vm {

struct Vm;

class Scheduler {
public:
    explicit Scheduler(Vm& vm);
    ~Scheduler();

    // Creates a process that will call [entry] with [args].
    Process* spawn(const Export* entry, const std::vector<Term>& args);
    // Runs until [main] exits; returns it (still owned by the scheduler) for its exit status.
    void run_until_exit(Process* main);

private:
    void wake(Process* p);
    void arm_timer(Process* p, std::uint64_t timeout_ms);
    void fire_due_timers();

    Vm& m_vm;
    Registers m_regs;
    std::deque<Process*> m_run_queue;
    std::unordered_set<Process*> m_waiting;
    std::multimap<std::chrono::steady_clock::time_point, Process*> m_timers;
    std::vector<std::unique_ptr<Process>> m_processes;
};

}  // namespace beamlet::vm
