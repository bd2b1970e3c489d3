// vm/spin_lock.cpp — waiting for a SpinLock.
#include "vm/spin_lock.hpp"

#include <sched.h>

namespace beamlet::vm {

void SpinLock::lock_contended() noexcept {
    for (unsigned spins = 0;; ++spins) {
        // Wait on a plain load (the cache line stays shared) until the lock looks free.
        while (m_held.load(std::memory_order_relaxed)) {
            if (spins++ < 100) cpu_relax();
            else sched_yield();
        }
        if (!m_held.exchange(true, std::memory_order_acquire)) return;
    }
}

}  // namespace beamlet::vm
