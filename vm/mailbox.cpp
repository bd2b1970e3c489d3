// vm/mailbox.cpp — MessageQueue.
#include "vm/mailbox.hpp"

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

}  // namespace beamlet::vm
