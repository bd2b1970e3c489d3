// vm/mailbox.cpp — MessageQueue.
#include "vm/mailbox.hpp"

#include <algorithm>
#include <new>

#include "vm/block_cache.hpp"

namespace beamlet::vm {

MessageQueue::~MessageQueue() {
    for (Node* n = m_first; n;) {
        Node* next = n->next;
        cached_free(n, sizeof(Node));
        n = next;
    }
}

void MessageQueue::push_back(const Message& m) {
    Node* n = new (cached_alloc(sizeof(Node))) Node{m, nullptr};
    *m_last = n;
    m_last = &n->next;
    ++m_size;
}

void MessageQueue::unlink(Node** link) {
    Node* n = *link;
    if (m_markers_in_use) {
        // A marker after the removed message now follows the message before it.
        Node* before = link == &m_first ? nullptr : node_of_link(link);
        for (Marker& m : m_markers)
            if (m.in_use && m.after == n) m.after = before;
    }
    *link = n->next;
    if (m_last == &n->next) m_last = link;
    // A save pointer at the removed node's link now refers to its successor's link.
    if (m_save == &n->next) m_save = link;
    cached_free(n, sizeof(Node));
    --m_size;
}

Message MessageQueue::take_current() {
    Message m = (*m_save)->message;
    unlink(m_save);
    m_save = &m_first;
    return m;
}

Word MessageQueue::reserve_marker() {
    Word slot = m_next_marker;
    for (Word i = 0; i < MARKERS; ++i)
        if (!m_markers[(m_next_marker + i) % MARKERS].in_use) {
            slot = (m_next_marker + i) % MARKERS;
            break;
        }
    m_next_marker = (slot + 1) % MARKERS;
    Marker& m = m_markers[slot];
    if (!m.in_use) ++m_markers_in_use;
    m.in_use = true;
    m.bound = false;
    m.after = m_last == &m_first ? nullptr : node_of_link(m_last);
    return slot;
}

void MessageQueue::bind_marker(Word marker, const Word ref_id[3]) {
    if (marker >= MARKERS || !m_markers[marker].in_use) return;
    std::copy(ref_id, ref_id + 3, m_markers[marker].ref_id);
    m_markers[marker].bound = true;
}

MessageQueue::Marker* MessageQueue::bound_marker(const Word ref_id[3]) {
    if (!m_markers_in_use) return nullptr;
    for (Marker& m : m_markers)
        if (m.in_use && m.bound && std::equal(ref_id, ref_id + 3, m.ref_id)) return &m;
    return nullptr;
}

void MessageQueue::use_marker(const Word ref_id[3]) {
    if (Marker* m = bound_marker(ref_id)) m_save = m->after ? &m->after->next : &m_first;
}

void MessageQueue::clear_marker(const Word ref_id[3]) {
    if (Marker* m = bound_marker(ref_id)) {
        m->in_use = false;
        --m_markers_in_use;
    }
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
MessageQueue::Layout MessageQueue::layout() {
    return Layout{offsetof(MessageQueue, m_save), offsetof(Node, message) + offsetof(Message, term), offsetof(Node, next)};
}
#pragma GCC diagnostic pop

}  // namespace beamlet::vm
