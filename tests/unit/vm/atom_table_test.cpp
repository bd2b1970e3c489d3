// tests/unit/vm/atom_table_test.cpp — AtomTable: interning, the builtin atoms of vm/atoms.def,
// the 255-character limit and concurrent interning.
#include <gtest/gtest.h>

#include <atomic>
#include <iterator>
#include <latch>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "vm/atom_table.hpp"

namespace beamlet::vm {
namespace {

std::string repeat(const std::string& s, std::size_t times) {
    std::string out;
    for (std::size_t i = 0; i < times; ++i) out += s;
    return out;
}

struct BuiltinAtom {
    Term atom;
    AtomIndex index;
    const char* text;
};

constexpr BuiltinAtom BUILTIN_ATOMS[] = {
#define BEAMLET_ATOM(id, text) {atoms::id, AtomIndex::id, text},
#include "vm/atoms.def"
#undef BEAMLET_ATOM
};

TEST(AtomTable, InterningTheSameTextTwiceGivesTheSameAtom) {
    AtomTable table;
    Word before = table.count();
    std::optional<Term> first = table.intern("hello_world");
    ASSERT_TRUE(first.has_value());
    EXPECT_TRUE(is_atom(*first));
    EXPECT_EQ(table.intern("hello_world"), first);
    EXPECT_EQ(table.intern(std::string("hello_") + "world"), first);
    EXPECT_EQ(table.count(), before + 1);
    EXPECT_EQ(table.text(*first), "hello_world");
}

TEST(AtomTable, DifferentTextsGiveDifferentAtoms) {
    AtomTable table;
    std::optional<Term> a = table.intern("abc");
    std::optional<Term> b = table.intern("abd");
    std::optional<Term> upper = table.intern("ABC");
    ASSERT_TRUE(a && b && upper);
    EXPECT_NE(*a, *b);
    EXPECT_NE(*a, *upper);
    EXPECT_EQ(atom_index(*b), atom_index(*a) + 1);  // indices are handed out in order
}

TEST(AtomTable, FindReturnsOnlyExistingAtomsAndCreatesNone) {
    AtomTable table;
    Word before = table.count();
    EXPECT_EQ(table.find("not_yet_an_atom"), std::nullopt);
    EXPECT_EQ(table.count(), before);
    std::optional<Term> a = table.intern("not_yet_an_atom");
    EXPECT_EQ(table.find("not_yet_an_atom"), a);
    EXPECT_EQ(table.find("ok"), atoms::ok);
}

TEST(AtomTable, EmptyNameIsAnAtom) {
    AtomTable table;
    std::optional<Term> empty = table.intern("");
    ASSERT_TRUE(empty.has_value());
    EXPECT_EQ(table.text(*empty), "");
    EXPECT_EQ(table.intern(""), empty);
}

TEST(AtomTable, BuiltinAtomsHaveTheIndicesOfAtomsDef) {
    AtomTable fresh;
    EXPECT_EQ(fresh.count(), Word(AtomIndex::Count));
    for (AtomTable* table : {&fresh, &AtomTable::global()}) {
        for (const BuiltinAtom& b : BUILTIN_ATOMS) {
            SCOPED_TRACE(b.text);
            EXPECT_EQ(atom_index(b.atom), Word(b.index));
            EXPECT_EQ(table->intern(b.text), b.atom);
            EXPECT_EQ(table->text(b.atom), b.text);
        }
    }
    EXPECT_EQ(fresh.count(), Word(AtomIndex::Count));  // interning builtins added none
    EXPECT_EQ(std::size(BUILTIN_ATOMS), std::size_t(AtomIndex::Count));
    EXPECT_EQ(Word(AtomIndex::false_), 0u);
    EXPECT_EQ(Word(AtomIndex::true_), 1u);
}

TEST(AtomTable, GlobalShorthandsUseTheGlobalTable) {
    Term a = atom("atom_table_test_global");
    EXPECT_EQ(AtomTable::global().find("atom_table_test_global"), a);
    EXPECT_EQ(atom_text(a), "atom_table_test_global");
    EXPECT_EQ(atom("ok"), atoms::ok);
}

TEST(AtomTable, NameOf255CharactersIsAcceptedAnd256Rejected) {
    AtomTable table;
    std::string longest(AtomTable::MAX_ATOM_CHARS, 'a');
    ASSERT_EQ(longest.size(), 255u);
    std::optional<Term> a = table.intern(longest);
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(table.text(*a), longest);

    Word before = table.count();
    std::string too_long(256, 'b');
    EXPECT_EQ(table.intern(too_long), std::nullopt);
    EXPECT_EQ(table.find(too_long), std::nullopt);
    EXPECT_EQ(table.count(), before);
}

TEST(AtomTable, LengthLimitCountsUtf8CharactersNotBytes) {
    AtomTable table;
    // Two-, three- and four-byte characters: 255 of them fit although they take 510..1020 bytes.
    for (const std::string ch : {"\u00e9", "\u20ac", "\U0001F600"}) {
        SCOPED_TRACE(ch);
        std::string fits = repeat(ch, 255);
        std::optional<Term> a = table.intern(fits);
        ASSERT_TRUE(a.has_value());
        EXPECT_EQ(table.text(*a), fits);
        EXPECT_EQ(table.intern(repeat(ch, 256)), std::nullopt);
    }
    std::string mixed = repeat("a\u00e9", 127) + "\U0001F600";  // 255 characters
    EXPECT_TRUE(table.intern(mixed).has_value());
    EXPECT_EQ(table.intern(mixed + "z"), std::nullopt);
}

TEST(AtomTable, ConcurrentInterningOfTheSameNamesGivesIdenticalAtoms) {
    constexpr int THREADS = 4;
    constexpr int NAMES = 3000;
    auto table = std::make_unique<AtomTable>();
    Word before = table->count();
    std::vector<std::string> names;
    for (int i = 0; i < NAMES; ++i) names.push_back("concurrent_atom_" + std::to_string(i));
    std::vector<std::vector<Term>> results(THREADS, std::vector<Term>(NAMES, THE_NON_VALUE));
    std::vector<int> text_mismatches(THREADS, 0);
    std::latch start(THREADS);
    std::vector<std::thread> threads;
    for (int t = 0; t < THREADS; ++t) {
        threads.emplace_back([&, t] {
            start.arrive_and_wait();
            // Each thread visits the names in its own order, so first interns race.
            for (int k = 0; k < NAMES; ++k) {
                int i = (t % 2 == 0) ? (k * (2 * t + 1)) % NAMES : NAMES - 1 - (k * t) % NAMES;
                if (results[t][i] != THE_NON_VALUE) continue;
                results[t][i] = table->intern(names[i]).value_or(THE_NON_VALUE);
                // Reading the text takes no lock while other threads keep adding atoms.
                if (table->text(results[t][i]) != names[i]) ++text_mismatches[t];
            }
            for (int i = 0; i < NAMES; ++i)
                if (results[t][i] == THE_NON_VALUE) results[t][i] = table->intern(names[i]).value_or(THE_NON_VALUE);
        });
    }
    for (std::thread& th : threads) th.join();

    for (int t = 0; t < THREADS; ++t) {
        EXPECT_EQ(text_mismatches[t], 0);
        EXPECT_EQ(results[t], results[0]) << "thread " << t;
    }
    EXPECT_EQ(table->count(), before + NAMES);
    for (int i = 0; i < NAMES; ++i) {
        ASSERT_TRUE(is_atom(results[0][i]));
        EXPECT_EQ(table->text(results[0][i]), names[i]);
    }
}

TEST(AtomTable, LookupsWithoutALockFindEveryAtomWhileTheIndexGrows) {
    // Enough atoms to grow the name index (it starts at 32768 slots, half of them usable)
    // twice while readers look up names that already exist, without taking the mutex.
    constexpr int NAMES = 70000;
    constexpr int READERS = 2;
    auto table = std::make_unique<AtomTable>();
    std::vector<std::string> names;
    for (int i = 0; i < NAMES; ++i) names.push_back("growing_atom_" + std::to_string(i));
    std::vector<Term> atoms(NAMES, THE_NON_VALUE);
    std::atomic<int> published{0};
    std::vector<int> misses(READERS, 0), wrong(READERS, 0);
    std::vector<std::thread> readers;
    for (int r = 0; r < READERS; ++r) {
        readers.emplace_back([&, r] {
            for (int done = 0; done < NAMES;) {
                done = published.load(std::memory_order_acquire);
                for (int i = done - 1; i >= 0 && i >= done - 64; --i) {
                    std::optional<Term> found = table->find(names[i]);
                    if (!found) ++misses[r];
                    else if (*found != atoms[i]) ++wrong[r];
                }
            }
        });
    }
    for (int i = 0; i < NAMES; ++i) {
        atoms[i] = table->intern(names[i]).value_or(THE_NON_VALUE);
        published.store(i + 1, std::memory_order_release);
    }
    for (std::thread& th : readers) th.join();
    for (int r = 0; r < READERS; ++r) {
        EXPECT_EQ(misses[r], 0) << "reader " << r;
        EXPECT_EQ(wrong[r], 0) << "reader " << r;
    }
    for (int i = 0; i < NAMES; ++i) ASSERT_EQ(table->intern(names[i]), atoms[i]) << names[i];
    EXPECT_EQ(table->find("growing_atom_" + std::to_string(NAMES)), std::nullopt);
}

}  // namespace
}  // namespace beamlet::vm
