// tools/jit_loader.cpp — loading libbeamlet_jit.so on the first compilation.
#include "tools/jit_loader.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "vm/config.hpp"

namespace beamlet::tools {

namespace {

// Where the JIT library is: BEAMLET_JIT_LIBRARY, next to the executable, or the build tree.
std::string library_path() {
    if (const auto& path = vm::config().jit_library) return *path;
    std::error_code ec;
    std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        std::filesystem::path beside = exe.parent_path() / "libbeamlet_jit.so";
        if (std::filesystem::exists(beside, ec)) return beside.string();
    }
    return BEAMLET_JIT_LIBRARY;
}

}  // namespace

JitLoader::~JitLoader() {
    // The library stays mapped: native code of this run may still be on a thread's stack.
    delete m_engine.load();
}

bool JitLoader::load() {
    std::call_once(m_once, [this] {
        std::string path = library_path();
        m_library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!m_library) {
            m_error = dlerror();
            return;
        }
        using Create = vm::CodeEngine* (*)(vm::Vm*, std::string*);
        auto create = reinterpret_cast<Create>(dlsym(m_library, "beamlet_jit_create"));
        m_describe = reinterpret_cast<decltype(m_describe)>(dlsym(m_library, "beamlet_jit_describe"));
        if (!create || !m_describe) {
            m_error = path + ": not a beamlet JIT library";
            return;
        }
        vm::CodeEngine* engine = create(&m_vm, &m_error);
        if (!engine) return;
        m_engine.store(engine, std::memory_order_release);
    });
    if (!loaded()) {
        static std::once_flag told;
        std::call_once(told, [this] {
            std::fprintf(stderr, "beamlet: the JIT is not available here (%s); interpreting\n", m_error.c_str());
        });
    }
    return loaded();
}

std::string JitLoader::compile(vm::Module& module, const vm::GenericModule& code, const vm::ThreadLayout& layout) {
    if (!load()) return {};  // said once; the module runs interpreted
    return m_engine.load(std::memory_order_acquire)->compile(module, code, layout);
}

std::unique_ptr<vm::NativeCode> JitLoader::prepare(vm::Module& module, const vm::GenericModule& code,
                                                  const vm::ThreadLayout& layout, std::string* error) {
    if (!load()) {
        *error = m_error;
        return nullptr;
    }
    return m_engine.load(std::memory_order_acquire)->prepare(module, code, layout, error);
}

void JitLoader::adopt(vm::Module& module, vm::NativeCode& native) {
    m_engine.load(std::memory_order_acquire)->adopt(module, native);
}

bool JitLoader::set_breakpoint(const vm::CodeInfo* ci, bool on) {
    vm::CodeEngine* e = m_engine.load(std::memory_order_acquire);
    return e && e->set_breakpoint(ci, on);
}

int JitLoader::breakpoint_state(const vm::CodeInfo* ci) const {
    vm::CodeEngine* e = m_engine.load(std::memory_order_acquire);
    return e ? e->breakpoint_state(ci) : -1;
}

void JitLoader::set_every_process(const vm::CodeInfo* ci, bool on, std::int64_t* count_slots) {
    if (vm::CodeEngine* e = m_engine.load(std::memory_order_acquire)) e->set_every_process(ci, on, count_slots);
}

void JitLoader::describe(const vm::Module& module) const {
    if (vm::CodeEngine* e = m_engine.load(std::memory_order_acquire)) m_describe(e, &module);
    else std::printf("\n;; JIT patch sites: none (the JIT compiled nothing)\n");
}

}  // namespace beamlet::tools
