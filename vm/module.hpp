// vm/module.hpp — loaded code: Module, function headers (CodeInfo), lambdas (FunEntry), Export.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "vm/code_engine.hpp"
#include "vm/generic_code.hpp"
#include "vm/term.hpp"

namespace beamlet::vm {

struct GenericBp;
struct Module;
struct Process;

// A BIF: [args] holds its arguments; returns the result, or THE_NON_VALUE after p->raise().
using BifFn = Term (*)(Process* p, Term* args);

// The 5-word header that precedes every function in loaded code (OTP's ErtsCodeInfo): the
// func_info instruction word, the breakpoint slot tracing chains GenericBps from, and the MFA.
// The function's first instruction follows it; that word is where i_generic_breakpoint goes.
struct CodeInfo {
    Word op;                              // the threaded func_info instruction
    std::atomic<GenericBp*> gen_bp;       // null when the function carries no breakpoint
    Term module;
    Term function;
    Word arity;

    const Word* code() const { return reinterpret_cast<const Word*>(this + 1); }
    static const CodeInfo* from_code(const Word* first_instruction) {
        return reinterpret_cast<const CodeInfo*>(first_instruction) - 1;
    }
};
static_assert(sizeof(CodeInfo) == 5 * sizeof(Word));

// A lambda of a module (FunT entry); closures point to it.
struct FunEntry {
    Module* module = nullptr;
    Term module_name = 0;
    Term function = 0;        // the compiler-generated name, e.g. '-main/0-fun-0-'
    Word arity = 0;           // arity of the generated function: user arity + num_free
    Word num_free = 0;
    Word index = 0;
    Word old_uniq = 0;
    const Word* code = nullptr;  // the fun's own code; null for a stand-in
    // [i_undefined_lambda][this]: where calls go when the fun has no code of its own, or once
    // its module's purge has begun (Vm::prepare_purge), as OTP's fun entries then point at
    // beam_unloaded_fun.
    Word detour[2] = {};
    // A stand-in for a fun of a module that is not loaded (Vm::lambda_stub): its module's MD5,
    // kept for term_to_binary. Null for a loaded module's funs.
    const std::uint8_t* stub_md5 = nullptr;

    // Where a call of the fun jumps: [code], or [detour]. Read and written through the
    // functions below (it changes while other threads call the fun).
    std::atomic<const Word*> route{nullptr};

    const Word* address() const { return route.load(std::memory_order_acquire); }
    void route_to_code() { route.store(code, std::memory_order_release); }
    void route_to_detour() { route.store(detour, std::memory_order_release); }
    bool runs_own_code() const { return code && address() == code; }
    Word user_arity() const { return arity - num_free; }
};

// An exported function {M, F, A}. Remote calls always jump to address(); for a module that is
// not loaded it points at the trampoline's i_call_error_handler, for a BIF at i_apply_bif.
struct Export {
    Term module = 0;
    Term function = 0;
    Word arity = 0;
    std::atomic<const Word*> addresses[2] = {};  // one per code index (DESIGN.md §3)
    BifFn bif = nullptr;                           // set for BIFs
    // Trampoline code: [op][Export*] — the op is i_call_error_handler or i_apply_bif.
    Word trampoline[2] = {};
    // Global call tracing (DESIGN.md §3): the breakpoint chain, the trampoline that runs it
    // ([i_export_breakpoint][Export*]) and the address calls continue at afterwards.
    std::atomic<GenericBp*> gen_bp{nullptr};
    Word bp_trampoline[2] = {};
    std::atomic<const Word*> bp_original{nullptr};
    // A BIF with a global breakpoint: calls go through the export instead of straight to the BIF.
    std::atomic<bool> bif_traced{false};
    // Native here, but Erlang code in OTP (its module's body is more than an
    // erlang:nif_error/1 stub: erlang:binary_to_atom/1, ...): a tail call to it stays one.
    std::atomic<bool> erlang_in_otp{false};

    const Word* address() const;
    bool is_bif() const { return bif != nullptr; }
};

// The active code index (0 or 1): which Export::addresses entry running code uses.
extern std::atomic<unsigned> g_active_code_ix;
inline const Word* Export::address() const {
    return addresses[g_active_code_ix.load(std::memory_order_acquire)].load(std::memory_order_acquire);
}

struct FunctionInfo {
    Term name = 0;
    Word arity = 0;
    Word header_offset = 0;   // word offset of the CodeInfo in Module::code
    Word end_offset = 0;      // word offset one past the function's last instruction
    bool exported = false;
    Export* export_entry = nullptr;   // set at install for exported functions
};

struct LineEntry {
    Word code_offset;   // word offset of the first instruction the location applies to
    Word line;
    Word file_index;
};

// A loaded module: threaded code (function headers included), its lambdas, exports and line
// table. Code never moves once installed: headers and funs point into it.
// A module's code as loaded and where the threaded code put it: what the JIT compiles.
struct LazyNative {
    GenericModule code;
    ThreadLayout layout;
};

struct Module {
    Term name = 0;
    std::unique_ptr<Word[]> code;
    Word code_size_words = 0;
    std::vector<FunctionInfo> functions;
    std::vector<std::unique_ptr<FunEntry>> funs;
    std::vector<LineEntry> lines;            // sorted by code_offset
    std::vector<std::string> files;
    std::vector<Term> file_names;            // files as Erlang strings, literals (stack traces)
    std::vector<std::uint8_t> strings;       // StrT, for bs_match_string and bs_create_bin
    std::uint8_t md5[16] = {};
    std::uint64_t content_hash = 0;          // GenericModule::content_hash
    Term attributes = NIL;
    Term compile_info = NIL;
    // Its literals (GenericModule::literal_lo...), released when it is purged. The binaries
    // are the module's until then (a module never published, or still loaded when the VM
    // ends, lets them go when it is destroyed).
    const Term* literal_lo = nullptr;
    const Term* literal_hi = nullptr;
    Term* literal_off_heap = nullptr;
    std::string source_path;
    // -on_load(F/0): the function to run before the module's exports are published (0: none),
    // and whether it is still to run (the exports stay undefined until it returns ok).
    Term on_load_function = 0;
    std::atomic<bool> on_load_pending{false};
    std::atomic<bool> on_load_running{false};
    // It calls erlang:load_nif/2: its functions may become NIFs (it runs interpreted).
    bool loads_nifs = false;
    // Lazy JIT: what compiling it needs, kept from loading until it is compiled (null when it
    // is not to be compiled lazily), and whether it has been asked for.
    std::unique_ptr<LazyNative> lazy_native;
    std::atomic<bool> native_requested{false};

    Module() = default;
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;
    ~Module();

    bool contains(const Word* p) const { return p >= code.get() && p < code.get() + code_size_words; }
    // The function whose code contains [p], or null.
    const FunctionInfo* function_at(const Word* p) const;
    const CodeInfo* code_info(const FunctionInfo& f) const {
        return reinterpret_cast<const CodeInfo*>(code.get() + f.header_offset);
    }
    // The source location of the instruction at [p]: {line, file index}, line 0 if unknown.
    LineEntry location_at(const Word* p) const;
};

}  // namespace beamlet::vm
