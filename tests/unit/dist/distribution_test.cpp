// tests/unit/dist/distribution_test.cpp — the distribution's bookkeeping without a peer
// (dist/distribution.hpp): connection handles as net_kernel keeps them, pending connections
// and their abort, nodes monitors' subscriptions. The wire is tested end to end, against real
// erl nodes (tests/e2e/dist).
#include <gtest/gtest.h>

#include <memory>

#include "dist/distribution.hpp"
#include "tools/boot.hpp"
#include "vm/atom_table.hpp"
#include "vm/process.hpp"
#include "vm/term_order.hpp"

namespace beamlet::dist {
namespace {

struct DistributionTest : ::testing::Test {
    static tools::Runtime& runtime() {
        static tools::Runtime* the_runtime = [] {
            tools::BootOptions options;
            options.schedulers = 1;
            return new tools::Runtime(options);
        }();
        return *the_runtime;
    }
    vm::Vm& vm = runtime().vm();
    Distribution& d = *of(vm);
    std::unique_ptr<vm::Process> p = std::make_unique<vm::Process>(vm, 1);
};

TEST_F(DistributionTest, OneConnectionOneHandle) {
    Term node = vm::atom("unit_peer_a@host");
    Term h1 = d.new_connection(p.get(), node);
    Term h2 = d.new_connection(p.get(), node);
    EXPECT_TRUE(Distribution::is_handle(h1));
    EXPECT_TRUE(vm::terms_exact_equal(h1, h2));  // net_kernel compares them
    EXPECT_FALSE(Distribution::is_handle(vm::atom("not_a_handle")));
    EXPECT_GE(d.connection_id(node), 0);
    EXPECT_FALSE(d.is_up(node));  // pending, not up
    EXPECT_TRUE(d.nodes(true, true).empty());
    EXPECT_TRUE(d.abort_pending_connection(node, h1));
    EXPECT_FALSE(d.abort_pending_connection(node, h1));  // gone already
    EXPECT_LT(d.connection_id(node), 0);
}

TEST_F(DistributionTest, AHandleOfAnEarlierConnectionAbortsNothing) {
    Term node = vm::atom("unit_peer_b@host");
    Term old = d.new_connection(p.get(), node);
    ASSERT_TRUE(d.abort_pending_connection(node, old));
    Term fresh = d.new_connection(p.get(), node);
    EXPECT_FALSE(vm::terms_exact_equal(old, fresh));
    EXPECT_FALSE(d.abort_pending_connection(node, old));
    EXPECT_TRUE(d.abort_pending_connection(node, fresh));
}

TEST_F(DistributionTest, NodesMonitorsCountTheirSubscriptions) {
    EXPECT_EQ(d.monitor_nodes(p.get(), 0, true), 0);
    EXPECT_EQ(d.monitor_nodes(p.get(), 0, true), 1);
    EXPECT_EQ(d.monitor_nodes(p.get(), 0, false), 2);
    EXPECT_EQ(d.monitor_nodes(p.get(), 0, false), 1);
    EXPECT_EQ(d.monitor_nodes(p.get(), 0, false), 0);
    EXPECT_EQ(d.monitor_nodes(p.get(), vm::atom("not_a_map"), true), -1);
}

TEST_F(DistributionTest, SpawnRequestsCheckTheirArguments) {
    Term node = vm::atom("unit_peer_c@host");
    EXPECT_EQ(d.spawn_request(p.get(), node, vm::make_small(1), vm::atom("f"), vm::NIL, vm::NIL, false), vm::atoms::badarg);
    EXPECT_EQ(d.spawn_request(p.get(), node, vm::atom("m"), vm::atom("f"), vm::make_small(2), vm::NIL, false),
              vm::atoms::badarg);  // arguments not a list
}

}  // namespace
}  // namespace beamlet::dist
