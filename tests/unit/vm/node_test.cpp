// tests/unit/vm/node_test.cpp — this node's identity and the stable copies of other nodes'
// pids, ports and references (vm/node.hpp): equal things share one word, whatever heap they
// came from; different things never do; a copy outlives the term it was made from.
#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/node.hpp"
#include "vm/term_order.hpp"

namespace beamlet::vm {
namespace {

TEST(StableExternal, EqualThingsShareOneWord) {
    Term node = atom("stable_a@host");
    Term a_words[EXTERNAL_PID_WORDS], b_words[EXTERNAL_PID_WORDS];
    Term a = make_external_pid_on(a_words, node, 7, 42, 3);
    Term b = make_external_pid_on(b_words, node, 7, 42, 3);
    ASSERT_NE(a, b);  // two heaps' words
    Term sa = stable_external(a), sb = stable_external(b);
    EXPECT_EQ(sa, sb);
    EXPECT_TRUE(is_external_pid(sa));
    EXPECT_TRUE(terms_exact_equal(sa, a));
    // The copy is its own: the words it came from can go.
    a_words[3] = 0;
    EXPECT_EQ(external_pid_number(sa), 42u);
    EXPECT_EQ(external_pid_serial(sa), 3u);
}

TEST(StableExternal, DifferentThingsNeverShare) {
    Term node = atom("stable_b@host"), other = atom("stable_c@host");
    Term w[4][EXTERNAL_PID_WORDS];
    std::vector<Term> copies = {
        stable_external(make_external_pid_on(w[0], node, 1, 5, 0)),
        stable_external(make_external_pid_on(w[1], node, 2, 5, 0)),   // another creation
        stable_external(make_external_pid_on(w[2], other, 1, 5, 0)),  // another node
        stable_external(make_external_pid_on(w[3], node, 1, 6, 0)),   // another number
    };
    for (std::size_t i = 0; i < copies.size(); ++i)
        for (std::size_t j = i + 1; j < copies.size(); ++j) EXPECT_NE(copies[i], copies[j]) << i << " " << j;
}

TEST(StableExternal, PortsAndReferencesToo) {
    Term node = atom("stable_d@host");
    Term p1[EXTERNAL_PORT_WORDS], p2[EXTERNAL_PORT_WORDS];
    EXPECT_EQ(stable_external(make_external_port_on(p1, node, 3, 99)),
              stable_external(make_external_port_on(p2, node, 3, 99)));
    const std::uint32_t numbers[3] = {1, 2, 3};
    Term r1[external_ref_words(3)], r2[external_ref_words(3)];
    Term s1 = stable_external(make_external_ref_on(r1, node, 3, numbers, 3));
    EXPECT_EQ(s1, stable_external(make_external_ref_on(r2, node, 3, numbers, 3)));
    EXPECT_TRUE(is_external_ref(s1));
}

TEST(StableExternal, ThreadsAgreeOnTheCopy) {
    Term node = atom("stable_e@host");
    constexpr int THREADS = 4;
    std::vector<Term> seen(THREADS);
    std::vector<std::thread> threads;
    for (int t = 0; t < THREADS; ++t)
        threads.emplace_back([&, t] {
            Term words[EXTERNAL_PID_WORDS];
            seen[t] = stable_external(make_external_pid_on(words, node, 9, 1234, 1));
        });
    for (auto& t : threads) t.join();
    for (int t = 1; t < THREADS; ++t) EXPECT_EQ(seen[t], seen[0]);
}

TEST(ThisNode, NamesAndCreationsDecideWhatIsLocal) {
    NodeId before = this_node();
    set_this_node({atom("unit_node@host"), 77});
    EXPECT_TRUE(is_this_node(atom("unit_node@host"), 77));
    EXPECT_TRUE(is_this_node(atom("unit_node@host"), 0));  // ORIG_CREATION
    EXPECT_FALSE(is_this_node(atom("unit_node@host"), 78));
    EXPECT_FALSE(is_this_node(atom("other@host"), 77));
    set_this_node(before);
}

}  // namespace
}  // namespace beamlet::vm
