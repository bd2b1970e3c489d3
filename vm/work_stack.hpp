// vm/work_stack.hpp — a LIFO work stack that lives on the C++ stack until a walk needs more.
//
// Term walks (copy, size, hash, order, match-spec compilation, stack traces) run at every
// message send, ETS call, map operation and exception; most terms are small, and a std::vector would cost a malloc and a
// free per walk. The first INLINE entries are in place; deeper or wider terms spill to the heap.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace beamlet::vm {

template <typename T, std::size_t INLINE = 32>
class WorkStack {
public:
    WorkStack() = default;
    explicit WorkStack(const T& first) { push_back(first); }
    WorkStack(const WorkStack&) = delete;
    WorkStack& operator=(const WorkStack&) = delete;

    bool empty() const { return m_top == m_data; }
    std::size_t size() const { return std::size_t(m_top - m_data); }
    T& back() { return m_top[-1]; }
    void pop_back() { --m_top; }
    T pop() { return *--m_top; }
    void push_back(const T& v) {
        if (m_top == m_end) grow();
        *m_top++ = v;
    }
    void clear() { m_top = m_data; }
    // The entries, bottom first (as a list is built from them).
    const T* data() const { return m_data; }

private:
    // Pointers, not counts: a store of a T (often a Word) may alias a size_t, so with counts
    // the compiler reloads them from memory after every push.
    void grow() {
        std::size_t size = this->size(), capacity = std::size_t(m_end - m_data);
        m_heap.resize(capacity * 2);  // keeps what an earlier spill put there
        if (m_data == m_inline) std::copy(m_inline, m_inline + size, m_heap.begin());
        m_data = m_heap.data();
        m_top = m_data + size;
        m_end = m_data + capacity * 2;
    }

    T m_inline[INLINE];
    std::vector<T> m_heap;
    T* m_data = m_inline;
    T* m_top = m_inline;
    T* m_end = m_inline + INLINE;
};

}  // namespace beamlet::vm
