// vm/system_monitor.hpp — SystemMonitors: who watches the system for long collections, long
// schedules, large heaps, busy ports and long message queues. erlang:system_monitor/2 sets
// one monitor (a process); each trace session may set its own (OTP 28's trace:system/3,
// delivered to the session's tracer). Every monitor gets {monitor, Who, Event, Info} for the
// events it asked for.
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <vector>

#include "vm/term.hpp"

namespace beamlet::vm {

// The smallest large_heap limit: a smaller one is raised to it, as OTP 25 does.
inline constexpr std::uint64_t MIN_LARGE_HEAP_WORDS = 16384;

// What one monitor watches for; 0 or false: not that event.
struct MonitorLimits {
    std::uint64_t long_gc_ms = 0, long_schedule_ms = 0, large_heap_words = 0;
    bool busy_port = false, busy_dist_port = false;
    // long_message_queue {Disable, Enable}: on when a queue reaches [msgq_on] messages, off
    // again when it is down to [msgq_off].
    bool long_msgq = false;
    std::uint64_t msgq_off = 0, msgq_on = 0;

    bool any() const {
        return long_gc_ms || long_schedule_ms || large_heap_words || busy_port || busy_dist_port || long_msgq;
    }
};

// The monitors, one per owner: LEGACY for erlang:system_monitor/2, a session's id for the
// session's. The sites of the events read the summary (the lowest limit of any monitor, or
// whether any monitor wants the event) without a lock; the list itself is read and written
// under a mutex, on the slow path of an event that some monitor wants.
class SystemMonitors {
public:
    static constexpr Word LEGACY = ~Word(0);

    struct Entry {
        Word owner = 0;
        Term receiver = 0;  // a pid or a port
        MonitorLimits limits;
        // Names this setting of long_message_queue: a process remembers the generations whose
        // "on" it reported, so that a changed or removed setting starts over.
        std::uint64_t msgq_generation = 0;
    };

    // Sets [owner]'s monitor; limits that watch nothing remove it.
    void set(Word owner, Term receiver, const MonitorLimits& limits);
    void remove(Word owner);
    // Removes [owner]'s monitor if its receiver is still [receiver] (a monitor process exited).
    void remove_if_receiver(Word owner, Term receiver);
    std::optional<Entry> get(Word owner) const;
    std::vector<Entry> snapshot() const;

    // ---- the summary, read by the events' sites ----
    bool active() const { return m_active.load(std::memory_order_relaxed); }
    std::uint64_t long_gc_ms() const { return m_long_gc_ms.load(std::memory_order_relaxed); }
    std::uint64_t long_schedule_ms() const { return m_long_schedule_ms.load(std::memory_order_relaxed); }
    std::uint64_t large_heap_words() const { return m_large_heap_words.load(std::memory_order_relaxed); }
    bool busy_port() const { return m_busy_port.load(std::memory_order_relaxed); }
    // A queue of at least this many messages may turn some monitor's long_message_queue on.
    std::uint64_t msgq_on_min() const { return m_msgq_on_min.load(std::memory_order_relaxed); }
    // A queue of at most this many may turn one off (meaningful only while any is on).
    std::uint64_t msgq_off_max() const { return m_msgq_off_max.load(std::memory_order_relaxed); }
    // How many monitors watch long_message_queue, and a number that changes with every change
    // of the list: a process that has reported "on" to all of them as of this epoch need not look.
    std::size_t msgq_monitors() const { return m_msgq_monitors.load(std::memory_order_relaxed); }
    std::uint64_t epoch() const { return m_epoch.load(std::memory_order_acquire); }

private:
    void summarize_locked();

    mutable std::mutex m_mutex;
    std::vector<Entry> m_entries;
    std::uint64_t m_next_generation = 1;
    std::atomic<bool> m_active{false}, m_busy_port{false};
    std::atomic<std::uint64_t> m_long_gc_ms{0}, m_long_schedule_ms{0}, m_large_heap_words{0};
    std::atomic<std::uint64_t> m_msgq_on_min{std::numeric_limits<std::uint64_t>::max()};
    std::atomic<std::uint64_t> m_msgq_off_max{0};
    std::atomic<std::size_t> m_msgq_monitors{0};
    std::atomic<std::uint64_t> m_epoch{0};
};

}  // namespace beamlet::vm
