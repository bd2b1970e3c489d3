// vm/node.cpp — this node's name and creation.
#include "vm/node.hpp"

#include <atomic>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>

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

Term stable_external(Term t) {
    static std::mutex lock;
    static std::unordered_map<std::string_view, Term> table;
    static std::deque<std::unique_ptr<Term[]>> blocks;
    const Term* obj = boxed_ptr(t);
    Word words = header_arity(obj[0]) + 1;
    std::string_view key(reinterpret_cast<const char*>(obj), words * sizeof(Term));
    std::lock_guard guard(lock);
    if (auto it = table.find(key); it != table.end()) return it->second;
    auto& copy = blocks.emplace_back(std::make_unique<Term[]>(words));
    std::memcpy(copy.get(), obj, words * sizeof(Term));
    Term stable = make_boxed(copy.get());
    table.emplace(std::string_view(reinterpret_cast<const char*>(copy.get()), words * sizeof(Term)), stable);
    return stable;
}

}  // namespace beamlet::vm
