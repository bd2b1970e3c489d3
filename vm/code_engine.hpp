// vm/code_engine.hpp — the seam out of vm/ for a native-code engine (jit/, DESIGN.md §5).
//
// With an engine the threaded code gets resume points: a two-word marker
// [i_jit_enter][native function] before each function's first instruction, each label's
// instruction, and each instruction that follows one the native code may hand back to the
// interpreter (calls, tests with slow paths, everything it does not compile). The interpreter
// stays the dispatcher: it enters native code at a marker, and native code returns the
// threaded address where interpretation goes on. Continuation pointers, catch labels and
// stack traces therefore keep using threaded addresses, whichever engine produced them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "vm/generic_code.hpp"
#include "vm/instructions.hpp"
#include "vm/services.hpp"
#include "vm/term.hpp"

namespace beamlet::vm {

struct CodeInfo;
struct Module;
struct Process;

// Where thread_module put each instruction of a GenericModule.
struct ThreadLayout {
    std::vector<Word> instr_pos;   // per GenericInstr: offset of its first word (~0: emits nothing)
    std::vector<Word> marker_pos;  // per GenericInstr: offset of the marker before it (~0: none)
    std::vector<Word> label_pos;   // per label: offset it resolves to
};

inline constexpr Word NO_POSITION = ~Word(0);

// Whether the JIT has a native emitter for [in]: vm/instructions.def's Native column (a
// select_val only when every value is an immediate, which word comparisons decide).
bool has_native_emitter(const GenericModule& code, const GenericInstr& in);
// True if native code for [in] always goes on to the next instruction in the same native
// function when it does not jump (so that instruction needs no resume point). The threaded
// code is laid out from it before any native code exists.
inline bool continues_natively(const GenericModule& code, const GenericInstr& in) {
    return has_native_emitter(code, in) && !ends_native_code(in.op);
}

// A module's native code, compiled but not yet reachable (the lazy JIT's first step): for
// each marker with native code, its offset in the module's code and the native function.
struct NativeCode {
    virtual ~NativeCode() = default;
    std::vector<std::pair<Word, Word>> markers;
};

class CodeEngine {
public:
    virtual ~CodeEngine() = default;
    // The lazy JIT (vm/native_compiler.hpp) in two steps. prepare() compiles [module] without
    // touching its code, on any thread (null, with [*error], if it cannot). adopt() registers
    // the native entries (breakpoints switch at their patch sites from then on); it runs
    // under the code modification permission once every thread sees the markers' native
    // function words, before the markers are switched on.
    virtual std::unique_ptr<NativeCode> prepare(Module& module, const GenericModule& code, const ThreadLayout& layout,
                                                std::string* error) = 0;
    virtual void adopt(Module& module, NativeCode& native) = 0;
    // Compiles [module] (threaded as [layout] says) and fills its markers; an error leaves the
    // markers as i_jit_skip, and the module runs interpreted.
    virtual std::string compile(Module& module, const GenericModule& code, const ThreadLayout& layout) = 0;
    // Function-entry breakpoints in native code (tracing's install and uninstall steps). Each
    // is one lookup: false / -1 when [ci]'s function has no native entry (tracing then uses the
    // threaded code's breakpoint word).
    virtual bool set_breakpoint(const CodeInfo* ci, bool on) = 0;
    virtual int breakpoint_state(const CodeInfo* ci) const = 0;  // -1 no native entry, 0 off, 1 on
    // What [ci]'s native breakpoint does for a process without the call flag: nothing (it
    // returns at once), or ([on]: a kind acts for every process, call_count or meta) call the
    // handler, or (with [count_slots], a lone call_count) only add one to
    // count_slots[the process's scheduler]. Kept a superset of the truth while a change is
    // staged.
    virtual void set_every_process(const CodeInfo* ci, bool on, std::int64_t* count_slots) = 0;
};

}  // namespace beamlet::vm
