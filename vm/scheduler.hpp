// vm/scheduler.hpp — Schedulers: N scheduler threads, each with a run queue, work stealing
// when idle, sleeping on a condition variable when nothing is runnable, preemption by
// reductions (DESIGN.md §4).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "vm/interpreter.hpp"
#include "vm/process.hpp"
#include "vm/spin_lock.hpp"
#include "vm/task.hpp"

namespace beamlet::vm {

struct Vm;

class Schedulers {
public:
    // The priority of the process this thread runs now (Low when none). A signal other than a
    // message it sends to a less urgent process has the receiver handle its signals at this
    // priority (Vm::send_signal), as erts elevates a receiver for its sender (no inversion).
    static Priority running_priority();

    // [count] scheduler threads (at least 1) for [vm]; they start in run_until_exit().
    Schedulers(Vm& vm, int count);
    ~Schedulers();
    Schedulers(const Schedulers&) = delete;
    Schedulers& operator=(const Schedulers&) = delete;

    int count() const { return int(m_scheds.size()); }
    // True when what scheduler [index] runs now is all the VM has to do: every other
    // scheduler asleep and no run queue holding a task (a hint: read without locks).
    bool alone(int index) const {
        if (m_sleepers_hint.load(std::memory_order_acquire) < count() - 1) return false;
        for (const auto& s : m_scheds)
            if (s->length.load(std::memory_order_relaxed) > 0) return false;
        return index >= 0 && index < count();
    }
    // Puts [task] in a run queue: the current scheduler's when called from a scheduler
    // thread, else a round-robin one. A process's state has been set to Runnable by the
    // caller; a port holds itself alive while queued (Port::task_hold).
    void enqueue(Task task);
    // [p], Runnable, now runs at a more urgent priority (Process::task_priority): if it waits
    // in a less urgent queue, it moves to the back of its new one. (Taken meanwhile: nothing.)
    void promote(Process* p);
    // Runs the scheduler threads until the main process (set_main) has exited, or [boot] has
    // exited before there was one, then stops them.
    void run_until_exit(Process* boot);
    // Names the process whose exit ends run_until_exit (erl's -eval process; beamlet's
    // init:boot/1 starts it once the system processes are up).
    void set_main(Process* p) { m_main.store(p, std::memory_order_release); }
    // Ends run_until_exit: the schedulers finish their current slices and return.
    void stop();
    // The index of the scheduler running on this thread, or -1.
    static int current_index();
    // Wakes a sleeping scheduler so that it recomputes its timer deadline.
    void notify_timer();
    // Puts [p] (made Runnable by the caller) in this scheduler's run queue a little later: after
    // a few more process runs, or as soon as the scheduler runs out of work. Off a scheduler
    // thread, at once.
    void wake_later(Process* p);
    // erlang:system_flag(multi_scheduling, _): with Normal blocked, normal and low processes
    // (and ports) run on the first scheduler only; with All, everything does. Work already
    // queued elsewhere moves; what runs elsewhere finishes its time slice there.
    enum class Blocking : std::uint8_t { None, Normal, All };
    void block(Blocking blocking);
    // statistics(reductions): the reductions of every time slice run so far (the current ones
    // when they end).
    std::uint64_t reductions() const;
    // statistics(run_queue_lengths): the tasks waiting in each scheduler's queues.
    std::vector<std::size_t> queue_lengths() const;
    // Runs [fn] on a scheduler once thread progress has reached [value].
    void after_thread_progress(std::uint64_t value, std::function<void()> fn);

private:
    // A scheduler's run queues, by priority: max, high, and normal (where low processes
    // wait too, passed over for normal ones seven times out of eight, as OTP's).
    static constexpr int QUEUES = 3;
    struct Scheduler {
        SpinLock mutex;
        std::deque<Task> queues[QUEUES];
        std::size_t low_queued = 0;  // low processes in queues[2]
        Registers regs;
        std::thread thread;
        std::atomic<std::size_t> length{0};
        std::atomic<std::uint64_t> reductions{0};  // of the processes it ran
        std::vector<Process*> wake_later;  // owner thread only
        int runs_since_wake = 0;
        std::chrono::steady_clock::time_point wake_later_since;
        // When this scheduler last read the precise clock for timers (owner thread only).
        std::uint64_t reductions_at_clock = 0;
        unsigned rounds_since_clock = 0;
        bool read_clock = false;  // next round: it slept (maybe until a deadline)
    };
    // Whether a timer may be due on [self]'s round, with the precise time in [*now] if so.
    bool timer_may_be_due(Scheduler& self, std::chrono::steady_clock::time_point earliest,
                          std::chrono::steady_clock::time_point* now);
    // Enqueues the processes of [s]'s wake_later list.
    void wake_pending(Scheduler& s);
    // Whether [s]'s wake_later list has waited long enough: WAKE_LATER_RUNS process runs, or
    // WAKE_LATER_MAX (checked every 16 runs).
    static bool wake_later_due(Scheduler& s);
    static constexpr int WAKE_LATER_RUNS = 256;
    static constexpr std::chrono::microseconds WAKE_LATER_MAX{500};

    void loop(int index);
    Task take(int index);
    // How many of its queues, most urgent first, scheduler [index] may take work from.
    int queues_for(int index) const {
        if (index == 0) return QUEUES;
        switch (m_blocking.load(std::memory_order_relaxed)) {
        case Blocking::None: return QUEUES;
        case Blocking::Normal: return QUEUES - 1;
        case Blocking::All: return 0;
        }
        return QUEUES;
    }
    // The next task of [s]'s first [queues] queues (its lock held), by priority; null if none.
    static Task pop_front(Scheduler& s, int queues);
    // A task taken from the back of [s]'s most urgent non-empty queue among its first
    // [queues] (its lock held), or null.
    static Task pop_back(Scheduler& s, int queues);
    static std::size_t queued(const Scheduler& s) {
        return s.queues[0].size() + s.queues[1].size() + s.queues[2].size();
    }
    // Out of work: polls the run queues a little before the scheduler sleeps.
    Task spin_for_work(int index, int progress_index);
    void run_one(int index, Process* p);
    void wake_one();
    void resume_progress_waiters();
    // Ends [p] with [reason]; when it is the main process, stops the schedulers. An exit with
    // much to free takes several turns (exit_resources_slice).
    void finish(Process* p, Term reason);
    // One slice of the work [p]'s exit leaves to the resources it used (ETS); true once done.
    bool exit_resources_slice(Process* p);

    Vm& m_vm;
    std::vector<std::unique_ptr<Scheduler>> m_scheds;
    std::mutex m_sleep_mutex;
    std::condition_variable m_sleep_cv;
    int m_sleepers = 0;                 // guarded by m_sleep_mutex
    int m_waking = 0;                   // notified sleepers not yet awake; m_sleep_mutex
    std::atomic<int> m_sleepers_hint{0};
    std::atomic<bool> m_stop{false};
    std::atomic<Blocking> m_blocking{Blocking::None};
    std::atomic<unsigned> m_round_robin{0};
    std::atomic<Process*> m_main{nullptr};
    Process* m_boot = nullptr;
    SpinLock m_progress_mutex;
    std::vector<Process*> m_progress_waiters;   // suspended until thread progress
    std::vector<std::pair<std::uint64_t, std::function<void()>>> m_later_ops;  // likewise
    std::atomic<bool> m_progress_waiting{false};
};

}  // namespace beamlet::vm
