// vm/spin_lock.hpp — the lock of a process and of a run queue: their critical sections are a
// few loads and stores (a push onto an inbox, a state change), so taking the lock is one
// atomic exchange and giving it back one release store, where a pthread mutex costs a call,
// a compare-and-swap and another read-modify-write to unlock. A waiter spins on a plain load,
// then yields the core (the holder may have been preempted: there are more threads than
// cores).
#pragma once

#include <atomic>

namespace beamlet::vm {

// The busy-wait hint (x86 pause, AArch64 yield) between two polls of a shared location.
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield" ::: "memory");
#endif
}

class SpinLock {
public:
    void lock() noexcept {
        if (!m_held.exchange(true, std::memory_order_acquire)) return;
        lock_contended();
    }
    bool try_lock() noexcept {
        return !m_held.load(std::memory_order_relaxed) && !m_held.exchange(true, std::memory_order_acquire);
    }
    void unlock() noexcept { m_held.store(false, std::memory_order_release); }

private:
    void lock_contended() noexcept;
    std::atomic<bool> m_held{false};
};

}  // namespace beamlet::vm
