// tests/unit/bif/table_lock_test.cpp — ets::TableLock in both modes: readers never see a
// writer's half-done update, writers exclude each other, and readers run side by side.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

#include "ets/table_lock.hpp"

namespace beamlet::ets {
namespace {

// Writers keep a == b (two plain fields, updated one after the other); readers check it.
void hammer(TableLock& lock) {
    long a = 0, b = 0;
    std::atomic<bool> torn{false};
    std::atomic<int> readers_done{0};
    auto reader = [&] {
        for (int i = 0; i < 20000; ++i) {
            std::shared_lock guard(lock);
            if (a != b) torn = true;
        }
        ++readers_done;
    };
    auto writer = [&] {
        for (int i = 0; i < 2000; ++i) {
            std::unique_lock guard(lock);
            ++a;
            std::this_thread::yield();
            ++b;
        }
    };
    std::vector<std::thread> threads;
    for (int i = 0; i < 3; ++i) threads.emplace_back(reader);
    for (int i = 0; i < 2; ++i) threads.emplace_back(writer);
    for (auto& t : threads) t.join();
    EXPECT_FALSE(torn.load());
    EXPECT_EQ(a, 4000);
    EXPECT_EQ(b, 4000);
    EXPECT_EQ(readers_done.load(), 3);
}

TEST(TableLock, PlainModeExcludesWritersFromReaders) {
    TableLock lock;
    hammer(lock);
}

TEST(TableLock, ReaderGroupsExcludeWritersFromReaders) {
    TableLock lock;
    lock.use_reader_groups();
    hammer(lock);
}

TEST(TableLock, ReadersHoldTheLockTogether) {
    for (bool groups : {false, true}) {
        TableLock lock;
        if (groups) lock.use_reader_groups();
        std::shared_lock first(lock);
        std::atomic<bool> second_in{false};
        std::thread other([&] {
            std::shared_lock second(lock);
            second_in = true;
        });
        other.join();  // would hang if readers excluded each other
        EXPECT_TRUE(second_in.load());
    }
}

}  // namespace
}  // namespace beamlet::ets
