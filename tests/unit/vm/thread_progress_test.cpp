// tests/unit/vm/thread_progress_test.cpp — ThreadProgress: reaching later(), sleeping threads, an
// RCU-style grace period (run under TSan and ASan) and monotonic values.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

#include "vm/thread_progress.hpp"

namespace beamlet::vm {
namespace {

using Clock = std::chrono::steady_clock;
using Value = ThreadProgress::Value;

// Every wait is bounded: a stuck wait fails the test instead of hanging it.
constexpr auto WAIT_LIMIT = std::chrono::seconds(5);

// Polls has_reached([value]) until true or WAIT_LIMIT passes; returns whether it was reached.
bool wait_until_reached(const ThreadProgress& progress, Value value) {
    auto deadline = Clock::now() + WAIT_LIMIT;
    while (!progress.has_reached(value)) {
        if (Clock::now() > deadline) return false;
        std::this_thread::yield();
    }
    return true;
}

// Runs [body](index, stop) on [count] threads and joins them on destruction, even if an assertion
// returns early from the test.
class Workers {
public:
    Workers(int count, std::function<void(int, const std::atomic<bool>&)> body) {
        for (int i = 0; i < count; ++i) m_threads.emplace_back([this, i, body] { body(i, m_stop); });
    }
    ~Workers() { stop(); }
    void stop() {
        m_stop.store(true);
        for (auto& t : m_threads)
            if (t.joinable()) t.join();
    }

private:
    std::atomic<bool> m_stop{false};
    std::vector<std::thread> m_threads;
};

TEST(ThreadProgress, NoManagedThreadsMeansLaterIsReachedAtOnce) {
    ThreadProgress progress(4);
    EXPECT_TRUE(progress.has_reached(progress.later()));
}

TEST(ThreadProgress, SingleThreadReachesLaterOnlyAfterAnUpdate) {
    ThreadProgress progress(1);
    int me = progress.register_managed_thread();
    EXPECT_EQ(me, 0);
    Value v = progress.later();
    for (int i = 0; i < 3; ++i) EXPECT_FALSE(progress.has_reached(v)) << "poll " << i;
    progress.update(me);
    EXPECT_TRUE(progress.has_reached(v));
    // Progress moves by polling: with the step before later() not yet taken, the first update
    // confirms only that step, and a second one is needed.
    Value w = progress.later();
    EXPECT_FALSE(progress.has_reached(w));
    progress.update(me);
    EXPECT_FALSE(progress.has_reached(w));
    progress.update(me);
    EXPECT_TRUE(progress.has_reached(w));
    // Updates without a poll in between confirm nothing new: G has not moved.
    Value x = progress.later();
    for (int i = 0; i < 3; ++i) progress.update(me);
    EXPECT_FALSE(progress.has_reached(x));
}

TEST(ThreadProgress, SleepingThreadDoesNotHoldProgressBack) {
    ThreadProgress progress(2);
    int awake = progress.register_managed_thread();
    int sleeper = progress.register_managed_thread();
    progress.prepare_wait(sleeper);
    Value v = progress.later();
    for (int i = 0; i < 3 && !progress.has_reached(v); ++i) progress.update(awake);
    EXPECT_TRUE(progress.has_reached(v));

    // Woken, it participates again and confirms nothing it has not passed since later().
    progress.finalize_wait(sleeper);
    Value w = progress.later();
    for (int i = 0; i < 10; ++i) {
        progress.update(awake);
        EXPECT_FALSE(progress.has_reached(w)) << "update " << i;
    }
    progress.update(sleeper);
    progress.update(awake);
    EXPECT_TRUE(progress.has_reached(w));
}

TEST(ThreadProgress, SleepingThreadsLetProgressRunFreely) {
    ThreadProgress progress(2);
    int a = progress.register_managed_thread();
    int b = progress.register_managed_thread();
    progress.prepare_wait(a);
    progress.prepare_wait(b);
    Value v = progress.later();
    EXPECT_TRUE(progress.has_reached(v));
    EXPECT_GE(progress.current(), v);
}

// N workers loop update(); main repeatedly waits for later(). Each worker counts the sections (the
// spans between two quiescent points) it began and ended; every section begun before later() must
// have ended once has_reached() says so. Workers sometimes sleep, which ends their section too.
TEST(ThreadProgress, EveryThreadPassesAQuiescentPointAfterLater) {
    constexpr int N = 4;
    ThreadProgress progress(N);
    std::atomic<std::uint64_t> begun[N] = {};
    std::atomic<std::uint64_t> ended[N] = {};
    std::atomic<int> registered{0};
    Workers workers(N, [&](int, const std::atomic<bool>& stop) {
        int me = progress.register_managed_thread();
        registered.fetch_add(1);
        for (std::uint64_t section = 1; !stop.load(std::memory_order_relaxed); ++section) {
            begun[me].store(section, std::memory_order_release);
            std::this_thread::yield();  // Work inside the section.
            ended[me].store(section, std::memory_order_release);
            if (section % 64 == 0) {
                progress.prepare_wait(me);
                std::this_thread::yield();
                progress.finalize_wait(me);
            } else {
                progress.update(me);
            }
        }
        progress.prepare_wait(me);  // Leave without holding the others back.
    });
    while (registered.load() < N) std::this_thread::yield();

    constexpr int ROUNDS = 50;  // a count, not a time budget (sanitizers, loaded machines)
    int rounds = 0;
    while (rounds < ROUNDS) {
        std::uint64_t begun_before[N];
        for (int i = 0; i < N; ++i) begun_before[i] = begun[i].load(std::memory_order_acquire);
        Value v = progress.later();
        ASSERT_TRUE(wait_until_reached(progress, v)) << "stuck at round " << rounds;
        for (int i = 0; i < N; ++i)
            ASSERT_GE(ended[i].load(std::memory_order_acquire), begun_before[i])
                << "thread " << i << " round " << rounds;
        ++rounds;
    }
    EXPECT_EQ(rounds, ROUNDS);
}

// RCU: readers dereference a shared pointer only between two update() calls; the writer swaps it,
// waits for has_reached(later()) and frees the old object. TSan reports the free racing with a read,
// ASan a read of freed memory, if the grace period is too short.
TEST(ThreadProgress, GracePeriodMakesFreeingSafe) {
    struct Node {
        std::uint64_t value;
        bool alive;
    };
    constexpr int READERS = 3;
    ThreadProgress progress(READERS);
    std::atomic<Node*> shared{new Node{0, true}};
    std::atomic<bool> corrupted{false};
    std::atomic<int> registered{0};
    Workers readers(READERS, [&](int, const std::atomic<bool>& stop) {
        int me = progress.register_managed_thread();
        registered.fetch_add(1);
        std::uint64_t last = 0;
        for (int i = 1; !stop.load(std::memory_order_relaxed); ++i) {
            Node* node = shared.load(std::memory_order_acquire);
            for (int j = 0; j < 4; ++j) {  // Hold the pointer a while, rereading the node.
                if (!node->alive || node->value < last) corrupted.store(true);
                std::this_thread::yield();
            }
            last = node->value;
            if (i % 32 == 0) {
                progress.prepare_wait(me);
                std::this_thread::yield();
                progress.finalize_wait(me);
            } else {
                progress.update(me);
            }
        }
        progress.prepare_wait(me);
    });
    while (registered.load() < READERS) std::this_thread::yield();

    // A fixed number of grace periods (not a time budget: under a sanitizer on a loaded
    // machine each may take a while); wait_until_reached bounds each one.
    constexpr std::uint64_t SWAPS = 50;
    std::uint64_t swaps = 0;
    while (swaps < SWAPS) {
        Node* old = shared.exchange(new Node{swaps + 1, true}, std::memory_order_acq_rel);
        ASSERT_TRUE(wait_until_reached(progress, progress.later())) << "stuck after swap " << swaps;
        old->alive = false;  // A reader still holding it would see this (or TSan the race).
        delete old;
        ++swaps;
    }
    readers.stop();
    delete shared.load();
    EXPECT_FALSE(corrupted.load());
    EXPECT_EQ(swaps, SWAPS);
}

// current() and later() never decrease, whoever observes them, and a reached value stays reached.
TEST(ThreadProgress, ValuesAreMonotonic) {
    constexpr int N = 2;
    ThreadProgress progress(N);
    std::atomic<int> registered{0};
    Workers updaters(N, [&](int, const std::atomic<bool>& stop) {
        int me = progress.register_managed_thread();
        registered.fetch_add(1);
        while (!stop.load(std::memory_order_relaxed)) {
            progress.update(me);
            std::this_thread::yield();
        }
        progress.prepare_wait(me);
    });
    while (registered.load() < N) std::this_thread::yield();

    std::atomic<bool> failed{false};
    auto observe = [&] {
        Value last_current = 0;
        Value last_later = 0;
        Value reached = 0;
        // Until progress has moved 20 times (bounded by WAIT_LIMIT, however slow the machine).
        auto deadline = Clock::now() + WAIT_LIMIT;
        Value first = progress.current();
        while (progress.current() < first + 20 && Clock::now() < deadline) {
            Value current = progress.current();
            Value later = progress.later();
            if (current < last_current || later < last_later || later < current + 2) failed = true;
            if (reached != 0 && !progress.has_reached(reached)) failed = true;
            if (progress.has_reached(later)) reached = later;
            last_current = current;
            last_later = later;
        }
        if (progress.current() < first + 20) failed = true;  // progress was made
    };
    std::thread other(observe);
    observe();
    other.join();
    EXPECT_FALSE(failed.load());
}

}  // namespace
}  // namespace beamlet::vm
