// vm/node.cpp — this node's name and creation.
#include "vm/node.hpp"

#include <atomic>

#include "vm/atom_table.hpp"

namespace beamlet::vm {

namespace {
// Set once when distribution starts or stops; read by every term operation on an external
// pid, port or reference. A name and creation read apart can only straddle a change of node
// name, which OTP does not promise atomicity for either.
std::atomic<Term> g_name{0};
std::atomic<std::uint32_t> g_creation{0};
}  // namespace

NodeId this_node() {
    Term name = g_name.load(std::memory_order_acquire);
    return {name ? name : atoms::nonode_at_nohost, g_creation.load(std::memory_order_acquire)};
}

void set_this_node(NodeId node) {
    g_creation.store(node.creation, std::memory_order_release);
    g_name.store(node.name, std::memory_order_release);
}

NodeId node_of(Term t) {
    if (is_external(t)) return {external_node(t), external_creation(t)};
    return this_node();
}

}  // namespace beamlet::vm
