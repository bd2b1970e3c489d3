// vm/code_permission.hpp — CodePermission: the code modification permission, a process-level
// lock (OTP's erts_try_seize_code_mod_permission): a process that cannot get it is suspended
// and resumed, holding it, when the holder releases it. Schedulers never block on it.
#pragma once

#include <deque>
#include <mutex>

#include "vm/spin_lock.hpp"

namespace beamlet::vm {

struct Process;
struct Vm;

class CodePermission {
public:
    explicit CodePermission(Vm& vm) : m_vm(vm) {}

    // Takes the permission for [p] and returns true, or queues [p] and returns false: the
    // caller then traps (suspends) and is resumed holding the permission.
    bool seize(Process* p);
    // Releases it (held by [p]): the first queued process gets it and is resumed.
    void release(Process* p);
    // True while [p] holds it.
    bool held_by(const Process* p) const;
    // For a thread of the runtime (the lazy JIT's), which cannot be suspended: takes the
    // permission if no one holds it; release_by_runtime() hands it to the first waiter.
    bool try_seize_by_runtime();
    void release_by_runtime();

private:
    Vm& m_vm;
    mutable SpinLock m_mutex;
    Process* m_holder = nullptr;
    bool m_runtime_holds = false;
    std::deque<Process*> m_waiters;
};

}  // namespace beamlet::vm
