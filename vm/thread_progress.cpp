// vm/thread_progress.cpp — ThreadProgress: per-thread confirmation slots and a global value that
// pollers advance once every participating thread has confirmed the next step.
//
// Memory-order argument, referred to below. W calls later() (fence Fw, then reads G == c) and later
// sees has_reached(c + 2). The step c+1 -> c+2 was a CAS by an advancer that read G == c + 1, ran
// fence Fa, then read each slot as >= c + 2 or ASLEEP. For each managed thread T:
//  (a) T's earlier work is over: the slot value the advancer read was stored with release after that
//      work; advancer acquire load -> CAS (acq_rel) -> W's acquire load of G (CASes only, so every
//      later step is in the CAS's release sequence) gives happens-before.
//  (b) T's later work sees W's stores before later(): if T stored c + 2 it had read G == c + 1 and
//      then ran fence Ft. W's read of c is coherence-ordered before the CAS that wrote c + 1, which
//      happens before Ft, so Fw precedes Ft in the seq_cst order S ([atomics.order] p4.4); a load
//      after Ft returning a value overwritten by W before Fw would need Ft before Fw in S. If T was
//      read as ASLEEP before it woke, Fa precedes T's wake-up fence, and Fw precedes Fa (as above via
//      G == c + 1), so the same contradiction holds.
// TSan does not model fences, so TSan checks (a); (b) is about which value a load returns and is
// covered by the grace-period unit test under ASan.
#include "vm/thread_progress.hpp"

#include <limits>

#include "vm/assert.hpp"

namespace beamlet::vm {

namespace {

// The slot value of a thread that does not participate; >= every step, so it never holds one back.
constexpr ThreadProgress::Value ASLEEP = std::numeric_limits<ThreadProgress::Value>::max();

// A seq_cst fence: one of Fw, Fa, Ft in the argument above. GCC warns that TSan ignores fences; we
// know, and say above what TSan checks instead.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtsan"
#endif
inline void full_fence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic pop
#endif

}  // namespace

// One cache line per thread: a slot is written by its owner and read only by advancers.
struct alignas(64) ThreadProgress::Slot {
    std::atomic<Value> confirmed{ASLEEP};
};

ThreadProgress::ThreadProgress(int max_managed_threads)
    : m_max_managed(max_managed_threads), m_slots(std::make_unique<Slot[]>(max_managed_threads)) {
    BEAMLET_ASSERT(max_managed_threads >= 0);
}

ThreadProgress::~ThreadProgress() = default;

int ThreadProgress::register_managed_thread() {
    // Relaxed: the index only has to be unique; the slot store below publishes participation.
    int index = m_registered.fetch_add(1, std::memory_order_relaxed);
    BEAMLET_ASSERT(index < m_max_managed);
    finalize_wait(index);
    return index;
}

namespace {
// OTP's "code barrier" at each quiescent point: machine code patched before a thread-progress
// wait (JIT breakpoints) is fetched anew by this thread afterwards. AArch64 needs an ISB after
// the patcher's cache maintenance; on x86-64 cross-modifying code is coherent in practice for
// these one-byte patches (a store of one byte or one aligned word is seen whole), so nothing is
// executed there.
inline void code_barrier() {
#if defined(__aarch64__)
    asm volatile("isb" ::: "memory");
#endif
}
}  // namespace

void ThreadProgress::update(int index) {
    Slot& slot = m_slots[index];
    // Acquire: pairs with the advancing CAS, so the fence below follows it in happens-before (b).
    Value current = m_current.load(std::memory_order_acquire);
    // Relaxed: only this thread writes its slot.
    Value confirmed = slot.confirmed.load(std::memory_order_relaxed);
    BEAMLET_ASSERT(confirmed != ASLEEP);
    if (confirmed == current + 1) return;  // The common case: G has not moved since our last step.
    // Release: everything before this quiescent point happens before an advancer that reads it (a).
    slot.confirmed.store(current + 1, std::memory_order_release);
    full_fence();  // Ft in (b): what we read from now on is at least as new as W's pre-later() stores.
    code_barrier();
}

void ThreadProgress::prepare_wait(int index) {
    Slot& slot = m_slots[index];
    BEAMLET_ASSERT(slot.confirmed.load(std::memory_order_relaxed) != ASLEEP);
    // Release, as in update(): the work before sleeping happens before an advancer that skips us (a).
    slot.confirmed.store(ASLEEP, std::memory_order_release);
}

void ThreadProgress::finalize_wait(int index) {
    BEAMLET_ASSERT(index >= 0 && index < m_max_managed);
    Slot& slot = m_slots[index];
    BEAMLET_ASSERT(slot.confirmed.load(std::memory_order_relaxed) == ASLEEP);
    // Confirm only the step after the value we read now. An advancer that read ASLEEP before this
    // store may still complete steps without us; the fence makes that safe (b, second case).
    Value current = m_current.load(std::memory_order_acquire);
    slot.confirmed.store(current + 1, std::memory_order_release);
    full_fence();
}

ThreadProgress::Value ThreadProgress::current() const {
    // Acquire: a caller that sees a value sees the work it certifies (a).
    return m_current.load(std::memory_order_acquire);
}

ThreadProgress::Value ThreadProgress::later() const {
    full_fence();  // Fw in (b): orders the caller's earlier stores before the read of G.
    return m_current.load(std::memory_order_acquire) + 2;
}

bool ThreadProgress::has_reached(Value value) const {
    while (m_current.load(std::memory_order_acquire) < value) {
        if (!try_advance()) return m_current.load(std::memory_order_acquire) >= value;
    }
    return true;
}

// Moves G one step if every slot confirms it; returns false only if some thread holds it back.
bool ThreadProgress::try_advance() const {
    Value current = m_current.load(std::memory_order_acquire);
    full_fence();  // Fa in (b): slot reads below come after our read of G in S.
    for (int i = 0; i < m_max_managed; ++i) {
        // Acquire: pairs with the release store in update()/prepare_wait() (a). A slot above
        // current + 1 belongs to a thread that saw a newer G; then our CAS fails, which is fine.
        if (m_slots[i].confirmed.load(std::memory_order_acquire) < current + 1) return false;
    }
    // acq_rel: publishes the slots we acquired to whoever reads the new G (a). On failure another
    // poller advanced G, which is progress too.
    m_current.compare_exchange_strong(current, current + 1, std::memory_order_acq_rel,
                                      std::memory_order_acquire);
    return true;
}

}  // namespace beamlet::vm
