// vm/thread_progress.hpp — ThreadProgress: tells when every scheduler thread has passed a quiescent
// point since a given moment (mirrors erl_thr_progress.c, without its leader, blocking and wakeups).
//
// Managed threads (the schedulers) call update() at quiescent points, where they hold no pointer read
// from shared VM state (between two process runs). The global progress value G, returned by current(),
// moves from c to c + 1 only once every participating managed thread has *confirmed* c + 1, i.e. called
// update() (or finalize_wait()) after G became c; a thread asleep in prepare_wait() counts as
// confirmed. OTP elects a leader thread to advance G; here whoever polls has_reached() advances it, so
// update() stays two plain loads plus, once per step of G, one store and one fence. If nobody polls,
// G does not move, which costs nothing: only a waiter needs it to (a scheduler holding a waiting
// process should poll before it sleeps; with every other thread asleep, G advances at once).
//
// Guarantee. Let v = later() be called by any thread (managed or not). Once has_reached(v) returns
// true, every managed thread has, after the later() call, either executed update() (or
// finalize_wait()) or been asleep (between prepare_wait() and finalize_wait()). Consequently
// everything a managed thread did before its last quiescent point preceding that moment happens
// before the has_reached() call returned, and everything it does after it sees every store the caller
// made before later(). That is RCU's grace period: unpublish P, v = later(), wait for has_reached(v),
// then free P; no managed thread can still hold P, provided it keeps such pointers only between two
// update() calls. later() is current() + 2, as in OTP: a thread may have confirmed current() + 1
// before the later() call, so only the step after that one proves a later quiescent point.
//
// Values are 64-bit and only grow (no wrap in practice: 2^64 steps). All members are thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace beamlet::vm {

class ThreadProgress {
public:
    using Value = std::uint64_t;

    // Creates the service for at most [max_managed_threads] managed threads, none registered yet.
    explicit ThreadProgress(int max_managed_threads);
    ~ThreadProgress();
    ThreadProgress(const ThreadProgress&) = delete;
    ThreadProgress& operator=(const ThreadProgress&) = delete;

    // Registers the calling thread as a managed thread, participating from now on; returns its
    // index, 0 .. max_managed_threads - 1, to pass to update(), prepare_wait() and finalize_wait().
    // Aborts if all indices are taken.
    int register_managed_thread();

    // Called by managed thread [index] at a quiescent point: it holds nothing read from shared state
    // before this call. Lock-free and allocation-free; cheap enough to run between two process runs.
    void update(int index);

    // Managed thread [index] is about to sleep (nothing runnable): it stops participating, so it does
    // not hold progress back. It must be at a quiescent point, and must not call update() until
    // finalize_wait(). Mirrors erts_thr_progress_prepare_wait().
    void prepare_wait(int index);

    // Managed thread [index] woke up and participates again. Waking is a quiescent point: it confirms
    // only the step after the value it reads now, never one it slept through unseen.
    // Mirrors erts_thr_progress_finalize_wait().
    void finalize_wait(int index);

    // The progress value every participating managed thread has passed.
    Value current() const;

    // The value to wait for: once has_reached() returns true for it, every managed thread has passed a
    // quiescent point (or slept) after this call. Mirrors erts_thr_progress_later().
    Value later() const;

    // True once current() >= [value]. Tries to advance the global value first if it is behind, so
    // pollers (schedulers at quiescent points, the main thread, a timer thread) drive progress.
    bool has_reached(Value value) const;

    // The number of managed threads that may register.
    int max_managed_threads() const { return m_max_managed; }

private:
    struct Slot;

    bool try_advance() const;

    const int m_max_managed;
    std::atomic<int> m_registered{0};
    // Slot i holds the value managed thread i confirmed last (c + 1 for the c it read), or
    // ASLEEP while it sleeps or before it registers. Each slot is written only by its own thread.
    std::unique_ptr<Slot[]> m_slots;
    // G: advanced by has_reached() callers (logically const: it caches the slots' consensus).
    alignas(64) mutable std::atomic<Value> m_current{0};
};

}  // namespace beamlet::vm
