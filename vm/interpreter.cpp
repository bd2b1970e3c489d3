// vm/interpreter.cpp — the threaded-code interpreter: one handler per instruction of
// vm/instructions.def, dispatched by computed goto. The handlers are one function, execute(),
// whose families live in vm/interpreter/*.inc (calls, frames, moves, tests, BIFs, floats,
// exceptions, messages, maps, bit syntax, fused pairs), included where they belong; this file
// holds the registers, the macros the handlers use and the ways out of the loop (errors,
// yields, waits).
// Stack traces are vm/stack_trace.*, the code outside any module vm/entry_code.*.
//
// Operand words (threaded by thread_module() in vm/code_threading.cpp):
//   source/destination  x(n) = n*8, y(n) = (n+1)*8 | 4, a literal term = the term itself
//   label               the code address (0 = none)
//   import              the Export*        fun index  the FunEntry*       list  count, elements
// Registers kept in locals: I (instruction), cp (continuation; null once saved in a frame and
// after a return), E (stack top, = y frame), HTOP (heap top), reds (reductions left).
#include "vm/interpreter.hpp"

#include <mutex>
#include <climits>
#include <cmath>
#include <cstring>

#include "vm/arith.hpp"
#include "vm/assert.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/bit_syntax.hpp"
#include "vm/code_engine.hpp"
#include "vm/copy.hpp"
#include "vm/entry_code.hpp"
#include "vm/map.hpp"
#include "vm/stack_trace.hpp"
#include "vm/term_order.hpp"
#include "vm/trace_frames.hpp"
#include "vm/trace_hooks.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

namespace {

const void* const* g_labels = nullptr;

// The {badarity, {Fun, Args}} and similar reasons.
Term make_tagged(Process* p, Term tag, Term value) { return make_tuple2(p, tag, value); }

}  // namespace

static RunResult execute(Process* p, Registers* regs);

// Helpers for handlers that need C++ objects with destructors: the dispatch loop leaves a
// handler by computed goto, which would skip their destructors, so they live out here.

// Drops the pending exception (a guard failed, or a catch took it).
[[gnu::noinline]] static void clear_exception(Process* p) { p->exception = PendingException{}; }

// Loads the module of [e] through the code path; false if that failed.
static bool load_module_of(Process* p, const Export* e) { return p->vm.ensure_loaded(e->module, p).empty(); }

// The undefined_function/3 of [p]'s own error handler (process_flag(error_handler, M)), loaded
// on demand; null for OTP's default handler, which the VM does itself.
static const Export* custom_error_handler(Process* p, const Export* e) {
    for (const auto& [flag, value] : p->kept_flags) {
        if (flag != atoms::error_handler) continue;
        if (value == atoms::error_handler || value == e->module) break;
        const Export* h = p->vm.exports.get(value, atom("undefined_function"), 3);
        if (h->address() == h->trampoline && !p->vm.ensure_loaded(value, p).empty()) return nullptr;
        return h->address() == h->trampoline ? nullptr : h;
    }
    // On OTP's boot, OTP's error_handler once the boot script has loaded it: modules load
    // through the code server, as on erl.
    // A module whose on_load function has still to run (the main module, loaded before boot)
    // is the VM's to finish, as before.
    const Module* m = p->vm.otp_error_handler ? p->vm.find_module(e->module) : nullptr;
    bool on_load = m && (m->on_load_pending.load(std::memory_order_acquire) || m->on_load_running.load(std::memory_order_acquire));
    if (p->vm.otp_error_handler && e->module != atoms::error_handler && !on_load) {
        const Export* h = p->vm.exports.get(atoms::error_handler, atom("undefined_function"), 3);
        if (h->address() != h->trampoline) return h;
    }
    return nullptr;
}

// Runs and clears the continuation of a trapped BIF.
static Term run_continuation(Process* p, Term* x) {
    BifContinuation cont = std::move(p->continuation);
    p->continuation = nullptr;
    p->trapped_in = nullptr;  // set again if it traps again
    return cont(p, x);
}

// bs_create_bin at [I]: resolves the segments (type, segment number, unit, flags, value,
// size; string values are StrT offsets) and builds the binary.
static Term create_binary(Process* p, const Word* I, Term* x, Term* E) {
    auto src = [&](Word w) -> Term {
        if ((w & 3) != 0) return Term(w);
        return (w & 4) ? *reinterpret_cast<Term*>(reinterpret_cast<char*>(E) + (w - 4))
                       : *reinterpret_cast<Term*>(reinterpret_cast<char*>(x) + w);
    };
    Word n = I[6];
    const Module* m = reinterpret_cast<const Module*>(I[7 + n]);
    std::vector<BinSegment> segs;
    segs.reserve(n / 6);
    for (Word i = 0; i < n; i += 6) {
        const Word* s = I + 7 + i;
        BinSegment seg;
        seg.type = s[0];
        seg.segment = s[1];
        seg.unit = s[2];
        seg.flags = s[3];
        seg.size = src(s[5]);
        if (seg.type == atoms::string) {
            seg.string_bytes = m->strings.data() + s[4];
            seg.value = NIL;
        } else {
            seg.value = src(s[4]);
        }
        segs.push_back(seg);
    }
    return bs_create_bin(p, segs);
}

Word op_word(Op op) {
    if (!g_labels) execute(nullptr, nullptr);
    return reinterpret_cast<Word>(g_labels[std::size_t(op)]);
}

void init_fun_entry(FunEntry& fe, const Word* code) {
    fe.code = code;
    fe.detour[0] = op_word(Op::i_undefined_lambda);
    fe.detour[1] = reinterpret_cast<Word>(&fe);
    if (code) fe.route_to_code();
    else fe.route_to_detour();
}

RunResult run_process(Process* p, Registers& regs) { return execute(p, &regs); }

namespace {
// One more call in a lazy marker's counter word (vm/instructions.def, i_jit_count).
Word count_call(const Word* counter) {
    std::atomic_ref<Word> word(*const_cast<Word*>(counter));
    Word n = word.load(std::memory_order_relaxed) + 1;
    word.store(n, std::memory_order_relaxed);
    return n;
}
}  // namespace

// The interpreter loop; called with [p] null once, to publish the handler addresses.
static RunResult execute(Process* p, Registers* regs) {
    static const void* const labels[] = {
#define BEAMLET_OP(name, number, signature, flags) &&op_##name,
#include "vm/instructions.def"
#undef BEAMLET_OP
    };
    if (!p) {
        g_labels = labels;
        return RunResult::Exited;
    }

    Term* const x = regs->x;
    double* const fr = regs->fr;
    for (Word i = 0; i < p->arity; ++i) x[i] = p->saved_x[i];
    const Word* I = p->ip;
    const Word* cp = p->cp;
    Term* E = p->stop;
    Term* HTOP = p->htop;
    int reds = CONTEXT_REDS;
    Word live = 0;          // live x registers at a context switch
    Term bif_args[4];
    int variant = 0;        // which of several instructions sharing one handler body is running
    const Export* call_export = nullptr;  // call_ext and apply: the export called,
    const Word* call_next = nullptr;      // where a body call goes on,
    Word call_frame_words = 0;            // and the frame a last call drops
    // Whether code at [at] is a BIF's export trampoline (traced or not).
    auto enters_bif = [](const Word* at) {
        return at[0] == op_word(Op::i_apply_bif) ||
               (at[0] == op_word(Op::i_export_breakpoint) && reinterpret_cast<const Export*>(at[1])->bif);
    };
    bool fetched = false;   // FETCH_INBOX's result

#define XREG(w) (*reinterpret_cast<Term*>(reinterpret_cast<char*>(x) + (w)))
#define YREG(w) (*reinterpret_cast<Term*>(reinterpret_cast<char*>(E) + ((w) - 4)))
#define REG(w) (((w) & 4) ? YREG(w) : XREG(w))
#define SRC(w) ((((w) & 3) == 0) ? REG(w) : Term(w))
#define DISPATCH() goto* reinterpret_cast<const void*>(*I)
#define NEXT(n) \
    do {        \
        I += (n); \
        DISPATCH(); \
    } while (0)
#define JUMP(addr)                                 \
    do {                                           \
        I = reinterpret_cast<const Word*>(addr);   \
        DISPATCH();                                \
    } while (0)
// Also records the current instruction and continuation: process_info(self(), current_function |
// current_stacktrace) and traps read them (a continuation left from an earlier call would add a
// frame that is gone). The reductions left go out and come back too: a BIF may charge its work
// (charge_work).
#define SWAPOUT() (p->htop = HTOP, p->stop = E, p->ip = I, p->cp = cp, p->slice_reds = reds)
#define SWAPIN() (HTOP = p->htop, E = p->stop, reds = int(std::max<SWord>(p->slice_reds, INT_MIN / 2)))
// Takes the messages that arrived into the queue. Receive tracing may run a match spec that
// builds terms on the heap, so then the heap top goes through the process.
#define FETCH_INBOX()                                                                               \
    ((p->all_trace_flags.load(std::memory_order_relaxed) & TRACE_RECEIVE)                          \
         ? (SWAPOUT(), fetched = p->fetch_inbox(), SWAPIN(), fetched)                               \
         : p->fetch_inbox())
#define ENSURE_HEAP(need, nlive)                                 \
    do {                                                         \
        if (Word(E - HTOP) < Word(need) || p->mbuf_words > p->heap_size_words) { \
            SWAPOUT();                                           \
            p->slice_reds -= SWord(std::min<Word>(garbage_collect(p, x, (nlive), (need)), CONTEXT_REDS)); \
            SWAPIN();                                            \
        }                                                        \
    } while (0)
#define RAISE(reason)        \
    do {                     \
        p->error(reason);    \
        goto handle_error;   \
    } while (0)
// A guard BIF failed: the exception it raised is dropped and the guard jumps to [label].
#define GUARD_FAIL(label)                    \
    do {                                     \
        clear_exception(p);                  \
        JUMP(label);                         \
    } while (0)
#define BIF_FAILED(export_ptr, n)                                   \
    do {                                                            \
        p->exception.bif_module = (export_ptr)->module;             \
        p->exception.bif_function = (export_ptr)->function;         \
        p->exception.bif_args.assign(bif_args, bif_args + (n));     \
        goto handle_error;                                          \
    } while (0)

    DISPATCH();

    // ================================================================ loader-only (never run)
#include "vm/interpreter/loader_only.inc"

    // ================================================================ calls and returns
#include "vm/interpreter/calls.inc"

    // ================================================================ stack frames and heap
#include "vm/interpreter/frames.inc"

    // ================================================================ moves
#include "vm/interpreter/moves.inc"

    // ================================================================ tests and jumps
#include "vm/interpreter/tests.inc"

    // ================================================================ BIFs and arithmetic
#include "vm/interpreter/bifs.inc"

    // ================================================================ floats
#include "vm/interpreter/floats.inc"

    // ================================================================ exceptions
#include "vm/interpreter/exceptions.inc"

    // ================================================================ messages
#include "vm/interpreter/messages.inc"

    // ================================================================ maps
#include "vm/interpreter/maps.inc"

    // ================================================================ bit syntax
#include "vm/interpreter/bit_syntax.inc"

    // ================================================================ fused pairs
#include "vm/interpreter/fused.inc"

    // ================================================================ error handling
handle_error: {
    SWAPOUT();
    PendingException& exc = p->exception;
    if (!exc.trace_built) {
        exc.stacktrace = build_stacktrace_list(p, I, cp, E, x);
        exc.trace_built = true;
    }
    // Find the innermost catch; the frame holding it starts at the nearest cp below it.
    Term* frame = E;
    Word catch_word = 0;
    for (Term* s = E; s < p->hend; ++s) {
        Word w = *s;
        if (is_header(w) && w != 0) {
            frame = s;
        } else if (is_catch(w)) {
            catch_word = w;
            break;
        }
    }
    if (p->trace_frames)
        p->vm.services.trace->exception_unwinding(p, E, catch_word ? frame : p->hend,
                                           catch_word ? catch_handler(catch_word) : nullptr);
    if (!catch_word) {
        p->exited = true;
        p->ip = I;
        p->reductions += CONTEXT_REDS - reds;
        return RunResult::Exited;
    }
    E = frame;
    p->stop = E;
    x[0] = THE_NON_VALUE;
    x[1] = exc.cls;
    x[2] = exc.reason;
    x[3] = make_tuple2(p, exc.cls, exc.stacktrace);
    SWAPIN();
    clear_exception(p);
    cp = nullptr;
    JUMP(catch_handler(catch_word));
}

context_switch:
    // Out of reductions at a call: I is the target; [live] x registers are arguments.
    SWAPOUT();
    p->ip = I;
    p->cp = cp;
    p->arity = live;
    p->saved_x.assign(x, x + live);
    p->reductions += CONTEXT_REDS - reds;
    return RunResult::Yield;

trap_suspend:
    // cp is where the trapping BIF returns; the continuation keeps what it needs, in its
    // closure and in the x registers it asked to keep.
    SWAPOUT();
    p->ip = trap_resume_code();
    p->cp = cp;
    p->arity = p->trap_live;
    p->saved_x.assign(x, x + p->trap_live);
    p->trap_live = 0;
    p->reductions += CONTEXT_REDS - reds;
    if (p->suspend_for == SuspendFor::Nothing) return RunResult::Yield;  // may continue at once
    return RunResult::Suspended;

suspend:
    // Suspended until p->suspend_for holds (a busy port, a pending purge, native code),
    // then resumed at I with [live] x registers.
    SWAPOUT();
    p->ip = I;
    p->cp = cp;
    p->arity = live;
    p->saved_x.assign(x, x + live);
    p->reductions += CONTEXT_REDS - reds;
    return RunResult::Suspended;

wait:
    SWAPOUT();
    p->ip = I;
    p->cp = cp;
    p->arity = 0;
    p->reductions += CONTEXT_REDS - reds;
    return RunResult::Wait;

#undef FUN_CALL_LAST_IF_TAIL
#undef XREG
#undef YREG
#undef REG
#undef SRC
#undef DISPATCH
#undef NEXT
#undef JUMP
#undef SWAPOUT
#undef SWAPIN
#undef ENSURE_HEAP
#undef RAISE
#undef BIF_FAILED
#undef GUARD_FAIL
}

}  // namespace beamlet::vm
