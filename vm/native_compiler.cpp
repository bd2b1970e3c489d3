// vm/native_compiler.cpp — compiling hot modules in the background and switching them in.
#include "vm/native_compiler.hpp"

#include <pthread.h>

#include <chrono>
#include <cstdio>

#include "vm/atom_table.hpp"
#include "vm/code_engine.hpp"
#include "vm/code_permission.hpp"
#include "vm/interpreter.hpp"
#include "vm/process.hpp"
#include "vm/thread_progress.hpp"
#include "vm/thread_signals.hpp"
#include "vm/trace_hooks.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

namespace {

// Code words that running schedulers read: written as OTP writes code, aligned word stores
// (the interpreter executes them with plain loads: a designed race, as tracing's patch_word,
// that TSan is not told about).
__attribute__((no_sanitize("thread"))) void store_code_word(Word* at, Word value) {
    __atomic_store_n(at, value, __ATOMIC_RELEASE);
}

}  // namespace

NativeCompiler::NativeCompiler(Vm& vm) : m_vm(vm) {
    StopSignalsBlocked blocked;
    m_thread = std::thread([this] { run(); });
}

NativeCompiler::~NativeCompiler() {
    stop();
    m_thread.join();
}

void NativeCompiler::stop() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
}

bool NativeCompiler::request(Module& module, Term waiter) {
    if (module.native_requested.exchange(true, std::memory_order_acq_rel)) return false;
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back(Request{&module, waiter});
    }
    m_wake.notify_one();
    return waiter != 0;
}

void NativeCompiler::resume(Term waiter) {
    if (!waiter) return;
    // Under the mutex: once stop() has returned, no process is put in a run queue.
    std::lock_guard lock(m_mutex);
    if (m_stop) return;
    if (std::shared_ptr<Process> p = m_vm.lookup_process(waiter)) m_vm.resume_suspended(p.get());
}

bool NativeCompiler::stopping() {
    std::lock_guard lock(m_mutex);
    return m_stop;
}

void NativeCompiler::run() {
    pthread_setname_np(pthread_self(), "beamlet-jit");
    for (;;) {
        Request r;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || !m_queue.empty(); });
            if (m_stop) return;
            r = m_queue.front();
            m_queue.pop_front();
        }
        // Modules are never freed while the VM runs (purged code stays mapped), and only this
        // thread reads lazy_native once the module is requested.
        Module& module = *r.module;
        std::string error;
        std::unique_ptr<NativeCode> native =
            module.lazy_native ? m_vm.services.code_engine->prepare(module, module.lazy_native->code, module.lazy_native->layout, &error)
                               : nullptr;
        if (native) switch_in(module, *native);
        else if (!error.empty())
            std::fprintf(stderr, "beamlet: %s: JIT compilation failed, interpreting it: %s\n",
                         atom_text(module.name).c_str(), error.c_str());
        resume(r.waiter);  // native now, or interpreted for good
    }
}

bool NativeCompiler::seize_permission() {
    while (!m_vm.code_permission->try_seize_by_runtime()) {
        if (stopping()) return false;
        std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
    return true;
}

bool NativeCompiler::wait_for_thread_progress() {
    ThreadProgress::Value until = m_vm.thread_progress->later();
    while (!m_vm.thread_progress->has_reached(until)) {
        if (stopping()) return false;
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    return true;
}

void NativeCompiler::switch_in(Module& module, NativeCode& native) {
    if (!seize_permission()) return;
    // 1. No more counting (every entry marker counts, under its breakpoint if it has one).
    for (const FunctionInfo& f : module.functions) {
        const CodeInfo* ci = module.code_info(f);
        if (m_vm.services.trace) m_vm.services.trace->replace_entry_word(ci, op_word(Op::i_jit_skip));
        else TraceHooks::write_entry_word(ci, op_word(Op::i_jit_skip));
    }
    bool waited = wait_for_thread_progress();
    // 2. The native functions, where no scheduler reads them as counters any more.
    if (waited)
        for (auto [marker, fn] : native.markers) store_code_word(module.code.get() + marker + 1, fn);
    if (waited) waited = wait_for_thread_progress();
    if (!waited) {
        m_vm.code_permission->release_by_runtime();
        return;
    }
    // 3. The native entries, armed where the threaded code carries a breakpoint; then on.
    m_vm.services.code_engine->adopt(module, native);
    if (m_vm.services.trace)
        for (const FunctionInfo& f : module.functions) m_vm.services.trace->native_entry_adopted(module.code_info(f));
    for (auto [marker, fn] : native.markers) store_code_word(module.code.get() + marker, op_word(Op::i_jit_enter));
    module.lazy_native.reset();
    m_vm.code_permission->release_by_runtime();
}

}  // namespace beamlet::vm
