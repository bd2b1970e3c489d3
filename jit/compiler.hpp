// jit/compiler.hpp — BEAM module -> LLVM IR (DESIGN.md §5).
//
// Each resume point of the threaded code (vm/code_engine.hpp) whose first instruction has a
// native emitter becomes one LLVM function with the uniform `tailcc` signature
//
//   ptr fn(ptr p, ptr x, ptr E, ptr htop, ptr cp, i64 reds)
//
// that runs the straight-line instructions up to the next resume point. Control passes
// between resume points with `musttail` calls (a call pushes its continuation on the Erlang
// stack as the threaded address after it; a return tail-calls the native code of that address
// when it has some), so the native stack never grows. Whatever the native code does not
// handle — an instruction without an emitter, the slow path of one with an emitter, a yield
// at a call — returns the threaded address to the interpreter, which carries on there and
// re-enters native code at the next marker. Function entries carry a patch site
// ("patchable-function-entry") and their CodeInfo* in prefix data for the breakpoint
// trampoline.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>

#include "jit/engine.hpp"
#include "vm/code_engine.hpp"
#include "vm/module.hpp"

namespace beamlet::vm {
struct Vm;
}

namespace beamlet::jit {

// How function-entry breakpoints work in native code: a patch site switched by writing the
// code (the default), or a flag byte per function that the entry tests (no code writes; the
// documented fallback, BEAMLET_JIT_BREAKPOINTS=flag).
enum class BreakpointMode { Patch, Flag };

// One compiled resume point.
struct ResumePoint {
    std::size_t instr;     // the GenericInstr it starts at
    vm::Word marker;       // offset of its marker in the threaded code
    std::string symbol;    // the LLVM function (empty: no native code, the marker stays a no-op)
    const vm::CodeInfo* entry_of = nullptr;  // set when it is a function's entry
    std::size_t flag_index = 0;              // BreakpointMode::Flag: its byte in the flag array
};

struct CompiledModule {
    llvm::orc::ThreadSafeModule ir;
    std::vector<ResumePoint> points;
    // The symbols the code refers to for addresses of this run (threaded code, literals,
    // exports, runtime helpers); the engine defines them as absolute before linking.
    std::vector<std::pair<std::string, vm::Word>> absolutes;
};

// The module's identity in symbol names and the object cache (a hash of its .beam file).
std::string module_key(const vm::Module& module);

// Builds the IR for [module]; [arch] selects the patch-site size and the trampoline.
CompiledModule compile_module(vm::Vm& vm, vm::Module& module, const vm::GenericModule& code, const vm::ThreadLayout& layout,
                              Arch arch, const std::string& triple, const std::string& data_layout,
                              BreakpointMode mode = BreakpointMode::Patch, const std::uint8_t* flags = nullptr);

// The runtime module: the C-callable entry into native code (`bj.enter`).
llvm::orc::ThreadSafeModule runtime_module(const std::string& triple, const std::string& data_layout);

}  // namespace beamlet::jit
