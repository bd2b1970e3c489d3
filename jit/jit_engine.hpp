// jit/jit_engine.hpp — the JIT as the VM's native-code engine (vm::CodeEngine): compiles each
// module as it is installed, fills its resume-point markers, and switches function-entry
// breakpoints by patching machine code.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "jit/compiler.hpp"
#include "jit/engine.hpp"
#include "jit/object_cache.hpp"
#include "vm/code_engine.hpp"

namespace beamlet::vm {
struct Vm;
}

namespace beamlet::jit {

class JitCodeEngine : public vm::CodeEngine {
public:
    // Null with a message in [error] when LLVM cannot target this machine.
    static std::unique_ptr<JitCodeEngine> create(vm::Vm& vm, std::string* error);
    ~JitCodeEngine() override;

    std::string compile(vm::Module& module, const vm::GenericModule& code, const vm::ThreadLayout& layout) override;
    std::unique_ptr<vm::NativeCode> prepare(vm::Module& module, const vm::GenericModule& code,
                                            const vm::ThreadLayout& layout, std::string* error) override;
    void adopt(vm::Module& module, vm::NativeCode& native) override;
    bool set_breakpoint(const vm::CodeInfo* ci, bool on) override;
    int breakpoint_state(const vm::CodeInfo* ci) const override;
    void set_every_process(const vm::CodeInfo* ci, bool on, std::int64_t* count_slots) override;

    // Its native entry's patch site, or null (beamlet dis --engine jit).
    const PatchSite* site_of(const vm::CodeInfo* ci) const;
    // Its flag byte in BreakpointMode::Flag, or null.
    const std::atomic<std::uint8_t>* flag_of(const vm::CodeInfo* ci) const;
    BreakpointMode breakpoint_mode() const { return m_mode; }
    Engine& engine() { return *m_engine; }

private:
    JitCodeEngine(vm::Vm& vm, std::unique_ptr<DiskObjectCache> cache, std::unique_ptr<Engine> engine)
        : m_vm(vm), m_cache(std::move(cache)), m_engine(std::move(engine)) {}

    vm::Vm& m_vm;
    std::unique_ptr<DiskObjectCache> m_cache;  // outlives the engine that uses it
    std::unique_ptr<Engine> m_engine;
    std::unordered_set<std::string> m_defined;  // absolute symbols already defined (runtime ones)
    mutable std::mutex m_mutex;
    BreakpointMode m_mode = BreakpointMode::Patch;
    // The native entries: a patch site, or (flag mode) a flag byte.
    struct Entry {
        const PatchSite* site = nullptr;
        std::uint8_t* summary = nullptr;  // the writable alias of the prefix's summary byte
        std::int64_t** count_slots = nullptr;  // and of its count slots word
        std::atomic<std::uint8_t>* flag = nullptr;
    };
    std::unordered_map<const vm::CodeInfo*, Entry> m_entries;
    Entry entry_of(const vm::CodeInfo* ci) const;  // one lookup under m_mutex
    std::vector<std::unique_ptr<std::atomic<std::uint8_t>[]>> m_flags;  // one array per module
    std::vector<std::shared_ptr<llvm::orc::ResourceTracker>> m_trackers;  // one per module
};

}  // namespace beamlet::jit
