// ets/ordered_index.hpp — the index of an ordered_set: a B+ tree from keys (in term order) to
// objects.
//
// A red-black tree spends a cache miss per level on 100k keys (17 levels); here a node holds
// up to ORDER keys side by side, so a lookup touches about four nodes. Leaves are linked both
// ways for next/prev and walks. Keys are Terms that point into the objects (their element at
// the key position), so the tree never holds a key whose object is gone: every separator in
// an inner node is the smallest key of the subtree on its right, and erase and replace keep
// it so.
#pragma once

#include <cstdint>
#include <functional>

#include "vm/term.hpp"

namespace beamlet::ets {

struct DbObject;

// Three-way term order of keys (ordered_set keys: 1 and 1.0 are the same key).
int compare_keys(vm::Term a, vm::Term b);

class OrderedIndex {
    struct Node;
    struct Leaf;
    struct Inner;

public:
    OrderedIndex();
    ~OrderedIndex();
    OrderedIndex(const OrderedIndex&) = delete;
    OrderedIndex& operator=(const OrderedIndex&) = delete;

    // A position in key order; invalid (leaf null) past either end.
    struct Position {
        const Leaf* leaf = nullptr;
        int index = 0;
        bool valid() const { return leaf != nullptr; }
    };

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }

    DbObject* find(vm::Term key) const;
    // Adds [key] -> [object]; false (and nothing changes) if [key] is there.
    bool insert(vm::Term key, DbObject* object);
    // Points the entry of [key] at [object], whose key is [new_key] (equal in order).
    void replace(vm::Term key, vm::Term new_key, DbObject* object);
    bool erase(vm::Term key);
    // Drops every entry (the objects are the caller's).
    void clear();

    Position first() const;
    Position last() const;
    Position lower_bound(vm::Term key) const;  // the first key >= [key]
    // The first key for which [before] is false, where [before] is true for a first part of
    // the keys in order and false from there on (a range of keys starts there).
    Position first_not(const std::function<bool(vm::Term)>& before) const;
    Position upper_bound(vm::Term key) const;  // the first key > [key]
    Position next(Position at) const;
    Position prev(Position at) const;
    vm::Term key(Position at) const;
    DbObject* object(Position at) const;

private:
    static constexpr int ORDER = 32;      // most keys in a leaf, most children of an inner node
    static constexpr int MIN = ORDER / 2;  // fewest, but in the root

    bool insert_into(Node* node, vm::Term key, DbObject* object, vm::Term* separator, Node** right);
    bool erase_from(Node* node, vm::Term key);
    void rebalance(Inner* parent, int child);
    static vm::Term min_key(const Node* node);
    static void free_node(Node* node);
    const Leaf* leaf_for(vm::Term key) const;

    Node* m_root;
    std::size_t m_size = 0;
};

}  // namespace beamlet::ets
