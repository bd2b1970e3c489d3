// vm/code_permission.cpp — the permission handed from holder to waiter in FIFO order.
#include "vm/code_permission.hpp"

#include "vm/assert.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

bool CodePermission::seize(Process* p) {
    std::lock_guard lock(m_mutex);
    if (!m_holder && !m_runtime_holds) {
        m_holder = p;
        return true;
    }
    BEAMLET_ASSERT(m_holder != p);
    m_waiters.push_back(p);
    return false;
}

void CodePermission::release(Process* p) {
    Process* next = nullptr;
    {
        std::lock_guard lock(m_mutex);
        BEAMLET_ASSERT(m_holder == p);
        m_holder = nullptr;
        if (!m_waiters.empty()) {
            next = m_waiters.front();
            m_waiters.pop_front();
            m_holder = next;
        }
    }
    if (next) m_vm.resume_suspended(next);
}

bool CodePermission::try_seize_by_runtime() {
    std::lock_guard lock(m_mutex);
    if (m_holder || m_runtime_holds) return false;
    m_runtime_holds = true;
    return true;
}

void CodePermission::release_by_runtime() {
    Process* next = nullptr;
    {
        std::lock_guard lock(m_mutex);
        BEAMLET_ASSERT(m_runtime_holds);
        m_runtime_holds = false;
        if (!m_waiters.empty()) {
            next = m_waiters.front();
            m_waiters.pop_front();
            m_holder = next;
        }
    }
    if (next) m_vm.resume_suspended(next);
}

bool CodePermission::held_by(const Process* p) const {
    std::lock_guard lock(m_mutex);
    return m_holder == p;
}

}  // namespace beamlet::vm
