// jit/plugin.cpp — the JIT as a shared object (libbeamlet_jit.so). The VM loads it the first
// time it compiles a module (tools/jit_loader.cpp), so a run that never compiles (the
// interpreter engine, or a program that never gets hot) never maps LLVM. Its references to
// the VM resolve against the executable, which exports its symbols.
#include <cstdio>
#include <string>

#include "jit/jit_engine.hpp"
#include "vm/breakpoint_site.hpp"
#include "vm/atom_table.hpp"
#include "vm/module.hpp"

using namespace beamlet;

extern "C" {

// The engine for [vm], or null with a message in [*error].
[[gnu::visibility("default")]] vm::CodeEngine* beamlet_jit_create(vm::Vm* vm, std::string* error) {
    return jit::JitCodeEngine::create(*vm, error).release();
}

// beamlet dis --engine jit: each function's native entry, its patch-site bytes and whether its
// breakpoint is armed.
[[gnu::visibility("default")]] void beamlet_jit_describe(vm::CodeEngine* engine, const vm::Module* m) {
    auto& jit = static_cast<jit::JitCodeEngine&>(*engine);
    std::printf("\n;; JIT patch sites (%s)\n", jit.engine().arch() == jit::Arch::X86_64 ? "x86-64" : "AArch64");
    std::size_t size = jit::Engine::site_size(jit.engine().arch());
    for (const vm::FunctionInfo& f : m->functions) {
        const vm::CodeInfo* ci = m->code_info(f);
        std::printf("%s/%zu: ", vm::atom_text(f.name).c_str(), std::size_t(f.arity));
        const jit::PatchSite* site = jit.site_of(ci);
        if (const std::atomic<std::uint8_t>* flag = jit.flag_of(ci)) {
            std::printf("flag byte %p: %s\n", static_cast<const void*>(flag), flag->load() ? "armed" : "disarmed");
            continue;
        }
        if (!site) {
            std::printf("no native entry (its first instruction is interpreted; breakpoint %s)\n",
                        vm::threaded_breakpoint_set(ci) ? "set in the threaded code" : "off");
            continue;
        }
        std::printf("%p:", static_cast<void*>(site->exec));
        for (std::size_t i = 0; i < size; ++i) std::printf(" %02x", site->exec[i]);
        std::printf("  %s\n", jit::Engine::armed(*site) ? "armed" : "disarmed");
    }
}

}  // extern "C"
