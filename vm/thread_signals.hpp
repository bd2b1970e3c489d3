// vm/thread_signals.hpp — threads of the runtime (the lazy JIT's compiler, the command-line
// trace's writer) leave SIGINT and SIGTERM to the signal thread (tools/boot.cpp), which stops
// the VM in order. Threads inherit the mask of their creator: create them while this is alive.
#pragma once

#include <signal.h>

namespace beamlet::vm {

class StopSignalsBlocked {
public:
    StopSignalsBlocked() {
        sigset_t blocked;
        sigemptyset(&blocked);
        sigaddset(&blocked, SIGINT);
        sigaddset(&blocked, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &blocked, &m_previous);
    }
    ~StopSignalsBlocked() { pthread_sigmask(SIG_SETMASK, &m_previous, nullptr); }
    StopSignalsBlocked(const StopSignalsBlocked&) = delete;
    StopSignalsBlocked& operator=(const StopSignalsBlocked&) = delete;

private:
    sigset_t m_previous;
};

}  // namespace beamlet::vm
