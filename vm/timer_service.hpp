// vm/timer_service.hpp — TimerService: receive timeouts and erlang:send_after/start_timer timers.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "vm/heap.hpp"
#include "vm/term.hpp"

namespace beamlet::vm {

struct Vm;

using Clock = std::chrono::steady_clock;

class TimerService {
public:
    explicit TimerService(Vm& vm) : m_vm(vm) {}
    ~TimerService();

    // Arms the timeout of the receive of process [pid] identified by [seq].
    void arm_receive_timeout(Term pid, std::uint64_t seq, std::uint64_t timeout_ms);
    // Arms a timer that sends [msg] (built in [fragment]) to [dest] (pid or name) after
    // [timeout_ms]; [ref_id] identifies it for cancel_timer/read_timer.
    void arm_message(Term dest, Term msg, HeapFragment* fragment, std::uint64_t timeout_ms, const Word ref_id[3]);
    // Cancels the message timer [ref_id]; the milliseconds that were left, or nullopt.
    std::optional<std::int64_t> cancel(const Word ref_id[3]);
    // Cancels every message timer to the pid [pid] (the process has exited).
    void cancel_for_process(Term pid);
    // The milliseconds left of timer [ref_id], or nullopt.
    std::optional<std::int64_t> read(const Word ref_id[3]) const;

    // Fires every timer due at [now]; returns the next deadline, if any.
    std::optional<Clock::time_point> fire_due(Clock::time_point now);
    // True when any timer is armed (a cheap check before reading the clock).
    bool any() const { return m_count.load(std::memory_order_relaxed) != 0; }
    // The earliest deadline, read without the lock (Clock::time_point::max() if none): a
    // scheduler takes the lock only when a timer is due.
    Clock::time_point earliest() const { return Clock::time_point(Clock::duration(m_earliest.load(std::memory_order_relaxed))); }
    // The next deadline without firing anything.
    std::optional<Clock::time_point> next_deadline() const;

private:
    struct Entry {
        bool is_receive;
        Term target;              // pid, or a registered name for message timers
        std::uint64_t seq;        // receive timeouts
        Term msg;                 // message timers
        HeapFragment* fragment;
        Word ref_key;             // message timers: key of m_by_ref
    };
    using Queue = std::multimap<Clock::time_point, Entry>;

    static Word key_of(const Word ref_id[3]) { return ref_id[0] ^ (ref_id[1] << 18) ^ (ref_id[2] << 36); }

    Vm& m_vm;
    mutable std::mutex m_mutex;
    Queue m_queue;
    std::unordered_map<Word, Queue::iterator> m_by_ref;
    // The message timers to each pid (not to names), by key, to cancel them at its exit.
    std::unordered_map<Term, std::unordered_set<Word>> m_by_pid;
    // Drops [key] of a message timer to [target] from m_by_pid (lock held).
    void forget_target(Term target, Word key);
    // A process has at most one receive timeout armed: arming another replaces it, so a
    // process that loops in receive ... after keeps one entry, not one per iteration.
    std::unordered_map<Term, Queue::iterator> m_receive_by_pid;
    // After any change to m_queue (lock held): its size and first deadline for the lock-free reads.
    void queue_changed();

    std::atomic<std::size_t> m_count{0};  // m_queue.size(), readable without the lock
    std::atomic<Clock::rep> m_earliest{Clock::duration::max().count()};
};

}  // namespace beamlet::vm
