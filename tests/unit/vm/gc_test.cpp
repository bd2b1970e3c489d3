// tests/unit/vm/gc_test.cpp — the generational copying GC: structures survive intact, promotion,
// major collections, off-heap binaries, stack words, heap fragments and heap resizing.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "vm/arith.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/copy.hpp"
#include "vm/heap.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"
#include "vm/process.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {
namespace {

// A deep copy of a term in its own heap fragment, outside any process, to compare against.
class Snapshot {
public:
    explicit Snapshot(Term t) : m_fragment(HeapFragment::create(term_size_words(t) + 1)) {
        Term* hp = m_fragment->data;
        m_term = copy_term(t, &hp, &m_fragment->off_heap_first);
        m_fragment->used_words = Word(hp - m_fragment->data);
    }
    ~Snapshot() {
        for (Term* bin = m_fragment->off_heap_first; bin;) {
            Term* next = reinterpret_cast<Term*>(bin[4]);
            reinterpret_cast<BinaryBuf*>(bin[2])->release();
            bin = next;
        }
        HeapFragment::destroy(m_fragment);
    }
    Snapshot(const Snapshot&) = delete;
    Snapshot& operator=(const Snapshot&) = delete;

    Term term() const { return m_term; }

private:
    HeapFragment* m_fragment;
    Term m_term = NIL;
};

// Calls [fn(object)] for every cons cell and boxed object reachable from [t] (no recursion).
template <typename Fn>
void for_each_object(Term t, Fn fn) {
    std::vector<Term> pending{t};
    while (!pending.empty()) {
        Term u = pending.back();
        pending.pop_back();
        if (is_list(u)) {
            fn(static_cast<const Term*>(list_ptr(u)));
            pending.push_back(car(u));
            pending.push_back(cdr(u));
            continue;
        }
        if (!is_boxed(u)) continue;
        const Term* obj = boxed_ptr(u);
        fn(obj);
        Word arity = header_arity(obj[0]);
        switch (header_subtag(obj[0])) {
        case Subtag::Tuple:
            for (Word i = 1; i <= arity; ++i) pending.push_back(obj[i]);
            break;
        case Subtag::Map:
            pending.push_back(obj[2]);
            for (Word i = 3; i <= arity; ++i) pending.push_back(obj[i]);
            break;
        case Subtag::Fun:
            for (Word i = 3; i <= arity; ++i) pending.push_back(obj[i]);
            break;
        case Subtag::SubBin:
            pending.push_back(obj[4]);
            break;
        default:
            break;
        }
    }
}

bool is_within(const Term* ptr, const Term* lo, const Term* hi) { return ptr >= lo && ptr < hi; }

BinaryBuf* refc_buffer(Term refc_bin) { return reinterpret_cast<BinaryBuf*>(boxed_ptr(refc_bin)[2]); }

std::vector<std::uint8_t> byte_pattern(std::size_t size_bytes, Word seed) {
    std::vector<std::uint8_t> bytes(size_bytes);
    for (std::size_t i = 0; i < size_bytes; ++i) bytes[i] = std::uint8_t(seed * 31 + i * 7 + 1);
    return bytes;
}

class Gc : public ::testing::Test {
protected:
    static constexpr Word LIVE = 4;

    Vm m_vm;
    Process m_process{m_vm, 1};
    Process* p = &m_process;
    std::array<Term, LIVE> x{NIL, NIL, NIL, NIL};
    FunEntry m_fun_entry{.module_name = atom("gc_test"),
                         .function = atom("-main/0-fun-0-"),
                         .arity = 3,
                         .num_free = 2,
                         .index = 0,
                         .old_uniq = 1};

    Term tuple(std::initializer_list<Term> elements) {
        Term* hp = p->alloc(1 + elements.size());
        hp[0] = make_arityval(elements.size());
        Word i = 1;
        for (Term e : elements) hp[i++] = e;
        return make_boxed(hp);
    }
    Term list(std::initializer_list<Term> elements, Term tail = NIL) {
        std::vector<Term> v(elements);
        for (auto it = v.rbegin(); it != v.rend(); ++it) tail = make_cons_on(p->alloc(2), *it, tail);
        return tail;
    }
    Term binary(std::size_t size_bytes, Word seed) {
        std::vector<std::uint8_t> bytes = byte_pattern(size_bytes, seed);
        return make_binary(p, bytes.data(), bytes.size());
    }
    Term local_fun(Term free0, Term free1) {
        Term* hp = p->alloc(5);
        hp[0] = make_header(4, Subtag::Fun);
        hp[1] = reinterpret_cast<Word>(&m_fun_entry);
        hp[2] = p->id;
        hp[3] = free0;
        hp[4] = free1;
        return make_boxed(hp);
    }
    Term export_fun() {
        Term* hp = p->alloc(2);
        hp[0] = make_header(1, Subtag::Export);
        hp[1] = reinterpret_cast<Word>(m_vm.exports.get(atoms::lists, atom("reverse"), 1));
        return make_boxed(hp);
    }
    Term reference(Word id) {
        Term* hp = p->alloc(REF_WORDS);
        hp[0] = make_header(REF_WORDS - 1, Subtag::Ref);
        hp[1] = id;
        hp[2] = id * 3;
        hp[3] = id * 7;
        return make_boxed(hp);
    }

    // One record of every kind of heap object: floats, bignums, heap/refc/sub binaries (one
    // unaligned), a map, a closure, an export fun, a reference and a shared nested list.
    Term record(Word i) {
        Term heap_bin = binary(1 + i % HEAP_BIN_LIMIT_BYTES, i);
        Term refc_bin = binary(HEAP_BIN_LIMIT_BYTES + 1 + i % 100, i + 1);
        Term unaligned_sub = make_sub_binary(p, refc_bin, 3 + i % 5, 8 * 20 + i % 8);
        Term heap_sub = make_sub_binary(p, heap_bin, 0, 8 * ((1 + i % HEAP_BIN_LIMIT_BYTES) / 2));
        Term flt = make_float_checked(p, double(i) + 0.25);
        Term big = *parse_integer(p, "-98765432109876543210987654321" + std::to_string(i));
        Term nested = list({make_small(SWord(i)), tuple({atoms::ok, flt}), list({big})});
        Term map = map_from_pairs(p, {{atoms::ok, make_small(SWord(i))},
                                      {heap_bin, flt},
                                      {make_small(-1), nested},
                                      {big, unaligned_sub}});
        return tuple({make_small(SWord(i)), flt, big, heap_bin, refc_bin, unaligned_sub, heap_sub, map,
                      local_fun(flt, map), export_fun(), reference(i + 1), make_pid(7), empty_map(),
                      nested, nested});
    }
    Term structure(Word records) {
        Term l = NIL;
        for (Word i = 0; i < records; ++i) l = make_cons_on(p->alloc(2), record(i), l);
        return l;
    }

    // Allocates a garbage tuple of [words] words as compiled code does (ENSURE_HEAP): a GC
    // first when the heap lacks room. Returns true if a collection ran.
    bool allocate_garbage(Word words) {
        bool collected = false;
        if (Word(p->stop - p->htop) < words || p->mbuf_words > p->heap_size_words) {
            garbage_collect(p, x.data(), LIVE, words);
            expect_heap_invariants(words);
            collected = true;
        }
        Term* hp = p->htop;
        p->htop += words;
        hp[0] = make_arityval(words - 1);
        for (Word i = 1; i < words; ++i) hp[i] = make_small(SWord(i));
        return collected;
    }

    // Fills the free space between htop and stop with one garbage tuple.
    void fill_heap() {
        Word free_words = Word(p->stop - p->htop);
        if (free_words == 0) return;
        p->htop[0] = make_arityval(free_words - 1);
        for (Word i = 1; i < free_words; ++i) p->htop[i] = NIL;
        p->htop = p->stop;
    }

    bool in_young_heap(const Term* ptr) const { return is_within(ptr, p->heap, p->htop); }
    bool in_old_heap(const Term* ptr) const { return is_within(ptr, p->old_heap, p->old_htop); }
    // The empty map and its keys tuple live outside every heap.
    static bool is_static_literal(const Term* ptr) {
        return ptr == boxed_ptr(empty_map()) || ptr == boxed_ptr(map_keys(empty_map()));
    }

    Word off_heap_count() const {
        Word n = 0;
        for (Term* bin = p->off_heap_first; bin; bin = reinterpret_cast<Term*>(bin[4])) ++n;
        return n;
    }

    // What must hold after every collection that was asked for [need_words].
    void expect_heap_invariants(Word need_words = 0) const {
        EXPECT_LE(p->heap, p->htop);
        EXPECT_LE(p->htop, p->stop);
        EXPECT_LE(p->stop, p->hend);
        EXPECT_EQ(Word(p->hend - p->heap), p->heap_size_words);
        EXPECT_EQ(p->high_water, p->htop);
        EXPECT_EQ(p->mbuf, nullptr);
        EXPECT_EQ(p->mbuf_words, 0u);
        if (p->old_heap) {
            EXPECT_LE(p->old_heap, p->old_htop);
            EXPECT_LE(p->old_htop, p->old_hend);
        } else {
            EXPECT_EQ(p->old_htop, nullptr);
        }
        for (Term* bin = p->off_heap_first; bin; bin = reinterpret_cast<Term*>(bin[4])) {
            EXPECT_TRUE(in_young_heap(bin) || in_old_heap(bin));
            EXPECT_EQ(header_subtag(bin[0]), Subtag::RefcBin);
        }
        // The block is never more than 3/4 full nor oversized for what it holds.
        Word in_use = Word(p->htop - p->heap) + p->stack_used_words() + need_words;
        EXPECT_GE(Word(p->stop - p->htop), need_words);
        EXPECT_LE(4 * in_use, 3 * p->heap_size_words);
        EXPECT_LE(p->heap_size_words, std::max(8 * in_use, 8 * MIN_HEAP_SIZE_WORDS) + 1);
    }
};

TEST_F(Gc, RepeatedMinorAndMajorCollectionsKeepAMixedStructureIntact) {
    x[0] = structure(150);
    x[1] = NIL;  // grows between collections: young cells pointing at old data
    x[2] = make_small(42);
    x[3] = atoms::ok;
    Snapshot base(x[0]);
    std::vector<std::unique_ptr<Snapshot>> added;
    bool saw_old_heap = false;

    Word garbage_words = 3;
    Word start = p->gc_count;
    while (p->gc_count - start < 40) {
        garbage_words = garbage_words * 7 % 251 + 2;
        if (!allocate_garbage(garbage_words)) continue;
        saw_old_heap = saw_old_heap || p->old_heap != nullptr;
        if (p->gc_count % 8 == 0) {
            garbage_collect(p, x.data(), LIVE, 0, /*major=*/true);
            expect_heap_invariants();
        } else if (p->gc_count % 5 == 0) {
            garbage_collect(p, x.data(), LIVE, 0, /*major=*/false);
            expect_heap_invariants();
        }
        ASSERT_TRUE(terms_exact_equal(x[0], base.term())) << "after GC " << p->gc_count;
        Term l = x[1];
        for (auto it = added.rbegin(); it != added.rend(); ++it, l = cdr(l))
            ASSERT_TRUE(terms_exact_equal(car(l), (*it)->term())) << "after GC " << p->gc_count;
        EXPECT_EQ(l, NIL);
        EXPECT_EQ(x[2], make_small(42));
        EXPECT_EQ(x[3], atoms::ok);

        Term r = record(1000 + p->gc_count);
        added.push_back(std::make_unique<Snapshot>(r));
        x[1] = make_cons_on(p->alloc(2), r, x[1]);
    }
    EXPECT_TRUE(saw_old_heap);
}

TEST_F(Gc, SurvivorsOfTwoMinorCollectionsArePromotedToTheOldHeap) {
    x[0] = structure(20);
    Snapshot expected(x[0]);

    garbage_collect(p, x.data(), 1, 0);
    EXPECT_EQ(p->old_heap, nullptr);
    for_each_object(x[0], [&](const Term* obj) { EXPECT_TRUE(in_young_heap(obj) || is_static_literal(obj)); });

    garbage_collect(p, x.data(), 1, 0);
    ASSERT_NE(p->old_heap, nullptr);
    EXPECT_EQ(p->minor_gcs, 2u);
    for_each_object(x[0], [&](const Term* obj) { EXPECT_TRUE(in_old_heap(obj) || is_static_literal(obj)); });
    EXPECT_EQ(p->htop, p->heap);  // nothing young survived
    EXPECT_EQ(off_heap_count(), 20u);
    expect_heap_invariants();
    EXPECT_TRUE(terms_exact_equal(x[0], expected.term()));
}

TEST_F(Gc, MajorCollectionEmptiesTheOldHeapAndKeepsEverythingLive) {
    x[0] = structure(20);
    Snapshot expected(x[0]);
    garbage_collect(p, x.data(), 1, 0);
    garbage_collect(p, x.data(), 1, 0);
    ASSERT_NE(p->old_heap, nullptr);
    x[1] = record(99);  // young data pointing at nothing old, next to old data
    Snapshot expected_young(x[1]);

    garbage_collect(p, x.data(), 2, 0, /*major=*/true);
    EXPECT_EQ(p->old_heap, nullptr);
    EXPECT_EQ(p->old_hend, nullptr);
    EXPECT_EQ(p->minor_gcs, 0u);
    for (Word i = 0; i < 2; ++i)
        for_each_object(x[i], [&](const Term* obj) { EXPECT_TRUE(in_young_heap(obj) || is_static_literal(obj)); });
    EXPECT_EQ(off_heap_count(), 21u);
    expect_heap_invariants();
    EXPECT_TRUE(terms_exact_equal(x[0], expected.term()));
    EXPECT_TRUE(terms_exact_equal(x[1], expected_young.term()));
}

TEST_F(Gc, MinorCollectionTurnsMajorWhenTheOldHeapCannotTakeThePromotedData) {
    x[0] = structure(1);
    garbage_collect(p, x.data(), 1, 0);
    garbage_collect(p, x.data(), 1, 0);
    ASSERT_NE(p->old_heap, nullptr);
    Word old_capacity = Word(p->old_hend - p->old_heap);
    x[1] = structure(200);  // far more than the old heap holds
    ASSERT_GT(term_size_words(x[1]), old_capacity);
    Snapshot small(x[0]), large(x[1]);
    garbage_collect(p, x.data(), 2, 0);  // x[1] becomes old enough to promote

    garbage_collect(p, x.data(), 2, 0);
    EXPECT_EQ(p->old_heap, nullptr);
    EXPECT_EQ(p->minor_gcs, 0u);
    expect_heap_invariants();
    EXPECT_TRUE(terms_exact_equal(x[0], small.term()));
    EXPECT_TRUE(terms_exact_equal(x[1], large.term()));
}

TEST_F(Gc, FullsweepAfterZeroMakesEveryCollectionMajor) {
    p->fullsweep_after = 0;
    x[0] = structure(10);
    Snapshot expected(x[0]);
    for (int i = 0; i < 5; ++i) {
        Word before = p->gc_count;
        garbage_collect(p, x.data(), 1, 0, /*major=*/false);
        EXPECT_EQ(p->gc_count, before + 1);
        EXPECT_EQ(p->old_heap, nullptr);
        EXPECT_EQ(p->minor_gcs, 0u);
        expect_heap_invariants();
        EXPECT_TRUE(terms_exact_equal(x[0], expected.term()));
    }
    Word start = p->gc_count;
    for (Word words = 3; p->gc_count - start < 5; words = words * 7 % 97 + 2) {
        allocate_garbage(words);
        EXPECT_EQ(p->old_heap, nullptr);
    }
    EXPECT_TRUE(terms_exact_equal(x[0], expected.term()));
}

TEST_F(Gc, FullsweepAfterNRunsNMinorCollectionsBeforeAMajorOne) {
    p->fullsweep_after = 3;
    x[0] = structure(5);
    Snapshot expected(x[0]);
    for (Word i = 1; i <= 3; ++i) {
        garbage_collect(p, x.data(), 1, 0);
        EXPECT_EQ(p->minor_gcs, i);
    }
    EXPECT_NE(p->old_heap, nullptr);
    garbage_collect(p, x.data(), 1, 0);
    EXPECT_EQ(p->minor_gcs, 0u);
    EXPECT_EQ(p->old_heap, nullptr);
    EXPECT_TRUE(terms_exact_equal(x[0], expected.term()));
}

TEST_F(Gc, DeadRefcBinaryDropsItsBufferReference) {
    Term young = binary(200, 1);
    BinaryBuf* buf = refc_buffer(young);
    buf->add_ref();  // ours, to observe the count
    ASSERT_EQ(buf->refc.load(), 2);
    x[0] = NIL;

    garbage_collect(p, x.data(), 1, 0);
    EXPECT_EQ(buf->refc.load(), 1);
    EXPECT_EQ(p->off_heap_first, nullptr);
    buf->release();
}

TEST_F(Gc, RefcBinaryInAHeapFragmentDropsItsReferenceWhenDead) {
    fill_heap();
    Term in_fragment = binary(300, 2);
    ASSERT_NE(p->mbuf, nullptr);
    ASSERT_TRUE(p->mbuf->contains(boxed_ptr(in_fragment)));
    BinaryBuf* buf = refc_buffer(in_fragment);
    buf->add_ref();

    garbage_collect(p, x.data(), 0, 0);
    EXPECT_EQ(buf->refc.load(), 1);
    EXPECT_EQ(p->off_heap_first, nullptr);
    buf->release();
}

TEST_F(Gc, LiveRefcBinaryKeepsItsBufferInTheYoungAndTheOldHeap) {
    std::vector<std::uint8_t> bytes = byte_pattern(500, 9);
    Term bin = make_binary(p, bytes.data(), bytes.size());
    BinaryBuf* buf = refc_buffer(bin);
    buf->add_ref();
    x[0] = tuple({bin, make_sub_binary(p, bin, 12, 8 * 100)});
    auto expect_referenced = [&] {
        EXPECT_EQ(buf->refc.load(), 2);
        EXPECT_EQ(off_heap_count(), 1u);
        Term live_bin = tuple_element(x[0], 0);
        EXPECT_EQ(refc_buffer(live_bin), buf);
        BitView v = bit_view(live_bin);
        ASSERT_EQ(v.size_bytes(), bytes.size());
        EXPECT_EQ(std::vector<std::uint8_t>(v.aligned_bytes(), v.aligned_bytes() + v.size_bytes()), bytes);
        BitView sub = bit_view(tuple_element(x[0], 1));
        EXPECT_EQ(sub.bytes, buf->bytes);
        EXPECT_EQ(sub.bit_offset, 12u);
    };

    garbage_collect(p, x.data(), 1, 0);
    EXPECT_TRUE(in_young_heap(boxed_ptr(tuple_element(x[0], 0))));
    expect_referenced();
    garbage_collect(p, x.data(), 1, 0);
    EXPECT_TRUE(in_old_heap(boxed_ptr(tuple_element(x[0], 0))));
    expect_referenced();
    for (Word start = p->gc_count, words = 5; p->gc_count - start < 6; words = words * 5 % 89 + 2)
        allocate_garbage(words);
    EXPECT_NE(p->old_heap, nullptr);
    EXPECT_TRUE(in_old_heap(boxed_ptr(tuple_element(x[0], 0))));
    expect_referenced();

    // Unreferenced but in the old heap: a minor collection does not look there.
    x[0] = NIL;
    garbage_collect(p, x.data(), 1, 0);
    EXPECT_EQ(buf->refc.load(), 2);
    garbage_collect(p, x.data(), 1, 0, /*major=*/true);
    EXPECT_EQ(buf->refc.load(), 1);
    EXPECT_EQ(p->off_heap_first, nullptr);
    buf->release();
}

TEST_F(Gc, RefcBinariesOfAnAdoptedMessageFragmentFollowTheirLiveness) {
    Term live_src = binary(100, 3);
    Term dead_src = binary(120, 4);
    BinaryBuf* live_buf = refc_buffer(live_src);
    BinaryBuf* dead_buf = refc_buffer(dead_src);
    live_buf->add_ref();  // ours, to observe the counts; the sources die in the GC below
    dead_buf->add_ref();
    Term message = tuple({live_src, dead_src});
    HeapFragment* frag = HeapFragment::create(term_size_words(message));
    Term* hp = frag->data;
    Message m{copy_term(message, &hp, &frag->off_heap_first), frag};
    frag->used_words = Word(hp - frag->data);
    p->adopt_fragment(m);
    x[0] = tuple_element(m.term, 0);  // the receiver keeps one of the two binaries
    ASSERT_EQ(live_buf->refc.load(), 3);  // source, message copy, ours
    ASSERT_EQ(dead_buf->refc.load(), 3);
    EXPECT_EQ(off_heap_count(), 4u);

    garbage_collect(p, x.data(), 1, 0);
    EXPECT_EQ(live_buf->refc.load(), 2);
    EXPECT_EQ(dead_buf->refc.load(), 1);
    EXPECT_EQ(refc_buffer(x[0]), live_buf);
    EXPECT_TRUE(in_young_heap(boxed_ptr(x[0])));
    EXPECT_EQ(off_heap_count(), 1u);
    expect_heap_invariants();
    live_buf->release();
    dead_buf->release();
}

TEST_F(Gc, StackCodePointersAndCatchTagsAreLeftUntouched) {
    alignas(8) static const Word fake_code[4] = {};
    const Word cp = reinterpret_cast<Word>(&fake_code[1]);
    const Term catch_tag = make_catch(&fake_code[3]);
    ASSERT_EQ(cp & TAG_PRIMARY_MASK, TAG_PRIMARY_HEADER);
    p->stop -= 4;
    p->stop[0] = cp;
    p->stop[1] = catch_tag;
    p->stop[2] = record(5);
    p->stop[3] = make_small(-7);
    Snapshot expected(p->stop[2]);
    auto expect_frame = [&] {
        ASSERT_EQ(p->stack_used_words(), 4u);
        EXPECT_EQ(p->stop[0], cp);
        EXPECT_EQ(p->stop[1], catch_tag);
        EXPECT_EQ(catch_handler(p->stop[1]), &fake_code[3]);
        EXPECT_TRUE(terms_exact_equal(p->stop[2], expected.term()));
        EXPECT_EQ(p->stop[3], make_small(-7));
    };

    garbage_collect(p, x.data(), 0, 0);
    expect_frame();
    garbage_collect(p, x.data(), 0, 0);  // promotes the frame's term
    ASSERT_NE(p->old_heap, nullptr);
    EXPECT_TRUE(in_old_heap(boxed_ptr(p->stop[2])));
    expect_frame();
    garbage_collect(p, x.data(), 0, 50'000);  // grows the block: the stack moves
    EXPECT_GE(Word(p->stop - p->htop), 50'000u);
    expect_frame();
    garbage_collect(p, x.data(), 0, 0, /*major=*/true);  // shrinks it again
    expect_frame();
    expect_heap_invariants();
}

TEST_F(Gc, HeapFragmentsAreMergedIntoTheHeap) {
    fill_heap();
    x[0] = record(3);  // every object lands in fragments
    ASSERT_NE(p->mbuf, nullptr);
    EXPECT_GT(p->mbuf_words, 0u);
    for_each_object(x[0], [&](const Term* obj) { EXPECT_FALSE(is_within(obj, p->heap, p->hend)); });
    BinaryBuf* buf = refc_buffer(tuple_element(x[0], 4));
    Snapshot expected(x[0]);
    const std::int64_t refc_before = buf->refc.load();

    garbage_collect(p, x.data(), 1, 0);
    EXPECT_EQ(p->mbuf, nullptr);
    EXPECT_EQ(p->mbuf_words, 0u);
    for_each_object(x[0], [&](const Term* obj) { EXPECT_TRUE(in_young_heap(obj) || is_static_literal(obj)); });
    EXPECT_EQ(buf->refc.load(), refc_before);
    EXPECT_EQ(off_heap_count(), 1u);
    expect_heap_invariants();
    EXPECT_TRUE(terms_exact_equal(x[0], expected.term()));
}

TEST_F(Gc, HeapGrowsForLiveDataAndShrinksOnceItIsGarbage) {
    Word initial_size = p->heap_size_words;
    x[0] = NIL;
    for (SWord i = 0; i < 20'000; ++i) {
        if (Word(p->stop - p->htop) < 5) garbage_collect(p, x.data(), 1, 5);
        Term* hp = p->alloc(5);
        hp[0] = make_arityval(2);
        hp[1] = make_small(i);
        hp[2] = NIL;
        x[0] = make_cons_on(hp + 3, make_boxed(hp), x[0]);
    }
    garbage_collect(p, x.data(), 1, 0, /*major=*/true);
    Word live_words = Word(p->htop - p->heap);
    EXPECT_EQ(live_words, 20'000u * 5);
    EXPECT_GT(p->heap_size_words, initial_size);
    expect_heap_invariants();
    Word grown_size = p->heap_size_words;

    x[0] = tuple({make_small(1), make_small(2)});
    garbage_collect(p, x.data(), 1, 0);
    EXPECT_LT(p->heap_size_words, grown_size / 8);
    EXPECT_GE(p->heap_size_words, MIN_HEAP_SIZE_WORDS);
    EXPECT_EQ(Word(p->htop - p->heap), 3u);
    expect_heap_invariants();
    EXPECT_EQ(tuple_element(x[0], 1), make_small(2));
}

TEST_F(Gc, CollectionLeavesRoomForTheWordsAskedFor) {
    x[0] = structure(5);
    for (Word need : {Word(0), Word(10), Word(1'000), Word(100'000), Word(7)}) {
        garbage_collect(p, x.data(), 1, need);
        EXPECT_GE(Word(p->stop - p->htop), need);
        EXPECT_LE(4 * (Word(p->htop - p->heap) + need), 3 * p->heap_size_words);
    }
}

TEST_F(Gc, ProcessDictionaryKeysAndValuesAreRoots) {
    Term key = tuple({atoms::ok, binary(10, 5)});
    Term value = record(8);
    p->dictionary.emplace_back(key, value);
    Snapshot expected_key(key), expected_value(value);
    fill_heap();

    garbage_collect(p, x.data(), 0, 0);
    garbage_collect(p, x.data(), 0, 0);
    garbage_collect(p, x.data(), 0, 0, /*major=*/true);
    ASSERT_EQ(p->dictionary.size(), 1u);
    EXPECT_TRUE(terms_exact_equal(p->dictionary[0].first, expected_key.term()));
    EXPECT_TRUE(terms_exact_equal(p->dictionary[0].second, expected_value.term()));
}

}  // namespace
}  // namespace beamlet::vm
