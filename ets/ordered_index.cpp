// ets/ordered_index.cpp — the B+ tree of an ordered_set (see ordered_index.hpp).
#include "ets/ordered_index.hpp"

#include <algorithm>

#include "vm/term_order.hpp"

namespace beamlet::ets {

using vm::Term;

int compare_keys(Term a, Term b) {
    if (vm::is_small(a) && vm::is_small(b)) {
        auto x = vm::SWord(a), y = vm::SWord(b);
        return x < y ? -1 : x > y ? 1 : 0;
    }
    return vm::compare_terms(a, b);
}

struct OrderedIndex::Node {
    bool is_leaf;
    int n = 0;  // keys of a leaf, children of an inner node
};

// One slot more than ORDER: a node overflows by one, then splits.
struct OrderedIndex::Leaf : Node {
    Leaf() : Node{true} {}
    Term keys[ORDER + 1];
    DbObject* objects[ORDER + 1];
    Leaf* prev = nullptr;
    Leaf* next = nullptr;
};

// keys[i] is the smallest key under children[i + 1].
struct OrderedIndex::Inner : Node {
    Inner() : Node{false} {}
    Term keys[ORDER];
    Node* children[ORDER + 1];
};

namespace {

// The first of [n] keys >= [key] (with [strict]: > [key]).
int search(const Term* keys, int n, Term key, bool strict) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int c = compare_keys(keys[mid], key);
        if (c < 0 || (strict && c == 0)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

}  // namespace

OrderedIndex::OrderedIndex() : m_root(new Leaf) {}

OrderedIndex::~OrderedIndex() { free_node(m_root); }

void OrderedIndex::free_node(Node* node) {
    if (node->is_leaf) {
        delete static_cast<Leaf*>(node);
        return;
    }
    auto* inner = static_cast<Inner*>(node);
    for (int i = 0; i < inner->n; ++i) free_node(inner->children[i]);
    delete inner;
}

void OrderedIndex::clear() {
    free_node(m_root);
    m_root = new Leaf;
    m_size = 0;
}

Term OrderedIndex::min_key(const Node* node) {
    while (!node->is_leaf) node = static_cast<const Inner*>(node)->children[0];
    return static_cast<const Leaf*>(node)->keys[0];
}

const OrderedIndex::Leaf* OrderedIndex::leaf_for(Term key) const {
    const Node* node = m_root;
    while (!node->is_leaf) {
        auto* inner = static_cast<const Inner*>(node);
        node = inner->children[search(inner->keys, inner->n - 1, key, true)];
    }
    return static_cast<const Leaf*>(node);
}

DbObject* OrderedIndex::find(Term key) const {
    const Leaf* leaf = leaf_for(key);
    int i = search(leaf->keys, leaf->n, key, false);
    return i < leaf->n && compare_keys(leaf->keys[i], key) == 0 ? leaf->objects[i] : nullptr;
}

// ---- insert ---------------------------------------------------------------------------------

bool OrderedIndex::insert(Term key, DbObject* object) {
    Term separator;
    Node* right = nullptr;
    std::size_t before = m_size;
    if (insert_into(m_root, key, object, &separator, &right)) {
        auto* root = new Inner;
        root->n = 2;
        root->children[0] = m_root;
        root->children[1] = right;
        root->keys[0] = separator;
        m_root = root;
    }
    return m_size != before;
}

// Inserts under [node]; true if [node] split, its upper half now [*right], whose smallest key
// is [*separator].
bool OrderedIndex::insert_into(Node* node, Term key, DbObject* object, Term* separator, Node** right) {
    if (node->is_leaf) {
        auto* leaf = static_cast<Leaf*>(node);
        int i = search(leaf->keys, leaf->n, key, false);
        if (i < leaf->n && compare_keys(leaf->keys[i], key) == 0) return false;
        std::copy_backward(leaf->keys + i, leaf->keys + leaf->n, leaf->keys + leaf->n + 1);
        std::copy_backward(leaf->objects + i, leaf->objects + leaf->n, leaf->objects + leaf->n + 1);
        leaf->keys[i] = key;
        leaf->objects[i] = object;
        ++leaf->n;
        ++m_size;
        if (leaf->n <= ORDER) return false;
        auto* half = new Leaf;
        int keep = leaf->n / 2;
        half->n = leaf->n - keep;
        std::copy(leaf->keys + keep, leaf->keys + leaf->n, half->keys);
        std::copy(leaf->objects + keep, leaf->objects + leaf->n, half->objects);
        leaf->n = keep;
        half->next = leaf->next;
        half->prev = leaf;
        if (leaf->next) leaf->next->prev = half;
        leaf->next = half;
        *separator = half->keys[0];
        *right = half;
        return true;
    }
    auto* inner = static_cast<Inner*>(node);
    int c = search(inner->keys, inner->n - 1, key, true);
    Term child_separator;
    Node* child_right = nullptr;
    if (!insert_into(inner->children[c], key, object, &child_separator, &child_right)) return false;
    std::copy_backward(inner->keys + c, inner->keys + inner->n - 1, inner->keys + inner->n);
    std::copy_backward(inner->children + c + 1, inner->children + inner->n, inner->children + inner->n + 1);
    inner->keys[c] = child_separator;
    inner->children[c + 1] = child_right;
    ++inner->n;
    if (inner->n <= ORDER) return false;
    // Children [keep, n) go right; the key between the halves moves up.
    auto* half = new Inner;
    int keep = inner->n / 2;
    half->n = inner->n - keep;
    std::copy(inner->children + keep, inner->children + inner->n, half->children);
    std::copy(inner->keys + keep, inner->keys + inner->n - 1, half->keys);
    *separator = inner->keys[keep - 1];
    inner->n = keep;
    *right = half;
    return true;
}

// ---- erase ----------------------------------------------------------------------------------

bool OrderedIndex::erase(Term key) {
    if (!erase_from(m_root, key)) return false;
    if (!m_root->is_leaf && m_root->n == 1) {
        auto* old = static_cast<Inner*>(m_root);
        m_root = old->children[0];
        delete old;
    }
    return true;
}

bool OrderedIndex::erase_from(Node* node, Term key) {
    if (node->is_leaf) {
        auto* leaf = static_cast<Leaf*>(node);
        int i = search(leaf->keys, leaf->n, key, false);
        if (i == leaf->n || compare_keys(leaf->keys[i], key) != 0) return false;
        std::copy(leaf->keys + i + 1, leaf->keys + leaf->n, leaf->keys + i);
        std::copy(leaf->objects + i + 1, leaf->objects + leaf->n, leaf->objects + i);
        --leaf->n;
        --m_size;
        return true;
    }
    auto* inner = static_cast<Inner*>(node);
    int c = search(inner->keys, inner->n - 1, key, true);
    if (!erase_from(inner->children[c], key)) return false;
    if (inner->children[c]->n < MIN) rebalance(inner, c);
    // The erased key may have been a separator here: those next to the child are the smallest
    // keys of their subtrees again.
    for (int j = std::max(1, c - 1); j <= c + 1 && j < inner->n; ++j) inner->keys[j - 1] = min_key(inner->children[j]);
    return true;
}

// Child [c] of [parent] is short of MIN: it borrows from a sibling that can spare one, or
// merges with one.
void OrderedIndex::rebalance(Inner* parent, int c) {
    Node* child = parent->children[c];
    Node* left = c > 0 ? parent->children[c - 1] : nullptr;
    Node* right = c + 1 < parent->n ? parent->children[c + 1] : nullptr;
    if (child->is_leaf) {
        auto* leaf = static_cast<Leaf*>(child);
        if (left && left->n > MIN) {
            auto* from = static_cast<Leaf*>(left);
            std::copy_backward(leaf->keys, leaf->keys + leaf->n, leaf->keys + leaf->n + 1);
            std::copy_backward(leaf->objects, leaf->objects + leaf->n, leaf->objects + leaf->n + 1);
            leaf->keys[0] = from->keys[from->n - 1];
            leaf->objects[0] = from->objects[from->n - 1];
            ++leaf->n;
            --from->n;
            return;
        }
        if (right && right->n > MIN) {
            auto* from = static_cast<Leaf*>(right);
            leaf->keys[leaf->n] = from->keys[0];
            leaf->objects[leaf->n] = from->objects[0];
            ++leaf->n;
            std::copy(from->keys + 1, from->keys + from->n, from->keys);
            std::copy(from->objects + 1, from->objects + from->n, from->objects);
            --from->n;
            return;
        }
        // Merge the right one of the pair into the left one.
        int at = left ? c - 1 : c;
        auto* into = static_cast<Leaf*>(parent->children[at]);
        auto* gone = static_cast<Leaf*>(parent->children[at + 1]);
        std::copy(gone->keys, gone->keys + gone->n, into->keys + into->n);
        std::copy(gone->objects, gone->objects + gone->n, into->objects + into->n);
        into->n += gone->n;
        into->next = gone->next;
        if (gone->next) gone->next->prev = into;
        delete gone;
        std::copy(parent->keys + at + 1, parent->keys + parent->n - 1, parent->keys + at);
        std::copy(parent->children + at + 2, parent->children + parent->n, parent->children + at + 1);
        --parent->n;
        return;
    }
    auto* inner = static_cast<Inner*>(child);
    if (left && left->n > MIN) {
        auto* from = static_cast<Inner*>(left);
        std::copy_backward(inner->children, inner->children + inner->n, inner->children + inner->n + 1);
        std::copy_backward(inner->keys, inner->keys + inner->n - 1, inner->keys + inner->n);
        inner->children[0] = from->children[from->n - 1];
        inner->keys[0] = min_key(inner->children[1]);
        ++inner->n;
        --from->n;
        return;
    }
    if (right && right->n > MIN) {
        auto* from = static_cast<Inner*>(right);
        inner->children[inner->n] = from->children[0];
        inner->keys[inner->n - 1] = min_key(from->children[0]);
        ++inner->n;
        std::copy(from->children + 1, from->children + from->n, from->children);
        std::copy(from->keys + 1, from->keys + from->n - 1, from->keys);
        --from->n;
        return;
    }
    int at = left ? c - 1 : c;
    auto* into = static_cast<Inner*>(parent->children[at]);
    auto* gone = static_cast<Inner*>(parent->children[at + 1]);
    into->keys[into->n - 1] = min_key(gone->children[0]);
    std::copy(gone->keys, gone->keys + gone->n - 1, into->keys + into->n);
    std::copy(gone->children, gone->children + gone->n, into->children + into->n);
    into->n += gone->n;
    delete gone;
    std::copy(parent->keys + at + 1, parent->keys + parent->n - 1, parent->keys + at);
    std::copy(parent->children + at + 2, parent->children + parent->n, parent->children + at + 1);
    --parent->n;
}

// ---- replace --------------------------------------------------------------------------------

void OrderedIndex::replace(Term key, Term new_key, DbObject* object) {
    Node* node = m_root;
    while (!node->is_leaf) {
        auto* inner = static_cast<Inner*>(node);
        int c = search(inner->keys, inner->n - 1, key, true);
        // The separator equal to the key points into the old object too.
        if (c > 0 && compare_keys(inner->keys[c - 1], key) == 0) inner->keys[c - 1] = new_key;
        node = inner->children[c];
    }
    auto* leaf = static_cast<Leaf*>(node);
    int i = search(leaf->keys, leaf->n, key, false);
    if (i < leaf->n && compare_keys(leaf->keys[i], key) == 0) {
        leaf->keys[i] = new_key;
        leaf->objects[i] = object;
    }
}

// ---- positions ------------------------------------------------------------------------------

OrderedIndex::Position OrderedIndex::first() const {
    const Node* node = m_root;
    while (!node->is_leaf) node = static_cast<const Inner*>(node)->children[0];
    auto* leaf = static_cast<const Leaf*>(node);
    return leaf->n ? Position{leaf, 0} : Position{};
}

OrderedIndex::Position OrderedIndex::last() const {
    const Node* node = m_root;
    while (!node->is_leaf) {
        auto* inner = static_cast<const Inner*>(node);
        node = inner->children[inner->n - 1];
    }
    auto* leaf = static_cast<const Leaf*>(node);
    return leaf->n ? Position{leaf, leaf->n - 1} : Position{};
}

OrderedIndex::Position OrderedIndex::lower_bound(Term key) const {
    const Leaf* leaf = leaf_for(key);
    int i = search(leaf->keys, leaf->n, key, false);
    if (i < leaf->n) return {leaf, i};
    return leaf->next ? Position{leaf->next, 0} : Position{};
}

OrderedIndex::Position OrderedIndex::first_not(const std::function<bool(Term)>& before) const {
    // Separators are the smallest keys of the subtrees on their right: the first key not
    // before is in the child after the last separator that is before (or is the next
    // subtree's first key).
    auto count_before = [&](const Term* keys, int n) {
        int lo = 0, hi = n;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (before(keys[mid])) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    };
    const Node* node = m_root;
    while (!node->is_leaf) {
        auto* inner = static_cast<const Inner*>(node);
        node = inner->children[count_before(inner->keys, inner->n - 1)];
    }
    auto* leaf = static_cast<const Leaf*>(node);
    int i = count_before(leaf->keys, leaf->n);
    if (i < leaf->n) return {leaf, i};
    return leaf->next ? Position{leaf->next, 0} : Position{};
}

OrderedIndex::Position OrderedIndex::upper_bound(Term key) const {
    const Leaf* leaf = leaf_for(key);
    int i = search(leaf->keys, leaf->n, key, true);
    if (i < leaf->n) return {leaf, i};
    return leaf->next ? Position{leaf->next, 0} : Position{};
}

OrderedIndex::Position OrderedIndex::next(Position at) const {
    if (at.index + 1 < at.leaf->n) return {at.leaf, at.index + 1};
    return at.leaf->next ? Position{at.leaf->next, 0} : Position{};
}

OrderedIndex::Position OrderedIndex::prev(Position at) const {
    if (at.index > 0) return {at.leaf, at.index - 1};
    return at.leaf->prev ? Position{at.leaf->prev, at.leaf->prev->n - 1} : Position{};
}

Term OrderedIndex::key(Position at) const { return at.leaf->keys[at.index]; }
DbObject* OrderedIndex::object(Position at) const { return at.leaf->objects[at.index]; }

}  // namespace beamlet::ets
