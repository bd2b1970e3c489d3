// ets/table_lock.hpp — a table's reader-writer lock, with OTP's reader groups for tables made
// with {read_concurrency, true}.
//
// A plain reader-writer lock keeps its reader count in one cache line, which every reader on
// every core writes: with short reads (a lookup) that line's ping-pong is most of the cost and
// two readers are barely faster than one. With reader groups each thread counts itself in a
// line of its own; a writer raises a flag, then waits for every group to drain. Readers pay
// no shared write; writers pay a scan of the groups, which is why OTP makes it an option.
// Both modes meet the SharedMutex requirements (std::shared_lock, std::unique_lock).
#pragma once

#include <atomic>
#include <mutex>
#include <shared_mutex>
#include <thread>

namespace beamlet::ets {

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
    std::shared_mutex m_plain;
    Slot m_slots[SLOTS];
    std::atomic<bool> m_writer{false};
    std::mutex m_writers;
};

}  // namespace beamlet::ets
