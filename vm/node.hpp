// vm/node.hpp — this node's name and creation, and what they decide about a pid, port or
// reference read from another node's external format.
//
// Not distributed, a node is nonode@nohost with creation 0 (OTP's erts_this_node); starting
// distribution names it. A term naming this node (with its creation, or creation 0, OTP's
// ORIG_CREATION) is local; any other node's is external (vm/term.hpp).
#pragma once

#include <cstdint>

#include "vm/term.hpp"

namespace beamlet::vm {

struct NodeId {
    Term name;
    std::uint32_t creation;
};

NodeId this_node();
void set_this_node(NodeId node);

inline bool is_this_node(Term name, std::uint32_t creation) {
    NodeId self = this_node();
    return name == self.name && (creation == self.creation || creation == 0);
}

// The node of a pid, port or reference, local or external, with its creation.
NodeId node_of(Term t);

// A copy of another node's pid, port or reference [t] that lives as long as the VM, the same
// word for equal things: what links, monitors and group leaders held outside any heap point at
// (a remote process linked to a local one, a remote group leader). Heaps may point at it too:
// the collector leaves memory outside the heap where it is, as it does literals. Interned
// for good (OTP counts node entries' references instead): a connection's remote processes
// are few next to its messages, and their entries are five words each.
Term stable_external(Term t);

}  // namespace beamlet::vm
