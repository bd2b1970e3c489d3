// jit/engine.hpp — LLVM 19 ORC behind one small class: eager compilation of LLVM modules with
// fast codegen, JITLink into a dual-mapped memory range (an executable view and a writable
// alias of the same pages), and the breakpoint patch sites of compiled functions
// (DESIGN.md §5; the README's "The JIT").
//
// Patch sites. A function whose name starts with PATCHABLE_PREFIX must carry the attribute
// "patchable-function-entry" (x86-64: "5" bytes; AArch64: "2" words). When its module is
// linked, a JITLink plugin rewrites the NOPs at its entry, before any code can run, into the
// disabled form of a call to the module's function named TRAMPOLINE_NAME:
//   x86-64:  A9 rel32  (test eax, imm32)   <->  E8 rel32 (call trampoline): one byte toggles
//   AArch64: mov x17, x30 ; nop            <->  mov x17, x30 ; bl trampoline: one word toggles
// and records the site. arm()/disarm() write through the writable alias (AArch64: followed by
// an instruction-cache clean of the executable range); the caller makes every other thread
// pass a code barrier (thread progress) before relying on the change.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/Support/Error.h>

namespace llvm {
class ObjectCache;
}

namespace llvm::orc {
class LLJIT;
class ResourceTracker;
}

namespace beamlet::jit {

inline constexpr const char* PATCHABLE_PREFIX = "bjf.";
inline constexpr const char* TRAMPOLINE_NAME = "bj.trampoline";

enum class Arch { X86_64, AArch64 };

// One function entry that can be switched between its disabled and enabled form.
struct PatchSite {
    std::uint8_t* exec = nullptr;      // the entry in the executable view
    std::uint8_t* writable = nullptr;  // the same bytes in the writable alias
    std::uint64_t trampoline = 0;      // the call target when enabled
};

class Engine {
public:
    // An engine for the host (x86-64 or AArch64). [opt_level]: 0 = CodeGenOptLevel::None,
    // 1 = Less. Null with a message in [error] if LLVM cannot target the host. [cache] (may be
    // null; it must outlive the engine) keeps compiled objects between runs.
    static std::unique_ptr<Engine> create(int opt_level, std::string* error, llvm::ObjectCache* cache = nullptr);
    ~Engine();

    Arch arch() const;
    // The target triple and data layout modules must use.
    std::string triple() const;
    std::string data_layout() const;

    // Compiles and links [module]; its code stays until [tracker] (set on success) is removed.
    // Like every ORC tracker, [tracker] must be released before the engine is destroyed.
    llvm::Error add_module(llvm::orc::ThreadSafeModule module, std::shared_ptr<llvm::orc::ResourceTracker>* tracker);
    // Defines absolute symbols (name, address) that later modules may refer to.
    llvm::Error define_absolute(const std::vector<std::pair<std::string, std::uint64_t>>& symbols);
    // The host CPU name (part of the object cache's key).
    std::string cpu() const;

    // The address of a linked symbol.
    llvm::Expected<std::uint64_t> lookup(const std::string& name);

    // The patch site of the linked function at [entry] (its executable address), or null.
    const PatchSite* site(std::uint64_t entry) const;
    // Every patch site, in link order.
    std::vector<const PatchSite*> sites() const;
    static void arm(const PatchSite& site);
    static void disarm(const PatchSite& site);
    static bool armed(const PatchSite& site);
    // The number of bytes that make up a site (x86-64: 5; AArch64: 8).
    static std::size_t site_size(Arch arch);

    // The bytes of the disabled and enabled forms of a site at [at] calling [trampoline].
    static std::vector<std::uint8_t> disabled_form(Arch arch, std::uint64_t at, std::uint64_t trampoline);
    static std::vector<std::uint8_t> enabled_form(Arch arch, std::uint64_t at, std::uint64_t trampoline);

    // The writable alias of executable address [exec] (null if not JIT memory).
    std::uint8_t* writable_alias(std::uint64_t exec) const;

private:
    Engine() = default;
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace beamlet::jit
