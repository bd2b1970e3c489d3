// tests/unit/vm/copy_test.cpp — term_size_words and copy_term: sizes agree for every shape, long
// lists copy without recursion, and copied RefcBins are linked and referenced.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "vm/arith.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/copy.hpp"
#include "vm/heap.hpp"
#include "vm/literal_area.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"
#include "vm/process.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {
namespace {

constexpr Term GUARD_WORD = make_small(-123456789);

BinaryBuf* refc_buffer(Term refc_bin) { return reinterpret_cast<BinaryBuf*>(boxed_ptr(refc_bin)[2]); }

// Releases the buffer references of the RefcBins chained from [first].
void release_off_heap(Term* first) {
    for (Term* bin = first; bin;) {
        Term* next = reinterpret_cast<Term*>(bin[4]);
        reinterpret_cast<BinaryBuf*>(bin[2])->release();
        bin = next;
    }
}

// Every cons cell and boxed object reachable from [t] (iterative).
std::vector<const Term*> objects_of(Term t) {
    std::vector<const Term*> out;
    std::vector<Term> pending{t};
    while (!pending.empty()) {
        Term u = pending.back();
        pending.pop_back();
        if (is_list(u)) {
            out.push_back(list_ptr(u));
            pending.push_back(car(u));
            pending.push_back(cdr(u));
        } else if (is_boxed(u)) {
            const Term* obj = boxed_ptr(u);
            out.push_back(obj);
            Word arity = header_arity(obj[0]);
            switch (header_subtag(obj[0])) {
            case Subtag::Tuple:
                for (Word i = 1; i <= arity; ++i) pending.push_back(obj[i]);
                break;
            case Subtag::Map:
                for (Word i = 2; i <= arity; ++i) pending.push_back(obj[i]);
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
    return out;
}

class Copy : public ::testing::Test {
protected:
    Vm m_vm;
    Process m_process{m_vm, 1};
    Process* p = &m_process;
    FunEntry m_fun_entry{.module_name = atom("copy_test"), .function = atom("-f/0-fun-0-"), .arity = 2, .num_free = 2};

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
    Term binary(std::size_t size_bytes) {
        std::vector<std::uint8_t> bytes(size_bytes);
        for (std::size_t i = 0; i < size_bytes; ++i) bytes[i] = std::uint8_t(i * 13 + 5);
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
        hp[1] = reinterpret_cast<Word>(m_vm.exports.get(atoms::erlang, atom("self"), 0));
        return make_boxed(hp);
    }
    Term reference() {
        Term* hp = p->alloc(REF_WORDS);
        hp[0] = make_header(REF_WORDS - 1, Subtag::Ref);
        hp[1] = 1;
        hp[2] = 2;
        hp[3] = 3;
        return make_boxed(hp);
    }

    // Copies [t] into a buffer of exactly term_size_words(t) words followed by guard words and
    // checks that the copy fills it exactly, equals [t] and lies entirely inside the buffer.
    void expect_copy_fills_its_size_exactly(Term t, const std::string& shape) {
        SCOPED_TRACE(shape);
        Word size = term_size_words(t);
        std::vector<Term> buffer(size + 4, GUARD_WORD);
        Term* hp = buffer.data();
        Term* off_heap = nullptr;
        Term copy = copy_term(t, &hp, &off_heap);
        EXPECT_EQ(Word(hp - buffer.data()), size);
        for (Word i = size; i < buffer.size(); ++i) EXPECT_EQ(buffer[i], GUARD_WORD);
        EXPECT_TRUE(terms_exact_equal(copy, t));
        if (size == 0) {
            EXPECT_EQ(copy, t);  // immediates are returned as they are
        }
        for (const Term* obj : objects_of(copy))
            EXPECT_TRUE(obj >= buffer.data() && obj < buffer.data() + size) << "object outside the copy";
        release_off_heap(off_heap);
    }
};

TEST_F(Copy, TermSizeWordsEqualsTheWordsCopyTermWritesForEveryShape) {
    Term big = *parse_integer(p, "123456789012345678901234567890123456789012345678901234567890");
    Term flt = make_float_checked(p, -2.5);
    Term heap_bin = binary(20);
    Term refc_bin = binary(300);
    Term shared = tuple({flt, list({make_small(1)})});
    Term map = map_from_pairs(p, {{atoms::ok, flt}, {heap_bin, big}, {make_small(3), list({refc_bin})}});
    const std::vector<std::pair<std::string, Term>> shapes = {
        {"small", make_small(-5)},
        {"atom", atoms::ok},
        {"nil", NIL},
        {"pid", make_pid(42)},
        {"proper list", list({make_small(1), make_small(2), make_small(3)})},
        {"improper list", list({make_small(1)}, make_small(2))},
        {"nested lists", list({list({list({NIL})}), list({atoms::ok}, atoms::error)})},
        {"empty tuple", tuple({})},
        {"nested tuple", tuple({make_small(1), tuple({make_small(2), tuple({})})})},
        {"float", flt},
        {"bignum", big},
        {"negative bignum", *parse_integer(p, "-98765432109876543210")},
        {"empty heap binary", binary(0)},
        {"heap binary", heap_bin},
        {"64-byte heap binary", binary(64)},
        {"refc binary", refc_bin},
        {"sub-binary of a heap binary", make_sub_binary(p, heap_bin, 3, 8 * 10 + 2)},
        {"sub-binary of a refc binary", make_sub_binary(p, refc_bin, 16, 8 * 100)},
        {"sub-binary of a sub-binary", make_sub_binary(p, make_sub_binary(p, refc_bin, 8, 800), 5, 9)},
        {"empty map literal", empty_map()},
        {"map", map},
        {"closure", local_fun(flt, map)},
        {"export fun", export_fun()},
        {"reference", reference()},
        {"shared subterm copied twice", tuple({shared, shared, list({shared}, shared)})},
        {"everything", list({big, flt, heap_bin, refc_bin, map, local_fun(NIL, shared), export_fun(),
                             reference(), make_sub_binary(p, refc_bin, 1, 7), empty_map()})},
    };
    for (const auto& [shape, term] : shapes) expect_copy_fills_its_size_exactly(term, shape);
}

TEST_F(Copy, SharedLiteralsStayWhereTheyAreAndCopiedOnesMove) {
    // A literal (in the literal arena) inside a heap term: {Lit, [Lit | Tail]} with a literal
    // list as the tail.
    Term* lit_words = literal_alloc(3 + 4);
    lit_words[0] = make_arityval(2);
    lit_words[1] = make_small(1);
    lit_words[2] = atoms::true_;
    Term lit = make_boxed(lit_words);
    lit_words[3] = make_small(7);
    lit_words[4] = NIL;
    Term lit_list = make_list(lit_words + 3);
    lit_words[5] = lit_words[6] = NIL;
    Term t = tuple({lit, list({lit}, lit_list)});

    EXPECT_EQ(term_size_words(t, Literals::shared()), 3u + 2u);
    std::vector<Term> buffer(5 + 4, GUARD_WORD);
    Term* hp = buffer.data();
    Term* off_heap = nullptr;
    Term shared = copy_term(t, &hp, &off_heap, Literals::shared());
    EXPECT_EQ(Word(hp - buffer.data()), 5u);
    EXPECT_TRUE(terms_exact_equal(shared, t));
    EXPECT_EQ(tuple_element(shared, 0), lit);
    EXPECT_EQ(car(tuple_element(shared, 1)), lit);
    EXPECT_EQ(cdr(tuple_element(shared, 1)), lit_list);
    EXPECT_EQ(term_size_shared_words(shared), 5u);

    // Copied (the default), nothing of the copy is in the arena.
    expect_copy_fills_its_size_exactly(t, "literals copied");
    EXPECT_EQ(term_size_words(t), 5u + 2 * 3u + 2u);  // the literal tuple twice
}

TEST_F(Copy, LiteralsOfAnAreaBeingReleasedAreCopiedOthersStayShared) {
    Term* kept_words = literal_alloc(3);
    kept_words[0] = make_arityval(2);
    kept_words[1] = kept_words[2] = make_small(1);
    Term* released_words = literal_alloc(3);
    released_words[0] = make_arityval(2);
    released_words[1] = released_words[2] = make_small(2);
    Term t = tuple({make_boxed(kept_words), make_boxed(released_words)});

    auto* job = new LiteralRelease;
    job->lo = released_words;
    job->hi = released_words + 3;
    job->pending.store(1);
    literal_release_begin(job);
    Literals during = Literals::shared();
    EXPECT_TRUE(during.shares(kept_words));
    EXPECT_FALSE(during.shares(released_words));
    EXPECT_EQ(term_size_words(t, during), 3u + 3u);  // the tuple and the released literal
    std::vector<Term> buffer(6, GUARD_WORD);
    Term* hp = buffer.data();
    Term* off_heap = nullptr;
    Term copy = copy_term(t, &hp, &off_heap, during);
    EXPECT_EQ(tuple_element(copy, 0), make_boxed(kept_words));
    EXPECT_NE(tuple_element(copy, 1), make_boxed(released_words));
    EXPECT_TRUE(terms_exact_equal(copy, t));

    literal_release_done(job);  // the last part: the area is released
    EXPECT_TRUE(Literals::shared().shares(released_words));
    EXPECT_FALSE(Literals::copied().shares(kept_words));
}

TEST_F(Copy, SizeOfImmediatesIsZero) {
    for (Term t : {make_small(0), make_small(MAX_SMALL), atoms::true_, NIL, make_pid(1), make_port(2)})
        EXPECT_EQ(term_size_words(t), 0u);
}

TEST_F(Copy, SharedSubtermsAreCountedOncePerReference) {
    Term flt = make_float_checked(p, 1.5);
    Term once = tuple({flt});
    Term twice = tuple({flt, flt});
    EXPECT_EQ(term_size_words(once), 2 + FLOAT_WORDS);
    EXPECT_EQ(term_size_words(twice), 3 + 2 * FLOAT_WORDS);
}

TEST_F(Copy, MillionElementListCopiesWithoutDeepRecursion) {
    constexpr Word LENGTH = 1'000'000;
    // Built outside the process heap: 2M words.
    std::vector<Term> source(2 * LENGTH);
    Term l = NIL;
    for (Word i = 0; i < LENGTH; ++i) l = make_cons_on(&source[2 * i], make_small(SWord(i)), l);

    Word size = term_size_words(l);
    ASSERT_EQ(size, 2 * LENGTH);
    std::vector<Term> target(size);
    Term* hp = target.data();
    Term* off_heap = nullptr;
    Term copy = copy_term(l, &hp, &off_heap);
    EXPECT_EQ(Word(hp - target.data()), size);
    EXPECT_EQ(off_heap, nullptr);
    Word n = 0;
    SWord expected_value = SWord(LENGTH) - 1;
    for (Term c = copy; is_list(c); c = cdr(c), ++n, --expected_value) {
        ASSERT_GE(list_ptr(c), target.data());
        ASSERT_LT(list_ptr(c), target.data() + size);
        ASSERT_EQ(car(c), make_small(expected_value));
    }
    EXPECT_EQ(n, LENGTH);
    EXPECT_TRUE(terms_exact_equal(copy, l));
}

TEST_F(Copy, CopiedRefcBinariesAreLinkedIntoTheGivenListAndGainAReference) {
    Term first = binary(100);
    Term second = binary(200);
    BinaryBuf* first_buf = refc_buffer(first);
    BinaryBuf* second_buf = refc_buffer(second);
    // [first] twice directly, [second] once directly and once through a sub-binary (100 bytes
    // from bit 4: copied as a RefcBin of its own over the same buffer, under a sub-binary for
    // the bit offset); a heap binary that must not be linked.
    Term t = tuple({first, list({second, first}), make_sub_binary(p, second, 4, 8 * 100), binary(10)});

    Word size = term_size_words(t);
    std::vector<Term> buffer(size);
    Term* hp = buffer.data();
    Term earlier[REFC_BIN_WORDS] = {};  // an entry already in the list stays at its end
    Term* off_heap = earlier;
    copy_term(t, &hp, &off_heap);

    EXPECT_EQ(first_buf->refc.load(), 3);
    EXPECT_EQ(second_buf->refc.load(), 3);
    std::vector<BinaryBuf*> linked;
    Term* bin = off_heap;
    for (; bin && bin != earlier; bin = reinterpret_cast<Term*>(bin[4])) {
        EXPECT_TRUE(bin >= buffer.data() && bin < buffer.data() + size);
        EXPECT_EQ(header_subtag(bin[0]), Subtag::RefcBin);
        linked.push_back(reinterpret_cast<BinaryBuf*>(bin[2]));
    }
    EXPECT_EQ(bin, earlier);
    ASSERT_EQ(linked.size(), 4u);
    EXPECT_EQ(std::count(linked.begin(), linked.end(), first_buf), 2);
    EXPECT_EQ(std::count(linked.begin(), linked.end(), second_buf), 2);
    for (BinaryBuf* buf : linked) buf->release();
    EXPECT_EQ(first_buf->refc.load(), 1);
    EXPECT_EQ(second_buf->refc.load(), 1);
}

TEST_F(Copy, CopiedRefcBinaryViewsTheSameSharedBytes) {
    Term original = binary(150);
    std::vector<Term> buffer(term_size_words(original));
    Term* hp = buffer.data();
    Term* off_heap = nullptr;
    Term copy = copy_term(original, &hp, &off_heap);
    EXPECT_NE(boxed_ptr(copy), boxed_ptr(original));
    EXPECT_EQ(bit_view(copy).bytes, bit_view(original).bytes);
    EXPECT_EQ(off_heap, boxed_ptr(copy));
    EXPECT_EQ(boxed_ptr(copy)[4], Word(0));
    release_off_heap(off_heap);
}

}  // namespace
}  // namespace beamlet::vm
