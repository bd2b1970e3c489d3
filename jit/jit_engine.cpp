// jit/jit_engine.cpp — compiling modules at install time and patching their entries.
#include "jit/jit_engine.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>

#include "jit/compiler.hpp"
#include "jit/dual_mapper.hpp"
#include "vm/atom_table.hpp"
#include "vm/config.hpp"
#include "vm/interpreter.hpp"
#include "vm/vm.hpp"

namespace beamlet::jit {

using namespace vm;

std::unique_ptr<JitCodeEngine> JitCodeEngine::create(Vm& vm, std::string* error) {
    // BEAMLET_JIT_OPT=0 (CodeGenOptLevel::None) or 1 (Less, the default: about twice as fast
    // code for a few times the compile time).
    int opt = vm::config().jit_optimise ? 1 : 0;
    // Objects depend on the target, the CPU and the options as well as on the module.
    auto host = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!host) {
        *error = llvm::toString(host.takeError());
        return nullptr;
    }
    // BEAMLET_JIT_BREAKPOINTS=flag: the flag-byte fallback instead of patching code.
    BreakpointMode mode = vm::config().jit_flag_breakpoints ? BreakpointMode::Flag : BreakpointMode::Patch;
    std::string flavour = host->getTargetTriple().str() + "|" + host->getCPU() + "|O" + std::to_string(opt) +
                          (mode == BreakpointMode::Flag ? "|flag" : "|patch");
    std::unique_ptr<DiskObjectCache> cache = DiskObjectCache::open_default(flavour);
    std::unique_ptr<Engine> engine = Engine::create(opt, error, cache.get());
    if (!engine) return nullptr;
    std::shared_ptr<llvm::orc::ResourceTracker> tracker;
    if (llvm::Error e = engine->add_module(runtime_module(engine->triple(), engine->data_layout()), &tracker)) {
        *error = llvm::toString(std::move(e));
        return nullptr;
    }
    auto enter = engine->lookup("bj.enter");
    if (!enter) {
        *error = llvm::toString(enter.takeError());
        return nullptr;
    }
    vm.services.jit_entry = reinterpret_cast<JitEntryFn>(*enter);
    if (vm::config().jit_debug)
        std::fprintf(stderr, "jit: %s, cpu %s, %s breakpoints, code sync: %s\n", engine->triple().c_str(),
                     engine->cpu().c_str(), mode == BreakpointMode::Flag ? "flag" : "patched",
                     code_sync_remaps() ? "cache maintenance + remap" : "cache maintenance");
    std::unique_ptr<JitCodeEngine> jit(new JitCodeEngine(vm, std::move(cache), std::move(engine)));
    jit->m_trackers.push_back(std::move(tracker));
    jit->m_mode = mode;
    return jit;
}

JitCodeEngine::~JitCodeEngine() = default;

namespace {

// A module compiled and linked, its markers not yet filled (CodeEngine::prepare).
struct JitNativeCode : NativeCode {
    struct Entry {
        const CodeInfo* ci;
        std::uint64_t address;
        std::size_t flag_index;
    };
    std::vector<Entry> entries;
    std::unique_ptr<std::atomic<std::uint8_t>[]> flags;
    std::shared_ptr<llvm::orc::ResourceTracker> tracker;
};

}  // namespace

std::unique_ptr<NativeCode> JitCodeEngine::prepare(Module& module, const GenericModule& code, const ThreadLayout& layout,
                                                   std::string* error) {
    auto started = std::chrono::steady_clock::now();
    auto native = std::make_unique<JitNativeCode>();
    if (m_mode == BreakpointMode::Flag) {
        native->flags = std::make_unique<std::atomic<std::uint8_t>[]>(module.functions.size() + 1);
        for (std::size_t i = 0; i <= module.functions.size(); ++i) native->flags[i].store(0, std::memory_order_relaxed);
    }
    CompiledModule compiled =
        compile_module(m_vm, module, code, layout, m_engine->arch(), m_engine->triple(), m_engine->data_layout(), m_mode,
                       reinterpret_cast<const std::uint8_t*>(native->flags.get()));
    // The addresses the code refers to by name; runtime ones are shared by every module.
    std::vector<std::pair<std::string, std::uint64_t>> absolutes;
    {
        std::lock_guard guard(m_mutex);
        for (auto& [name, value] : compiled.absolutes)
            if (m_defined.insert(name).second) absolutes.emplace_back(name, value);
    }
    if (llvm::Error e = m_engine->define_absolute(absolutes)) {
        *error = llvm::toString(std::move(e));
        return nullptr;
    }
    if (llvm::Error e = m_engine->add_module(std::move(compiled.ir), &native->tracker)) {
        *error = llvm::toString(std::move(e));
        return nullptr;
    }
    // Resolve everything first: the markers change only once the whole module links.
    for (const ResumePoint& rp : compiled.points) {
        if (rp.symbol.empty()) continue;  // no native code: the marker stays a no-op
        auto address = m_engine->lookup(rp.symbol);
        if (!address) {
            *error = llvm::toString(address.takeError());
            return nullptr;
        }
        native->markers.emplace_back(rp.marker, *address);
        if (rp.entry_of) native->entries.push_back({rp.entry_of, *address, rp.flag_index});
    }
    // BEAMLET_JIT_DEBUG=1: what each module became and what it cost.
    if (vm::config().jit_debug) {
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
        std::fprintf(stderr, "jit: %s: %zu functions, %zu resume points (%zu native) in %.2f ms (%.3f ms/function)\n",
                     atom_text(module.name).c_str(), module.functions.size(), compiled.points.size(),
                     native->markers.size(), ms, module.functions.empty() ? 0.0 : ms / double(module.functions.size()));
    }
    return native;
}

void JitCodeEngine::adopt(Module&, NativeCode& code) {
    auto& native = static_cast<JitNativeCode&>(code);
    std::lock_guard guard(m_mutex);
    for (const JitNativeCode::Entry& e : native.entries) {
        if (m_mode == BreakpointMode::Flag) m_entries[e.ci].flag = &native.flags[e.flag_index];
        else if (const PatchSite* site = m_engine->site(e.address))
            m_entries[e.ci] = Entry{site, m_engine->writable_alias(e.address - 16),
                                    reinterpret_cast<std::int64_t**>(m_engine->writable_alias(e.address - 32)), nullptr};
    }
    if (native.flags) m_flags.push_back(std::move(native.flags));
    m_trackers.push_back(std::move(native.tracker));
}

std::string JitCodeEngine::compile(Module& module, const GenericModule& code, const ThreadLayout& layout) {
    // At load, before any process can run the module: the markers are filled at once.
    std::string error;
    std::unique_ptr<NativeCode> native = prepare(module, code, layout, &error);
    if (!native) return error;
    for (auto [marker, address] : native->markers) {
        Word* words = module.code.get() + marker;
        words[1] = address;
        words[0] = op_word(Op::i_jit_enter);
    }
    adopt(module, *native);
    return {};
}

const PatchSite* JitCodeEngine::site_of(const CodeInfo* ci) const { return entry_of(ci).site; }

const std::atomic<std::uint8_t>* JitCodeEngine::flag_of(const CodeInfo* ci) const { return entry_of(ci).flag; }

JitCodeEngine::Entry JitCodeEngine::entry_of(const CodeInfo* ci) const {
    std::lock_guard guard(m_mutex);
    auto it = m_entries.find(ci);
    return it == m_entries.end() ? Entry{} : it->second;
}

bool JitCodeEngine::set_breakpoint(const CodeInfo* ci, bool on) {
    Entry e = entry_of(ci);
    if (e.site) {
        if (on) Engine::arm(*e.site);
        else Engine::disarm(*e.site);
        return true;
    }
    if (e.flag) {
        e.flag->store(on ? 1 : 0, std::memory_order_release);
        return true;
    }
    return false;
}

void JitCodeEngine::set_every_process(const CodeInfo* ci, bool on, std::int64_t* count_slots) {
    // The prefix words before the entry, read by the trampoline's filter (compiler.cpp);
    // written through the writable alias like the site itself: the slots before the summary
    // that says to use them. Flag mode calls the handler whenever the flag is set.
    Entry e = entry_of(ci);
    if (!e.summary) return;
    if (count_slots) std::atomic_ref<std::int64_t*>(*e.count_slots).store(count_slots, std::memory_order_release);
    std::atomic_ref<std::uint8_t>(*e.summary).store(count_slots ? 2 : on ? 1 : 0, std::memory_order_release);
}

int JitCodeEngine::breakpoint_state(const CodeInfo* ci) const {
    Entry e = entry_of(ci);
    if (e.site) return Engine::armed(*e.site) ? 1 : 0;
    if (e.flag) return e.flag->load(std::memory_order_acquire) != 0 ? 1 : 0;
    return -1;
}

}  // namespace beamlet::jit
