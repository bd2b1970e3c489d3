// tests/unit/bif/ordered_index_test.cpp — ets::OrderedIndex (the B+ tree of an ordered_set):
// lookups, bounds and walks both ways against std::map through random inserts, replaces and
// erases that split, borrow and merge nodes at every level.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "ets/ordered_index.hpp"

namespace beamlet::ets {
namespace {

using vm::make_small;
using vm::small_value;
using vm::SWord;
using vm::Term;

// The index never looks into objects: any distinct pointer values do.
DbObject* object_for(SWord value) { return reinterpret_cast<DbObject*>(std::uintptr_t(value) * 16 + 8); }

// Checks [index] against [model]: size, every key and object in order both ways, and the
// bounds around every key.
void expect_same(const OrderedIndex& index, const std::map<SWord, SWord>& model) {
    ASSERT_EQ(index.size(), model.size());
    std::vector<SWord> forward, backward;
    for (auto at = index.first(); at.valid(); at = index.next(at)) {
        forward.push_back(small_value(index.key(at)));
        EXPECT_EQ(index.object(at), object_for(model.at(small_value(index.key(at)))));
    }
    for (auto at = index.last(); at.valid(); at = index.prev(at)) backward.push_back(small_value(index.key(at)));
    std::vector<SWord> keys;
    for (const auto& [k, v] : model) keys.push_back(k);
    EXPECT_EQ(forward, keys);
    EXPECT_EQ(backward, std::vector<SWord>(keys.rbegin(), keys.rend()));
    for (SWord k : keys) {
        EXPECT_EQ(index.find(make_small(k)), object_for(model.at(k)));
        auto lb = index.lower_bound(make_small(k));
        ASSERT_TRUE(lb.valid());
        EXPECT_EQ(small_value(index.key(lb)), k);
        auto ub = index.upper_bound(make_small(k));
        auto next = model.upper_bound(k);
        EXPECT_EQ(ub.valid(), next != model.end());
        if (ub.valid()) {
            EXPECT_EQ(small_value(index.key(ub)), next->first);
        }
    }
}

TEST(OrderedIndex, EmptyIndexHasNoPositions) {
    OrderedIndex index;
    EXPECT_TRUE(index.empty());
    EXPECT_FALSE(index.first().valid());
    EXPECT_FALSE(index.last().valid());
    EXPECT_FALSE(index.lower_bound(make_small(1)).valid());
    EXPECT_EQ(index.find(make_small(1)), nullptr);
    EXPECT_FALSE(index.erase(make_small(1)));
}

TEST(OrderedIndex, InsertRefusesAKeyThatIsThere) {
    OrderedIndex index;
    EXPECT_TRUE(index.insert(make_small(5), object_for(1)));
    EXPECT_FALSE(index.insert(make_small(5), object_for(2)));
    EXPECT_EQ(index.find(make_small(5)), object_for(1));
    EXPECT_EQ(index.size(), 1u);
}

TEST(OrderedIndex, AscendingAndDescendingRunsThenEraseAll) {
    for (bool ascending : {true, false}) {
        OrderedIndex index;
        std::map<SWord, SWord> model;
        for (SWord i = 0; i < 5000; ++i) {
            SWord k = ascending ? i : 5000 - i;
            ASSERT_TRUE(index.insert(make_small(k), object_for(k)));
            model[k] = k;
        }
        expect_same(index, model);
        for (SWord i = 0; i < 5000; i += 2) {
            SWord k = ascending ? i : 5000 - i;
            ASSERT_TRUE(index.erase(make_small(k)));
            model.erase(k);
        }
        expect_same(index, model);
        for (auto it = model.begin(); it != model.end();) {
            ASSERT_TRUE(index.erase(make_small(it->first)));
            it = model.erase(it);
        }
        expect_same(index, model);
        EXPECT_TRUE(index.empty());
    }
}

TEST(OrderedIndex, RandomOperationsMatchStdMap) {
    std::mt19937 rng(20261123);
    OrderedIndex index;
    std::map<SWord, SWord> model;
    for (int round = 0; round < 40; ++round) {
        // Grow (splits), shrink (borrows and merges), with replaces in between.
        int ops = 3000;
        int insert_share = round % 2 == 0 ? 70 : 30;
        for (int i = 0; i < ops; ++i) {
            SWord k = SWord(rng() % 20000) - 10000;
            int what = int(rng() % 100);
            if (what < insert_share) {
                bool added = index.insert(make_small(k), object_for(k));
                EXPECT_EQ(added, model.emplace(k, k).second);
            } else if (what < insert_share + 10) {
                if (model.count(k)) {
                    index.replace(make_small(k), make_small(k), object_for(k + 7));
                    model[k] = k + 7;
                }
            } else {
                EXPECT_EQ(index.erase(make_small(k)), model.erase(k) == 1);
            }
        }
        expect_same(index, model);
    }
    index.clear();
    EXPECT_TRUE(index.empty());
    EXPECT_FALSE(index.first().valid());
}

TEST(OrderedIndex, BoundsBetweenAndBeyondKeys) {
    OrderedIndex index;
    for (SWord k = 10; k <= 1000; k += 10) index.insert(make_small(k), object_for(k));
    EXPECT_EQ(small_value(index.key(index.lower_bound(make_small(15)))), 20);
    EXPECT_EQ(small_value(index.key(index.upper_bound(make_small(15)))), 20);
    EXPECT_EQ(small_value(index.key(index.lower_bound(make_small(-5)))), 10);
    EXPECT_FALSE(index.lower_bound(make_small(1001)).valid());
    EXPECT_FALSE(index.upper_bound(make_small(1000)).valid());
    EXPECT_FALSE(index.prev(index.first()).valid());
    EXPECT_FALSE(index.next(index.last()).valid());
}

}  // namespace
}  // namespace beamlet::ets
