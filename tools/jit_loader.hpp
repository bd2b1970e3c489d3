// tools/jit_loader.hpp — the JIT engine, loaded when first needed: a vm::CodeEngine that
// dlopens libbeamlet_jit.so (jit/plugin.cpp) the first time a module is compiled and hands
// everything to the engine it makes. Until then no function has a native entry.
#pragma once

#include <atomic>
#include <mutex>
#include <string>

#include "vm/code_engine.hpp"

namespace beamlet::vm {
struct Module;
struct Vm;
}

namespace beamlet::tools {

class JitLoader : public vm::CodeEngine {
public:
    explicit JitLoader(vm::Vm& vm) : m_vm(vm) {}
    ~JitLoader() override;

    std::string compile(vm::Module& module, const vm::GenericModule& code, const vm::ThreadLayout& layout) override;
    std::unique_ptr<vm::NativeCode> prepare(vm::Module& module, const vm::GenericModule& code,
                                            const vm::ThreadLayout& layout, std::string* error) override;
    void adopt(vm::Module& module, vm::NativeCode& native) override;
    bool set_breakpoint(const vm::CodeInfo* ci, bool on) override;
    int breakpoint_state(const vm::CodeInfo* ci) const override;
    void set_every_process(const vm::CodeInfo* ci, bool on, std::int64_t* count_slots) override;

    // True once the engine is loaded (LLVM is mapped).
    bool loaded() const { return m_engine.load(std::memory_order_acquire) != nullptr; }
    // beamlet dis --engine jit: [module]'s native entries (nothing before the engine loads).
    void describe(const vm::Module& module) const;

private:
    // Loads the engine once; false (with the reason in m_error) if it cannot be.
    bool load();

    vm::Vm& m_vm;
    std::once_flag m_once;
    std::atomic<vm::CodeEngine*> m_engine{nullptr};
    void* m_library = nullptr;
    void (*m_describe)(vm::CodeEngine*, const vm::Module*) = nullptr;
    std::string m_error;
};

}  // namespace beamlet::tools
