// ets/table_lock.hpp — a table's reader-writer lock, with OTP's reader groups for tables made
// with {read_concurrency, true}.
//
// A plain reader-writer lock keeps its reader count in one cache line, which every reader on
// every core writes: with short reads (a lookup) that line's ping-pong is most of the cost and
// two readers are barely faster than one. With reader groups each thread counts itself in a
// line of its own; a writer raises a flag, then waits for every group to drain. Readers pay
// no shared write; writers pay a scan of the groups, which is why OTP makes it an option.
// Both modes meet the SharedMutex requirements (std::shared_lock, std::unique_lock).
//
// Without groups the lock is one word (RwWord): a read is one compare-and-swap in and one
// subtraction out, a write one compare-and-swap in and a store out, where std::shared_mutex
// (a pthread rwlock) costs two calls and more bookkeeping around the same atomics: 13% of a
// lookup's time in bench_ets.
#pragma once

#include <atomic>
#include <mutex>
#include <thread>

namespace beamlet::ets {

// A reader-writer lock in one atomic word: the reader count in units of two, and the low bit
// for a writer that holds the lock or waits for the readers to leave (new readers then wait:
// a stream of lookups cannot starve an insert). Waiters sleep on the word (a futex).
class RwWord {
public:
    void lock_shared() {
        unsigned s = m_state.load(std::memory_order_relaxed);
        while (true) {
            if (s & WRITER) {
                m_state.wait(s, std::memory_order_relaxed);
                s = m_state.load(std::memory_order_relaxed);
            } else if (m_state.compare_exchange_weak(s, s + READER, std::memory_order_acquire, std::memory_order_relaxed)) {
                return;
            }
        }
    }

    void unlock_shared() {
        // The last reader out wakes the writer waiting for it.
        if (m_state.fetch_sub(READER, std::memory_order_release) == (READER | WRITER)) m_state.notify_all();
    }

    void lock() {
        // One writer at a time sets the bit (the others wait for it to clear), then waits
        // for the readers already in to leave. Uncontended: one compare-and-swap.
        unsigned s = 0;
        while (!m_state.compare_exchange_weak(s, s | WRITER, std::memory_order_acquire, std::memory_order_relaxed)) {
            if (s & WRITER) {
                m_state.wait(s, std::memory_order_relaxed);
                s = m_state.load(std::memory_order_relaxed) & ~WRITER;
            }
        }
        s |= WRITER;
        while (s != WRITER) {
            m_state.wait(s, std::memory_order_acquire);
            s = m_state.load(std::memory_order_acquire);
        }
    }

    void unlock() {
        m_state.store(0, std::memory_order_release);
        m_state.notify_all();  // readers and writers that came while it wrote
    }

private:
    static constexpr unsigned WRITER = 1, READER = 2;
    std::atomic<unsigned> m_state{0};
};

class TableLock {
public:
    // Before first use: readers count themselves in groups ({read_concurrency, true}).
    void use_reader_groups() { m_groups = true; }

    void lock_shared() {
        if (!m_groups) return m_plain.lock_shared();
        std::atomic<int>& readers = m_slots[slot()].readers;
        while (true) {
            // Dekker: our count is visible before we look at the flag, and the writer's flag
            // before it looks at the counts (both sequentially consistent).
            readers.fetch_add(1, std::memory_order_seq_cst);
            if (!m_writer.load(std::memory_order_seq_cst)) return;
            readers.fetch_sub(1, std::memory_order_release);
            // Wait for the writer, asleep on its mutex.
            std::lock_guard wait(m_writers);
        }
    }

    void unlock_shared() {
        if (!m_groups) return m_plain.unlock_shared();
        m_slots[slot()].readers.fetch_sub(1, std::memory_order_release);
    }

    void lock() {
        if (!m_groups) return m_plain.lock();
        m_writers.lock();
        m_writer.store(true, std::memory_order_seq_cst);
        for (Slot& s : m_slots)
            for (int spins = 0; s.readers.load(std::memory_order_acquire) != 0; ++spins)
                if (spins > 64) std::this_thread::yield();
    }

    void unlock() {
        if (!m_groups) return m_plain.unlock();
        m_writer.store(false, std::memory_order_release);
        m_writers.unlock();
    }

private:
    static constexpr unsigned SLOTS = 16;
    struct alignas(64) Slot {
        std::atomic<int> readers{0};
    };

    // This thread's group: threads take groups in turn as they first read.
    static unsigned slot() {
        static std::atomic<unsigned> next{0};
        thread_local unsigned mine = next.fetch_add(1, std::memory_order_relaxed) % SLOTS;
        return mine;
    }

    bool m_groups = false;
    RwWord m_plain;
    Slot m_slots[SLOTS];
    std::atomic<bool> m_writer{false};
    std::mutex m_writers;
};

}  // namespace beamlet::ets
