// vm/native_compiler.hpp — the lazy JIT: modules are loaded interpreted, with a call counter
// at each function's entry (i_jit_count); when one gets hot, its module is compiled on this
// background thread, off every process's clock, and switched in while processes keep running:
//
//   under the code modification permission (so that no breakpoint changes meanwhile),
//   1. the entry markers stop counting (i_jit_skip; a breakpoint over one keeps that as its
//      original word), and after a thread-progress wait no scheduler is still counting;
//   2. the markers' second words get the native functions, and after another wait every
//      scheduler sees them;
//   3. the engine registers the native entries; a function whose breakpoint stands in the
//      threaded code has its native entry armed as well (native local calls go straight
//      there); then every marker becomes i_jit_enter, the breakpoint words with them.
//
// Processes in the middle of a function go native at its next marker; a breakpoint hit in the
// threaded code goes on interpreted, so no call is traced twice.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "vm/term.hpp"

namespace beamlet::vm {

struct Module;
struct NativeCode;
struct Vm;

class NativeCompiler {
public:
    explicit NativeCompiler(Vm& vm);
    // Stops the thread; a module being switched in is left interpreted.
    ~NativeCompiler();
    // The schedulers are stopping: nothing is switched in and no process is resumed any more
    // (a compilation under way finishes; the destructor waits for it).
    void stop();
    NativeCompiler(const NativeCompiler&) = delete;
    NativeCompiler& operator=(const NativeCompiler&) = delete;

    // Queues [module] (once: Module::native_requested) to be compiled and switched in; true
    // when [waiter] (a pid, or 0) is to be resumed then (it made the module hot first).
    bool request(Module& module, Term waiter);

private:
    void run();
    void switch_in(Module& module, NativeCode& native);
    void resume(Term waiter);
    bool seize_permission();
    bool wait_for_thread_progress();
    bool stopping();

    Vm& m_vm;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    struct Request {
        Module* module;
        Term waiter;  // resumed once the module is switched in (or is not), 0 for none
    };
    std::deque<Request> m_queue;
    bool m_stop = false;
    std::thread m_thread;
};

}  // namespace beamlet::vm
