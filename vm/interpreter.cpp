// vm/interpreter.cpp — the threaded-code interpreter: one handler per instruction of
// vm/instructions.def, dispatched by computed goto.
//
// Operand words (threaded by thread_module() in vm/code_threading.cpp):
//   source/destination  x(n) = n*8, y(n) = (n+1)*8 | 4, a literal term = the term itself
//   label               the code address (0 = none)
//   import              the Export*        fun index  the FunEntry*       list  count, elements
// Registers kept in locals: I (instruction), cp (continuation; null once saved in a frame and
// after a return), E (stack top, = y frame), HTOP (heap top), reds (reductions left).
#include "vm/interpreter.hpp"

#include <mutex>
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
#include "vm/map.hpp"
#include "vm/term_order.hpp"
#include "vm/trace_frames.hpp"
#include "vm/trace_hooks.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

namespace {

const void* const* g_labels = nullptr;

// The one instruction every process's outermost frame returns to (set up once).
const Word* normal_exit_code() {
    static const Word code[1] = {op_word(Op::i_normal_exit)};
    return code;
}

inline Term make_tuple2(Process* p, Term a, Term b) {
    Term* hp = p->alloc(3);
    hp[0] = make_arityval(2);
    hp[1] = a;
    hp[2] = b;
    return make_boxed(hp);
}

Term make_location(Process* p, const Module* m, const Word* at) {
    LineEntry loc = m->location_at(at);
    if (loc.line == 0) return NIL;
    const std::string& file = m->files[loc.file_index];
    // [{file, "name"}, {line, N}]
    Term* hp = p->alloc(2 * file.size());
    Term name = NIL;
    for (std::size_t i = file.size(); i-- > 0;) {
        name = make_cons_on(hp, make_small(static_cast<unsigned char>(file[i])), name);
        hp += 2;
    }
    Term file_t = make_tuple2(p, atoms::file, name);
    Term line_t = make_tuple2(p, atoms::line, make_small(SWord(loc.line)));
    Term* cells = p->alloc(4);
    Term tail = make_cons_on(cells + 2, line_t, NIL);
    return make_cons_on(cells, file_t, tail);
}

Term make_frame(Process* p, Term m, Term f, Term arity_or_args, Term location) {
    Term* hp = p->alloc(5);
    hp[0] = make_arityval(4);
    hp[1] = m;
    hp[2] = f;
    hp[3] = arity_or_args;
    hp[4] = location;
    return make_boxed(hp);
}

Term list_from(Process* p, const Term* items, Word n) {
    Term list = NIL;
    Term* hp = p->alloc(2 * n);
    for (Word i = n; i-- > 0;) {
        list = make_cons_on(hp, items[i], list);
        hp += 2;
    }
    return list;
}

// Calls [fn] with each return address of [p]'s call chain, innermost first: [cp], unless it is
// the one saved in the current frame (then the stack has it), and those saved on the stack
// from [E] up (raw code pointers among the terms: primary tag 00, never zero).
template <typename Fn>
void walk_return_addresses(Process* p, const Term* E, const Word* cp, Fn&& fn) {
    const Term* first_saved = nullptr;
    for (const Term* s = E; s < p->hend; ++s)
        if (is_header(*s) && *s != 0) {
            first_saved = s;
            break;
        }
    if (cp && !(first_saved && reinterpret_cast<const Word*>(*first_saved) == cp)) fn(cp);
    for (const Term* s = first_saved; s && s < p->hend; ++s)
        if (is_header(*s) && *s != 0) fn(reinterpret_cast<const Word*>(*s));
}

// Builds the stacktrace list for the pending exception of [p]: the failing BIF (if any), the
// function at [I], the continuation [cp] and the frames on the stack, at most 8 as in OTP.
Term build_stacktrace_list(Process* p, const Word* I, const Word* cp, const Term* E, const Term* x) {
    constexpr int MAX_DEPTH = 8;
    std::vector<Term> frames;
    PendingException& exc = p->exception;
    if (exc.bif_module && !exc.raised_by_bif) {
        Term args = list_from(p, exc.bif_args.data(), exc.bif_args.size());
        Term info = NIL;
        if (exc.bif_module == atoms::erlang) {
            // [{error_info, #{module => erl_erts_errors}}], as OTP 25 adds for erlang BIFs.
            std::vector<std::pair<Term, Term>> pairs{{atoms::module, atom("erl_erts_errors")}};
            if (exc.error_cause) pairs.emplace_back(atom("cause"), exc.error_cause);
            Term map = map_from_pairs(p, std::move(pairs));
            Term pair = make_tuple2(p, atoms::error_info, map);
            info = list_from(p, &pair, 1);
        }
        frames.push_back(make_frame(p, exc.bif_module, exc.bif_function, args, info));
    }
    auto add_code_frame = [&](const Word* at, bool is_return_address) {
        const Module* m = p->vm.module_containing(at);
        if (!m) return;
        const FunctionInfo* fi = m->function_at(at);
        if (!fi) return;
        const Word* where = is_return_address ? at - 1 : at;
        Term arity = make_small(SWord(fi->arity));
        if (frames.empty() && exc.frame_args != THE_NON_VALUE) arity = exc.frame_args;  // error/2
        frames.push_back(make_frame(p, m->name, fi->name, arity, make_location(p, m, where)));
    };
    const Module* m = p->vm.module_containing(I);
    if (m && (!exc.bif_module || exc.raised_by_bif)) {
        const FunctionInfo* fi = m->function_at(I);
        if (fi && I == m->code.get() + fi->header_offset) {
            // function_clause: the frame carries the arguments.
            Term args = list_from(p, x, fi->arity);
            frames.push_back(make_frame(p, m->name, fi->name, args, make_location(p, m, I + 5)));
        } else {
            add_code_frame(I, false);
        }
    } else if (m && !exc.bif_tail_call) {
        add_code_frame(I, false);
    }
    walk_return_addresses(p, E, cp, [&](const Word* at) {
        if (int(frames.size()) < MAX_DEPTH) add_code_frame(at, true);
    });
    if (frames.size() > std::size_t(MAX_DEPTH)) frames.resize(MAX_DEPTH);
    return list_from(p, frames.data(), frames.size());
}

Term stacktrace_of(Process* p) {
    std::vector<Term> frames;
    auto add = [&](const Word* at, bool is_return_address) {
        const Module* m = p->vm.module_containing(at);
        const FunctionInfo* fi = m ? m->function_at(at) : nullptr;
        if (!fi) return;
        const Word* where = is_return_address ? at - 1 : at;
        frames.push_back(make_frame(p, m->name, fi->name, make_small(SWord(fi->arity)), make_location(p, m, where)));
    };
    add(p->ip, false);
    walk_return_addresses(p, p->stop, p->cp, [&](const Word* at) {
        if (frames.size() < 8) add(at, true);
    });
    return list_from(p, frames.data(), frames.size());
}

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
        if (value == atoms::error_handler || value == e->module) return nullptr;
        const Export* h = p->vm.exports.get(value, atom("undefined_function"), 3);
        if (h->address() == h->trampoline && !p->vm.ensure_loaded(value, p).empty()) return nullptr;
        return h->address() == h->trampoline ? nullptr : h;
    }
    return nullptr;
}

// Runs and clears the continuation of a trapped BIF.
static Term run_continuation(Process* p, Term* x) {
    BifContinuation cont = std::move(p->continuation);
    p->continuation = nullptr;
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

const Word* trace_return_code() {
    static const Word code[1] = {op_word(Op::i_trace_return)};
    return code;
}

// The instruction a trapped process resumes at.
static const Word* trap_resume_code() {
    static const Word code[1] = {op_word(Op::i_trap_resume)};
    return code;
}

// erlang:hibernate/3's code: loop_rec (no message: to wait) x3; call_ext_only 0
// beamlet:hibernate_wake/0, which calls M:F(A) from the one frame on the stack; wait (back to
// loop_rec). The woken process calls M:F(A) with the message still in its queue.
static Word g_hibernate_code[8];

const Word* hibernate_code(Vm& vm) {
    static std::once_flag once;
    std::call_once(once, [&] {
        Word* code = g_hibernate_code;
        code[0] = op_word(Op::loop_rec);
        code[1] = reinterpret_cast<Word>(&code[6]);
        code[2] = 3 * sizeof(Term);
        code[3] = op_word(Op::call_ext_only);
        code[4] = 0;
        code[5] = reinterpret_cast<Word>(vm.exports.get(atom("beamlet"), atom("hibernate_wake"), 0));
        code[6] = op_word(Op::wait);
        code[7] = reinterpret_cast<Word>(&code[0]);
    });
    return g_hibernate_code;
}

bool in_hibernate_code(const Word* ip) { return ip >= g_hibernate_code && ip < g_hibernate_code + 8; }

Word op_word(Op op) {
    if (!g_labels) execute(nullptr, nullptr);
    return reinterpret_cast<Word>(g_labels[std::size_t(op)]);
}

void prepare_call(Process* p, const Export* e, const std::vector<Term>& args) {
    prepare_call_address(p, e->address(), args);
}

void prepare_call(Process* p, const Export* e, const Term* args, Word n) {
    p->ip = e->address();
    p->cp = normal_exit_code();
    p->saved_x.assign(args, args + n);
    p->arity = n;
}

void prepare_call_address(Process* p, const Word* address, const std::vector<Term>& args) {
    p->ip = address;
    p->cp = normal_exit_code();
    p->saved_x = args;
    p->arity = args.size();
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
// Also records the current instruction: process_info(self(), current_function) and traps read it.
#define SWAPOUT() (p->htop = HTOP, p->stop = E, p->ip = I)
#define SWAPIN() (HTOP = p->htop, E = p->stop)
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
            reds -= int(std::min<Word>(garbage_collect(p, x, (nlive), (need)), CONTEXT_REDS)); \
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
op_label:
op_int_code_end:
op_on_load:
op_line:
op_nif_start:
    BEAMLET_UNREACHABLE();

    // ================================================================ calls and returns
op_func_info:
    // Reached through a function's clause-failure label: I is the header.
    p->error(atoms::function_clause);
    goto handle_error;

op_call:
    cp = I + 3;
    if (--reds <= 0) {
        live = I[1];
        I = reinterpret_cast<const Word*>(I[2]);
        goto context_switch;
    }
    JUMP(I[2]);

op_call_last:
    cp = reinterpret_cast<const Word*>(E[0]);
    E += I[3] + 1;
    if (--reds <= 0) {
        live = I[1];
        I = reinterpret_cast<const Word*>(I[2]);
        goto context_switch;
    }
    JUMP(I[2]);

op_call_only:
    if (--reds <= 0) {
        live = I[1];
        I = reinterpret_cast<const Word*>(I[2]);
        goto context_switch;
    }
    JUMP(I[2]);

op_call_ext:
    variant = 0;
    goto call_ext_common;
op_call_ext_last:
    variant = 1;
    goto call_ext_common;
op_call_ext_only:
    variant = 2;
call_ext_common: {
    const Export* e = reinterpret_cast<const Export*>(I[2]);
    if (e->bif && !e->bif_traced.load(std::memory_order_relaxed)) {
        // A BIF is called in place (as OTP's loader does), so that a failure's stack trace
        // shows the calling function and line.
        SWAPOUT();
        Term r = e->bif(p, x);
        SWAPIN();
        if (r == THE_NON_VALUE) {
            if (p->exception.cls == 0) {
                if (p->discard_stack) {
                    // erlang:hibernate/3: the BIF replaced the stack; nothing to return to.
                    p->discard_stack = false;
                    cp = normal_exit_code();  // returning from M:F(A) ends the process
                    JUMP(p->ip);
                }
                // Trapped: into Erlang code (apply/2,3), a call to p->ip, or into a
                // continuation that runs when the process is resumed.
                if (variant == 0) cp = I + 3;
                else if (variant == 1) {
                    cp = reinterpret_cast<const Word*>(E[0]);
                    E += I[3] + 1;
                }
                if (p->continuation) goto trap_suspend;
                JUMP(p->ip);
            }
            p->exception.bif_module = e->module;
            p->exception.bif_function = e->function;
            p->exception.bif_args.assign(x, x + e->arity);
            p->exception.bif_tail_call = variant != 0;
            goto handle_error;
        }
        x[0] = r;
        if (variant == 0) {
            I += 3;
        } else {
            if (variant == 1) {
                cp = reinterpret_cast<const Word*>(E[0]);
                E += I[3] + 1;
            }
            I = cp;
            cp = nullptr;
        }
        if (p->yield_requested) {
            // erlang:yield/0, or an exit signal to oneself: switch out at the continuation.
            p->yield_requested = false;
            live = 1;
            goto context_switch;
        }
        DISPATCH();
    }
    if (variant == 0) cp = I + 3;
    else if (variant == 1) {
        cp = reinterpret_cast<const Word*>(E[0]);
        E += I[3] + 1;
    }
    if (--reds <= 0) {
        live = I[1];
        I = e->address();
        goto context_switch;
    }
    JUMP(e->address());
}

op_return_:
    I = cp;
    cp = nullptr;
    DISPATCH();

op_i_normal_exit:
    SWAPOUT();
    p->return_value = x[0];
    p->exited = true;
    p->exit_reason = atoms::normal;
    p->ip = I;
    p->reductions += CONTEXT_REDS - reds;
    return RunResult::Exited;

op_i_apply_bif: {
    // The export trampoline of a BIF: arguments are in x0..; the result goes to x0.
    const Export* e = reinterpret_cast<const Export*>(I[1]);
    SWAPOUT();
    Term r = e->bif(p, x);
    SWAPIN();
    if (r == THE_NON_VALUE) {
        if (p->exception.cls == 0) {
            // The BIF trapped: continue where it asked (e.g. apply/3 into Erlang code), or
            // suspend until its continuation may run.
            if (p->continuation) goto trap_suspend;
            I = p->ip;
            DISPATCH();
        }
        p->exception.bif_module = e->module;
        p->exception.bif_function = e->function;
        p->exception.bif_args.assign(x, x + e->arity);
        goto handle_error;
    }
    x[0] = r;
    I = cp;
    cp = nullptr;
    if (p->yield_requested) {
        p->yield_requested = false;
        live = 1;
        goto context_switch;
    }
    DISPATCH();
}

op_i_call_nif: {
    // A function bound to a NIF: I is its first instruction, its arguments are in x0...
    const CodeInfo* ci = CodeInfo::from_code(I);
    SWAPOUT();
    Term r = p->vm.services.nif_call(p, ci, x);
    SWAPIN();
    if (r == THE_NON_VALUE) {
        p->exception.bif_module = ci->module;
        p->exception.bif_function = ci->function;
        p->exception.bif_args.assign(x, x + ci->arity);
        goto handle_error;
    }
    x[0] = r;
    I = cp;
    cp = nullptr;
    DISPATCH();
}

op_i_call_error_handler: {
    // The export trampoline of a function whose module is not loaded (yet), or that its
    // module does not have: what OTP's error_handler:undefined_function/3 does. A process
    // with its own error_handler flag has that module's undefined_function/3 called instead.
    const Export* e = reinterpret_cast<const Export*>(I[1]);
    const Export* handler = custom_error_handler(p, e);
    if (!handler) {
        SWAPOUT();
        bool loaded = load_module_of(p, e);
        SWAPIN();
        const Word* target = e->address();
        if (loaded && target != I) JUMP(target);
        // Its on_load function is still to run (or running): beamlet_internal runs it, then
        // makes the call.
        if (const Module* m = loaded ? p->vm.find_module(e->module) : nullptr;
            m && (m->on_load_pending.load(std::memory_order_acquire) || m->on_load_running.load(std::memory_order_acquire))) {
            static const Export* run = p->vm.exports.get(atom("beamlet_internal"), atom("on_load_then_apply"), 3);
            SWAPOUT();
            p->vm.ensure_loaded(run->module, p);
            SWAPIN();
            handler = run;
        }
        // A loaded module may take calls to functions it lacks: M:'$handle_undefined_function'(F, Args).
        if (loaded && !handler) handler = p->vm.exports.find(e->module, atom("$handle_undefined_function"), 2);
        if (handler && handler->address() == handler->trampoline) handler = nullptr;
    }
    if (handler) {
        Word arity = e->arity;
        ENSURE_HEAP(2 * arity, arity);
        Term args = NIL;
        for (Word i = arity; i-- > 0;) {
            HTOP[0] = x[i];
            HTOP[1] = args;
            args = make_list(HTOP);
            HTOP += 2;
        }
        if (handler->arity == 2) {
            x[0] = e->function;
            x[1] = args;
        } else {
            x[0] = e->module;
            x[1] = e->function;
            x[2] = args;
        }
        JUMP(handler->address());
    }
    p->error(atoms::undef);
    p->exception.bif_module = e->module;
    p->exception.bif_function = e->function;
    p->exception.bif_args.assign(x, x + e->arity);
    goto handle_error;
}

op_i_generic_breakpoint: {
    // I is the function's first instruction; its original word is kept by tracing. Tracing
    // may push trace frames, so the stack and continuation pointers go through the process.
    const CodeInfo* ci = CodeInfo::from_code(I);
    SWAPOUT();
    p->cp = cp;
    Word original = p->vm.services.trace->function_breakpoint(p, ci, x);
    SWAPIN();
    cp = p->cp;
    goto* reinterpret_cast<const void*>(original);
}

op_i_jit_enter: {
    // Native code for the instructions after this marker. It returns the threaded address to
    // go on at; the low bit set means "out of reductions at a call": switch out there.
    SWAPOUT();
    const Word* next = p->vm.services.jit_entry(reinterpret_cast<const void*>(I[1]), p, x, E, HTOP, cp, reds);
    SWAPIN();
    cp = p->cp;
    reds = int(p->jit_reds);
    if (reinterpret_cast<Word>(next) & 1) {
        I = reinterpret_cast<const Word*>(reinterpret_cast<Word>(next) & ~Word(1));
        live = p->jit_live;
        goto context_switch;
    }
    JUMP(next);
}

op_i_jit_skip:
    NEXT(2);

op_i_jit_count:
    // Schedulers may count at once and lose a count: the count is only a heuristic. The
    // process that makes the module hot waits for its native code (off its clock); the others
    // go on interpreted meanwhile.
    if (count_call(I + 1) == p->vm.jit_hot_calls && p->vm.request_native_code(p, I)) {
        live = CodeInfo::from_code(I)->arity;
        goto native_code_wait;
    }
    NEXT(2);

op_i_trace_return: {
    // A traced function returned into its trace frame (return_from, return_to, accounting).
    SWAPOUT();
    const Word* resume_at = p->vm.services.trace->trace_frame_returned(p, x[0]);
    SWAPIN();
    I = resume_at;
    cp = nullptr;
    DISPATCH();
}

op_i_export_breakpoint: {
    Export* e = reinterpret_cast<Export*>(I[1]);
    SWAPOUT();
    p->cp = cp;
    const Word* target = p->vm.services.trace->export_breakpoint(p, e, x);
    SWAPIN();
    cp = p->cp;
    JUMP(target);
}

op_i_trap_resume: {
    // A trapping BIF's continuation; its result returns to cp like the BIF's would have.
    SWAPOUT();
    Term r = run_continuation(p, x);
    SWAPIN();
    if (r == THE_NON_VALUE) {
        if (p->exception.cls) goto handle_error;
        if (p->continuation) goto trap_suspend;
        JUMP(p->ip);
    }
    x[0] = r;
    I = cp;
    cp = nullptr;
    DISPATCH();
}

op_apply:
    variant = 0;
    goto apply_common;
op_apply_last:
    variant = 1;
apply_common: {
    Word arity = I[1];
    Term m = x[arity], f = x[arity + 1];
    if (!is_atom(m) || !is_atom(f)) {
        p->error(atoms::badarg);
        goto handle_error;
    }
    Export* e = p->vm.exports.find(m, f, arity);
    if (!e) {
        SWAPOUT();
        p->vm.ensure_loaded(m, p);
        SWAPIN();
        e = p->vm.exports.get(m, f, arity);
    }
    if (variant == 1) {
        cp = reinterpret_cast<const Word*>(E[0]);
        E += I[2] + 1;
    } else {
        cp = I + 2;
    }
    if (--reds <= 0) {
        live = arity;
        I = e->address();
        goto context_switch;
    }
    JUMP(e->address());
}

op_call_fun: {
    // Assigned, not initialised: op_call_fun2 jumps into this scope (clang forbids skipping
    // an initialisation).
    Word arity;
    Term fun;
    arity = I[1];
    fun = x[arity];
    cp = I + 2;
    goto call_fun_common;
op_call_fun2:
    arity = I[2];
    fun = SRC(I[3]);
    cp = I + 4;
call_fun_common:
// A fun call followed by deallocate + return is a tail call (OTP's loader makes it
// i_call_fun_last): the caller's frame goes before the call, so the callee returns past it.
#define FUN_CALL_LAST_IF_TAIL()                                                            \
    do {                                                                                   \
        const Word* after = cp; /* past a JIT resume marker */                             \
        if (after[0] == Word(labels[std::size_t(Op::i_jit_enter)]) ||                       \
            after[0] == Word(labels[std::size_t(Op::i_jit_skip)]))                          \
            after += 2;                                                                    \
        if (after[0] == Word(labels[std::size_t(Op::deallocate)]) && after[2] == Word(labels[std::size_t(Op::return_)])) { \
            Word frame_words = after[1] + 1;                                               \
            cp = reinterpret_cast<const Word*>(E[0]);                                      \
            E += frame_words;                                                              \
        }                                                                                  \
    } while (0)
    if (is_local_fun(fun)) {
        const Term* obj = boxed_ptr(fun);
        const FunEntry* fe = reinterpret_cast<const FunEntry*>(obj[1]);
        if (fe->user_arity() != arity) goto badarity;
        for (Word i = 0; i < fe->num_free; ++i) x[arity + i] = obj[3 + i];
        FUN_CALL_LAST_IF_TAIL();
        if (--reds <= 0) {
            live = arity + fe->num_free;
            I = fe->address;
            goto context_switch;
        }
        JUMP(fe->address);
    }
    if (is_export_fun(fun)) {
        const Export* e = reinterpret_cast<const Export*>(boxed_ptr(fun)[1]);
        if (e->arity != arity) goto badarity;
        FUN_CALL_LAST_IF_TAIL();
        if (--reds <= 0) {
            live = arity;
            I = e->address();
            goto context_switch;
        }
        JUMP(e->address());
    }
    cp = nullptr;  // the caller's continuation is not part of this error's stack
    SWAPOUT();
    p->error(make_tagged(p, atoms::badfun, fun));
    SWAPIN();
    goto handle_error;
badarity: {
    SWAPOUT();
    Term args = list_from(p, x, arity);
    Term inner = make_tuple2(p, fun, args);
    p->error(make_tagged(p, atoms::badarity, inner));
    SWAPIN();
    goto handle_error;
}
}

    // ================================================================ stack frames and heap
op_allocate:
op_allocate_zero: {
    Word words = I[1];
    ENSURE_HEAP(words + 1, I[2]);
    E -= words + 1;
    E[0] = reinterpret_cast<Word>(cp);
    for (Word i = 1; i <= words; ++i) E[i] = NIL;
    NEXT(3);
}

op_allocate_heap:
op_allocate_heap_zero: {
    Word words = I[1];
    ENSURE_HEAP(words + 1 + I[2], I[3]);
    E -= words + 1;
    E[0] = reinterpret_cast<Word>(cp);
    for (Word i = 1; i <= words; ++i) E[i] = NIL;
    NEXT(4);
}

op_test_heap:
    ENSURE_HEAP(I[1], I[2]);
    NEXT(3);

op_init:
    REG(I[1]) = NIL;
    NEXT(2);

op_init_yregs: {
    Word n = I[1];
    for (Word i = 0; i < n; ++i) REG(I[2 + i]) = NIL;
    NEXT(2 + n);
}

op_deallocate:
    cp = reinterpret_cast<const Word*>(E[0]);
    E += I[1] + 1;
    NEXT(2);

op_trim: {
    Word saved = E[0];
    E += I[1];
    E[0] = saved;
    NEXT(3);
}

    // ================================================================ moves
op_move:
    REG(I[2]) = SRC(I[1]);
    NEXT(3);

op_i_move_xx:
    XREG(I[2]) = XREG(I[1]);
    NEXT(3);
op_i_move_xy:
    YREG(I[2]) = XREG(I[1]);
    NEXT(3);
op_i_move_yx:
    XREG(I[2]) = YREG(I[1]);
    NEXT(3);
op_i_move_yy:
    YREG(I[2]) = YREG(I[1]);
    NEXT(3);
op_i_move_cx:
    XREG(I[2]) = I[1];
    NEXT(3);
op_i_move_cy:
    YREG(I[2]) = I[1];
    NEXT(3);

op_swap: {
    Term a = REG(I[1]);
    REG(I[1]) = REG(I[2]);
    REG(I[2]) = a;
    NEXT(3);
}

op_get_list: {
    Term l = SRC(I[1]);
    Term h = car(l), t = cdr(l);
    REG(I[2]) = h;
    REG(I[3]) = t;
    NEXT(4);
}

op_get_hd:
    REG(I[2]) = car(SRC(I[1]));
    NEXT(3);

op_get_tl:
    REG(I[2]) = cdr(SRC(I[1]));
    NEXT(3);

op_get_tuple_element:
    REG(I[3]) = tuple_element(SRC(I[1]), I[2]);
    NEXT(4);

op_set_tuple_element:
    tuple_elements(REG(I[2]))[I[3]] = SRC(I[1]);
    NEXT(4);

op_put_list:
    HTOP[0] = SRC(I[1]);
    HTOP[1] = SRC(I[2]);
    REG(I[3]) = make_list(HTOP);
    HTOP += 2;
    NEXT(4);

op_put_tuple2: {
    Word n = I[2];
    HTOP[0] = make_arityval(n);
    for (Word i = 0; i < n; ++i) HTOP[1 + i] = SRC(I[3 + i]);
    REG(I[1]) = make_boxed(HTOP);
    HTOP += n + 1;
    NEXT(3 + n);
}

op_make_fun3: {
    const FunEntry* fe = reinterpret_cast<const FunEntry*>(I[1]);
    Word n = I[3];
    // Free variables may be in x registers beyond any live count the compiler gives, so the
    // heap check keeps every x register the list mentions alive by copying them first.
    Term free_vars[256];
    for (Word i = 0; i < n; ++i) free_vars[i] = SRC(I[4 + i]);
    if (Word(E - HTOP) < 3 + n) {
        for (Word i = 0; i < n; ++i) x[MAX_X_REGS - 256 + i] = free_vars[i];
        SWAPOUT();
        Term* hp = p->alloc(3 + n);
        SWAPIN();
        hp[0] = make_header(2 + n, Subtag::Fun);
        hp[1] = reinterpret_cast<Word>(fe);
        hp[2] = p->id;
        for (Word i = 0; i < n; ++i) hp[3 + i] = free_vars[i];
        REG(I[2]) = make_boxed(hp);
        NEXT(4 + n);
    }
    HTOP[0] = make_header(2 + n, Subtag::Fun);
    HTOP[1] = reinterpret_cast<Word>(fe);
    HTOP[2] = p->id;
    for (Word i = 0; i < n; ++i) HTOP[3 + i] = free_vars[i];
    REG(I[2]) = make_boxed(HTOP);
    HTOP += 3 + n;
    NEXT(4 + n);
}

    // ================================================================ tests and jumps
op_jump:
    JUMP(I[1]);

#define CMP_TEST(name, cond)                 \
    op_##name: {                             \
        Term a = SRC(I[2]), b = SRC(I[3]);   \
        if (!(cond)) JUMP(I[1]);             \
        NEXT(4);                             \
    }
    CMP_TEST(is_lt, (is_small(a) && is_small(b)) ? SWord(a) < SWord(b) : compare_terms(a, b) < 0)
    CMP_TEST(is_ge, (is_small(a) && is_small(b)) ? SWord(a) >= SWord(b) : compare_terms(a, b) >= 0)
    CMP_TEST(is_eq, a == b || terms_equal(a, b))
    CMP_TEST(is_ne, !(a == b || terms_equal(a, b)))
    CMP_TEST(is_eq_exact, a == b || (!is_immediate(a) && !is_immediate(b) && terms_exact_equal(a, b)))
    CMP_TEST(is_ne_exact, !(a == b || (!is_immediate(a) && !is_immediate(b) && terms_exact_equal(a, b))))
#undef CMP_TEST

#define TYPE_TEST(name, cond)        \
    op_##name: {                     \
        Term t = SRC(I[2]);          \
        if (!(cond)) JUMP(I[1]);     \
        NEXT(3);                     \
    }
    TYPE_TEST(is_integer, is_integer(t))
    TYPE_TEST(is_float, is_float(t))
    TYPE_TEST(is_number, is_number(t))
    TYPE_TEST(is_atom, is_atom(t))
    TYPE_TEST(is_pid, is_pid(t))
    TYPE_TEST(is_reference, is_ref(t))
    TYPE_TEST(is_port, is_port(t))
    TYPE_TEST(is_nil, is_nil(t))
    TYPE_TEST(is_binary, is_bitstring(t) && bit_view(t).bit_size % 8 == 0)
    TYPE_TEST(is_bitstr, is_bitstring(t))
    TYPE_TEST(is_list, is_list(t) || is_nil(t))
    TYPE_TEST(is_nonempty_list, is_list(t))
    TYPE_TEST(is_tuple, is_tuple(t))
    TYPE_TEST(is_map, is_map(t))
    TYPE_TEST(is_function, is_fun(t))
    TYPE_TEST(is_boolean, t == atoms::true_ || t == atoms::false_)
#undef TYPE_TEST

op_is_function2: {
    Term f = SRC(I[2]), a = SRC(I[3]);
    if (!is_small(a) || small_value(a) < 0) {
        p->badarg();
        goto handle_error;
    }
    bool ok = false;
    if (is_local_fun(f)) ok = reinterpret_cast<const FunEntry*>(boxed_ptr(f)[1])->user_arity() == Word(small_value(a));
    else if (is_export_fun(f)) ok = reinterpret_cast<const Export*>(boxed_ptr(f)[1])->arity == Word(small_value(a));
    if (!ok) JUMP(I[1]);
    NEXT(4);
}

op_test_arity: {
    Term t = SRC(I[2]);
    if (tuple_arity(t) != I[3]) JUMP(I[1]);
    NEXT(4);
}

op_is_tagged_tuple: {
    Term t = SRC(I[2]);
    if (!is_tuple(t) || tuple_arity(t) != I[3] || tuple_element(t, 0) != I[4]) JUMP(I[1]);
    NEXT(5);
}

op_select_val: {
    Term v = SRC(I[1]);
    Word n = I[3];
    const Word* pairs = I + 4;
    if (is_immediate(v)) {
        for (Word i = 0; i < n; i += 2)
            if (pairs[i] == v) JUMP(pairs[i + 1]);
    } else {
        for (Word i = 0; i < n; i += 2)
            if (terms_exact_equal(pairs[i], v)) JUMP(pairs[i + 1]);
    }
    JUMP(I[2]);
}

op_select_tuple_arity: {
    Term v = SRC(I[1]);
    if (is_tuple(v)) {
        Word arity = tuple_arity(v);
        Word n = I[3];
        const Word* pairs = I + 4;
        for (Word i = 0; i < n; i += 2)
            if (Word(small_value(pairs[i])) == arity) JUMP(pairs[i + 1]);
    }
    JUMP(I[2]);
}

    // ================================================================ BIFs and arithmetic
op_bif0: {
    const Export* e = reinterpret_cast<const Export*>(I[1]);
    SWAPOUT();
    Term r = e->bif(p, bif_args);
    SWAPIN();
    REG(I[2]) = r;
    NEXT(3);
}

// A guard BIF with [n] arguments: [fail] [(live)] [bif] [args...] [dst]; [first_arg] is the
// operand index of the first argument. On failure it jumps to [fail], or raises.
#define GUARD_BIF(n, first_arg)                                               \
    {                                                                         \
        const Export* e = reinterpret_cast<const Export*>(I[(first_arg) - 1]); \
        for (int k = 0; k < (n); ++k) bif_args[k] = SRC(I[(first_arg) + k]);  \
        SWAPOUT();                                                            \
        Term r = e->bif(p, bif_args);                                         \
        SWAPIN();                                                             \
        if (r == THE_NON_VALUE) {                                             \
            if (I[1]) GUARD_FAIL(I[1]);                                       \
            /* '/' is inline arithmetic in OTP 25's JIT: no erlang:'/' frame. */ \
            if (e->function == atoms::divide_op && e->module == atoms::erlang) goto handle_error; \
            BIF_FAILED(e, (n));                                               \
        }                                                                     \
        REG(I[(first_arg) + (n)]) = r;                                        \
        NEXT((first_arg) + (n) + 1);                                          \
    }

op_bif1:
    GUARD_BIF(1, 3)
op_bif2:
    GUARD_BIF(2, 3)
op_gc_bif1:
    GUARD_BIF(1, 4)
op_gc_bif2:
    GUARD_BIF(2, 4)
op_gc_bif3:
    GUARD_BIF(3, 4)
#undef GUARD_BIF

    // Tagged small arithmetic: with a = v<<4|15 and c = w<<4|15, a + (c - 15) is (v+w)<<4|15,
    // and the 64-bit overflow check is exactly the 60-bit small overflow check.
#define ARITH_CONST(name, LOAD, BUILTIN, slow)                               \
    op_##name: {                                                                 \
        Term a = LOAD(I[4]), c = I[5];                                           \
        SWord r;                                                                 \
        if (is_small(a) && !BUILTIN(SWord(a), SWord(c - TAG_IMMED1_SMALL), &r)) { \
            REG(I[6]) = Term(r);                                                 \
            NEXT(7);                                                             \
        }                                                                        \
        SWAPOUT();                                                               \
        Term res = slow(p, a, c);                                                \
        SWAPIN();                                                                \
        if (res == THE_NON_VALUE) {                                              \
            if (I[1]) GUARD_FAIL(I[1]);                                          \
            goto handle_error;                                                   \
        }                                                                        \
        REG(I[6]) = res;                                                         \
        NEXT(7);                                                                 \
    }
    ARITH_CONST(i_plus_xc, XREG, __builtin_add_overflow, arith_plus)
    ARITH_CONST(i_plus_yc, YREG, __builtin_add_overflow, arith_plus)
    ARITH_CONST(i_minus_xc, XREG, __builtin_sub_overflow, arith_minus)
    ARITH_CONST(i_minus_yc, YREG, __builtin_sub_overflow, arith_minus)
#undef ARITH_CONST

op_i_is_nonempty_list_x:
    if (!is_list(XREG(I[2]))) JUMP(I[1]);
    NEXT(3);

op_i_get_list_xxx: {
    const Term* cell = list_ptr(XREG(I[1]));
    Term h = cell[0], t = cell[1];
    XREG(I[2]) = h;
    XREG(I[3]) = t;
    NEXT(4);
}

op_i_put_list_xxx:
    HTOP[0] = XREG(I[1]);
    HTOP[1] = XREG(I[2]);
    XREG(I[3]) = make_list(HTOP);
    HTOP += 2;
    NEXT(4);

op_i_get_tuple_element_xx:
    XREG(I[3]) = tuple_element(XREG(I[1]), I[2]);
    NEXT(4);

op_i_is_eq_exact_xi:
    if (XREG(I[2]) != I[3]) JUMP(I[1]);  // an immediate equals only itself
    NEXT(4);

op_i_is_ne_exact_xi:
    if (XREG(I[2]) == I[3]) JUMP(I[1]);
    NEXT(4);

op_i_plus_xxx: {
    Term a = XREG(I[4]), b = XREG(I[5]);
    SWord r;
    if (is_small(a) && is_small(b) && !__builtin_add_overflow(SWord(a), SWord(b - TAG_IMMED1_SMALL), &r)) {
        XREG(I[6]) = Term(r);
        NEXT(7);
    }
    SWAPOUT();
    Term res = arith_plus(p, a, b);
    SWAPIN();
    if (res == THE_NON_VALUE) {
        if (I[1]) GUARD_FAIL(I[1]);
        goto handle_error;  // inline arithmetic: OTP 25 shows no erlang:'+' frame
    }
    XREG(I[6]) = res;
    NEXT(7);
}

op_i_is_lt_xc: {
    Term a = XREG(I[2]), c = I[3];
    if (is_small(a) ? !(SWord(a) < SWord(c)) : !(compare_terms(a, c) < 0)) JUMP(I[1]);
    NEXT(4);
}
op_i_is_ge_xc: {
    Term a = XREG(I[2]), c = I[3];
    if (is_small(a) ? !(SWord(a) >= SWord(c)) : !(compare_terms(a, c) >= 0)) JUMP(I[1]);
    NEXT(4);
}

op_i_plus: {
    Term a = SRC(I[4]), b = SRC(I[5]);
    if (is_small(a) && is_small(b)) {
        SWord r = small_value(a) + small_value(b);
        if (fits_small(r)) {
            REG(I[6]) = make_small(r);
            NEXT(7);
        }
    }
    SWAPOUT();
    Term r = arith_plus(p, a, b);
    SWAPIN();
    if (r == THE_NON_VALUE) {
        if (I[1]) GUARD_FAIL(I[1]);
        goto handle_error;  // inline arithmetic: OTP 25 shows no erlang:'+' frame
    }
    REG(I[6]) = r;
    NEXT(7);
}

op_i_minus: {
    Term a = SRC(I[4]), b = SRC(I[5]);
    if (is_small(a) && is_small(b)) {
        SWord r = small_value(a) - small_value(b);
        if (fits_small(r)) {
            REG(I[6]) = make_small(r);
            NEXT(7);
        }
    }
    SWAPOUT();
    Term r = arith_minus(p, a, b);
    SWAPIN();
    if (r == THE_NON_VALUE) {
        if (I[1]) GUARD_FAIL(I[1]);
        goto handle_error;  // inline arithmetic: OTP 25 shows no erlang:'-' frame
    }
    REG(I[6]) = r;
    NEXT(7);
}

    // ================================================================ floats
op_fmove: {
    // fmove between a float register and a term register, or a literal into a float register.
    Word src = I[1], dst = I[2];
    Word src_kind = I[3], dst_kind = I[4];  // 1 = float register
    if (src_kind == 1 && dst_kind == 1) fr[dst] = fr[src];
    else if (src_kind == 1) {
        REG(dst) = make_float_on(HTOP, fr[src]);
        HTOP += FLOAT_WORDS;
    } else if (dst_kind == 1) {
        Term t = SRC(src);
        fr[dst] = float_value(t);
    } else {
        REG(dst) = SRC(src);
    }
    NEXT(5);
}

op_fconv: {
    Term t = SRC(I[1]);
    double d;
    if (is_float(t)) d = float_value(t);
    else if (is_small(t)) d = double(small_value(t));
    else if (!number_to_double(t, &d)) RAISE(atoms::badarith);
    fr[I[2]] = d;
    NEXT(3);
}

#define FLOAT_OP(name, expr)                          \
    op_##name: {                                      \
        double a = fr[I[2]], b = fr[I[3]];            \
        (void)b;                                      \
        double r = (expr);                            \
        if (!std::isfinite(r)) RAISE(atoms::badarith); \
        fr[I[4]] = r;                                 \
        NEXT(5);                                      \
    }
    FLOAT_OP(fadd, a + b)
    FLOAT_OP(fsub, a - b)
    FLOAT_OP(fmul, a * b)
    FLOAT_OP(fdiv, a / b)
#undef FLOAT_OP

op_fnegate:
    fr[I[3]] = 0.0 - fr[I[2]];  // as OTP: -(0.0) is 0.0
    NEXT(4);

    // ================================================================ exceptions
op_badmatch: {
    SWAPOUT();
    p->error(make_tagged(p, atoms::badmatch, SRC(I[1])));
    SWAPIN();
    goto handle_error;
}

op_case_end: {
    SWAPOUT();
    p->error(make_tagged(p, atoms::case_clause, SRC(I[1])));
    SWAPIN();
    goto handle_error;
}

op_try_case_end: {
    SWAPOUT();
    p->error(make_tagged(p, atoms::try_clause, SRC(I[1])));
    SWAPIN();
    goto handle_error;
}

op_badrecord: {
    SWAPOUT();
    p->error(make_tagged(p, atoms::badrecord, SRC(I[1])));
    SWAPIN();
    goto handle_error;
}

op_if_end:
    RAISE(atoms::if_clause);

op_catch_:
op_try_:
    REG(I[1]) = make_catch(reinterpret_cast<const Word*>(I[2]));
    NEXT(3);

op_try_end:
    REG(I[1]) = NIL;
    NEXT(2);

op_try_case:
    REG(I[1]) = NIL;
    x[0] = x[1];
    x[1] = x[2];
    x[2] = x[3];
    NEXT(2);

op_catch_end:
    REG(I[1]) = NIL;
    if (x[0] == THE_NON_VALUE) {
        Term cls = x[1], reason = x[2];
        SWAPOUT();
        if (cls == atoms::throw_) {
            x[0] = reason;
        } else if (cls == atoms::error) {
            Term trace = tuple_element(x[3], 1);
            x[0] = make_tuple2(p, atoms::EXIT, make_tuple2(p, reason, trace));
        } else {
            x[0] = make_tuple2(p, atoms::EXIT, reason);
        }
        SWAPIN();
    }
    NEXT(2);

op_raise: {
    // raise [raw stacktrace] [reason]: re-raises with the class kept in the raw stacktrace.
    Term raw = SRC(I[1]), reason = SRC(I[2]);
    Term cls = atoms::error, trace = NIL;
    if (is_tuple(raw) && tuple_arity(raw) == 2) {
        cls = tuple_element(raw, 0);
        trace = tuple_element(raw, 1);
    }
    p->raise(cls, reason);
    p->exception.stacktrace = trace;
    p->exception.trace_built = true;
    goto handle_error;
}

op_raw_raise: {
    Term cls = x[0], reason = x[1], raw = x[2];
    if (cls != atoms::error && cls != atoms::exit && cls != atoms::throw_) {
        p->badarg();
        goto handle_error;
    }
    p->raise(cls, reason);
    p->exception.stacktrace = is_tuple(raw) && tuple_arity(raw) == 2 ? tuple_element(raw, 1) : NIL;
    p->exception.trace_built = true;
    goto handle_error;
}

op_build_stacktrace:
    if (is_tuple(x[0]) && tuple_arity(x[0]) == 2) x[0] = tuple_element(x[0], 1);
    NEXT(1);

    // ================================================================ messages
op_send: {
    SWAPOUT();
    Vm::SendResult sent = p->vm.send(p, x[0], x[1]);
    SWAPIN();
    if (sent == Vm::SendResult::Badarg) {
        bif_args[0] = x[0];
        bif_args[1] = x[1];
        p->badarg();
        BIF_FAILED(p->vm.exports.get(atoms::erlang, atoms::send, 2), 2);  // OTP 25 names the send instruction erlang:send/2
    }
    x[0] = x[1];
    if (sent == Vm::SendResult::Suspend) {
        // A command to a busy port went out; the sender waits until the port is not busy,
        // then goes on after the send (where only x0 is live, as after any call).
        I += 1;
        goto busy_port_wait;
    }
    NEXT(1);
}

op_loop_rec: {
    Message* m = p->queue.current();
    if (!m) {
        FETCH_INBOX();
        m = p->queue.current();
        if (!m) JUMP(I[1]);
    }
    REG(I[2]) = m->term;
    NEXT(3);
}

op_loop_rec_end:
    p->queue.skip();
    if (--reds <= 0) {
        live = 0;
        I = reinterpret_cast<const Word*>(I[1]);
        goto context_switch;
    }
    JUMP(I[1]);

op_remove_message:
    p->remove_message();
    p->timeout_ip = nullptr;
    NEXT(1);

op_timeout:
    p->queue.reset_save();
    p->timeout_ip = nullptr;
    if ((p->all_trace_flags.load(std::memory_order_relaxed) & TRACE_RECEIVE) && p->vm.services.trace) {
        SWAPOUT();
        p->vm.services.trace->receive_timeout(p);
        SWAPIN();
    }
    NEXT(1);

op_wait:
    if (FETCH_INBOX()) JUMP(I[1]);
    p->timeout_ip = nullptr;
    I = reinterpret_cast<const Word*>(I[1]);
    live = 0;
    goto wait;

op_wait_timeout: {
    if (FETCH_INBOX()) JUMP(I[1]);
    if (p->timeout_ip == I + 3) {
        // Woken by a message that did not match: the timer is already running (the timeout
        // operand may no longer be in its register, as in OTP).
        I = reinterpret_cast<const Word*>(I[1]);
        live = 0;
        goto wait;
    }
    Term t = SRC(I[2]);
    if (t == atoms::infinity) {
        p->timeout_ip = I + 3;
        p->vm.start_receive_timer(p, Vm::NO_TIMEOUT);
    } else if (is_small(t) && small_value(t) >= 0) {
        if (small_value(t) == 0) NEXT(3);
        p->timeout_ip = I + 3;
        p->vm.start_receive_timer(p, std::uint64_t(small_value(t)));
    } else if (is_big(t) && !bignum_is_negative(t)) {
        p->timeout_ip = I + 3;  // longer than the VM will run
        p->vm.start_receive_timer(p, Vm::NO_TIMEOUT);
    } else {
        RAISE(atoms::timeout_value);
    }
    I = reinterpret_cast<const Word*>(I[1]);
    live = 0;
    goto wait;
}

op_recv_marker_reserve:
    REG(I[1]) = make_small(SWord(p->queue.reserve_marker()));
    NEXT(2);
op_recv_marker_bind: {
    Term marker = SRC(I[1]), ref = SRC(I[2]);
    if (is_small(marker) && is_ref(ref))
        p->queue.bind_marker(Word(small_value(marker)), reinterpret_cast<const Word*>(boxed_ptr(ref) + 1));
    NEXT(3);
}
op_recv_marker_clear: {
    Term ref = SRC(I[1]);
    if (is_ref(ref)) p->queue.clear_marker(reinterpret_cast<const Word*>(boxed_ptr(ref) + 1));
    NEXT(2);
}
op_recv_marker_use: {
    // The messages still in the inbox came after the marker: they are looked at in any case.
    Term ref = SRC(I[1]);
    if (is_ref(ref)) p->queue.use_marker(reinterpret_cast<const Word*>(boxed_ptr(ref) + 1));
    NEXT(2);
}

    // ================================================================ maps
op_put_map_assoc:
    variant = 0;
    goto put_map_common;
op_put_map_exact:
    variant = 1;
put_map_common: {
    bool exact = variant == 1;
    Term map = SRC(I[2]);
    Word n = I[5];
    if (!is_map(map)) {
        if (exact || I[1] == 0) {
            SWAPOUT();
            p->error(make_tagged(p, atoms::badmap, map));
            SWAPIN();
            goto handle_error;
        }
        JUMP(I[1]);
    }
    SWAPOUT();
    Term result = map;
    for (Word i = 0; i < n; i += 2) {
        Term k = SRC(I[6 + i]), v = SRC(I[7 + i]);
        if (exact && !map_lookup(result, k)) {
            p->error(make_tagged(p, atoms::badkey, k));
            SWAPIN();
            goto handle_error;
        }
        result = map_put(p, result, k, v);
    }
    SWAPIN();
    REG(I[3]) = result;
    NEXT(6 + n);
}

op_has_map_fields: {
    Term map = SRC(I[2]);
    Word n = I[3];
    for (Word i = 0; i < n; ++i)
        if (!map_lookup(map, SRC(I[4 + i]))) JUMP(I[1]);
    NEXT(4 + n);
}

op_get_map_elements: {
    Term map = SRC(I[2]);
    Word n = I[3];
    // All keys are looked up before any destination is written (a destination may be a key's
    // register or the map's).
    // Every key is looked up before any destination is written (a destination may be a key's
    // register or the map's): first check, then copy.
    for (Word i = 0; i < n; i += 2)
        if (!map_lookup(map, SRC(I[4 + i]))) JUMP(I[1]);
    for (Word i = 0; i < n; i += 2) {
        Term v = *map_lookup(map, SRC(I[4 + i]));
        REG(I[5 + i]) = v;
    }
    NEXT(4 + n);
}

    // ================================================================ bit syntax
op_bs_start_match3:
    variant = 0;
    goto start_match_common;
op_bs_start_match4:
    variant = 1;
start_match_common: {
    // start_match3: [fail] [live] [src] [dst]; start_match4: [fail|no_fail|resume] [live] [src] [dst]
    Word fail = I[1];
    bool is4 = variant == 1;
    if (is4 && is_atom(fail)) fail = 0;
    Word src_word = is4 ? I[3] : I[2], live_count = is4 ? I[2] : I[3];
    Term src = SRC(src_word);
    if (is_boxed_of(src, Subtag::MatchState)) {
        REG(I[4]) = src;
        NEXT(5);
    }
    if (!is_bitstring(src)) {
        if (fail) JUMP(fail);
        RAISE(atoms::badarg);
    }
    ENSURE_HEAP(MATCH_STATE_WORDS, live_count);
    src = SRC(src_word);
    SWAPOUT();
    Term ms = bs_start_match(p, src);
    SWAPIN();
    REG(I[4]) = ms;
    NEXT(5);
}

op_bs_get_position:
    REG(I[2]) = make_small(SWord(ms_position(SRC(I[1]))));
    NEXT(4);

op_bs_set_position:
    ms_position(SRC(I[1])) = Word(small_value(SRC(I[2])));
    NEXT(3);

op_bs_get_tail: {
    ENSURE_HEAP(SUB_BIN_WORDS, I[3]);
    SWAPOUT();
    Term t = bs_get_tail(p, SRC(I[1]));
    SWAPIN();
    REG(I[2]) = t;
    NEXT(4);
}

op_bs_test_tail2:
    if (ms_remaining(SRC(I[2])) != I[3]) JUMP(I[1]);
    NEXT(4);

op_bs_test_unit:
    if (ms_remaining(SRC(I[2])) % I[3] != 0) JUMP(I[1]);
    NEXT(4);

op_bs_match_string: {
    const Module* m = reinterpret_cast<const Module*>(I[5]);
    if (!bs_match_bytes(SRC(I[2]), m->strings.data() + I[4], I[3])) JUMP(I[1]);
    NEXT(6);
}

op_bs_skip_bits2: {
    Term ms = SRC(I[2]), size = SRC(I[3]);
    Word bits;
    if (size == atoms::all) bits = ms_remaining(ms);
    else if (is_small(size) && small_value(size) >= 0) bits = Word(small_value(size)) * I[4];
    else JUMP(I[1]);
    if (ms_remaining(ms) < bits) JUMP(I[1]);
    ms_position(ms) += bits;
    NEXT(6);
}

op_bs_get_integer2:
    variant = 0;
    goto bs_get_common;
op_bs_get_float2:
    variant = 1;
    goto bs_get_common;
op_bs_get_binary2:
    variant = 2;
bs_get_common: {
    // [fail] [ctx] [live] [size] [unit] [flags] [dst]
    Term ms = SRC(I[2]), size = SRC(I[4]);
    Word bits;
    if (size == atoms::all) {
        bits = ms_remaining(ms);
        if (I[5] > 1 && bits % I[5]) JUMP(I[1]);
    } else if (is_small(size) && small_value(size) >= 0) {
        bits = Word(small_value(size)) * I[5];
    } else {
        JUMP(I[1]);
    }
    Word need = variant == 2 ? SUB_BIN_WORDS
              : variant == 1 ? FLOAT_WORDS
                             : (bits <= 60 ? 0 : bignum_words(bits / 64 + 2));
    if (need) {
        ENSURE_HEAP(need, I[3]);
        ms = SRC(I[2]);
    }
    SWAPOUT();
    Term r = variant == 2 ? bs_get_binary(p, ms, bits)
           : variant == 1 ? bs_get_float(p, ms, bits, I[6])
                          : bs_get_integer(p, ms, bits, I[6]);
    SWAPIN();
    if (r == THE_NON_VALUE) JUMP(I[1]);
    REG(I[7]) = r;
    NEXT(8);
}

op_bs_get_utf8: {
    Term r = bs_get_utf8(SRC(I[2]));
    if (r == THE_NON_VALUE) JUMP(I[1]);
    REG(I[5]) = r;
    NEXT(6);
}
op_bs_get_utf16: {
    Term r = bs_get_utf16(SRC(I[2]), I[4]);
    if (r == THE_NON_VALUE) JUMP(I[1]);
    REG(I[5]) = r;
    NEXT(6);
}
op_bs_get_utf32: {
    Term r = bs_get_utf32(SRC(I[2]), I[4]);
    if (r == THE_NON_VALUE) JUMP(I[1]);
    REG(I[5]) = r;
    NEXT(6);
}
op_bs_skip_utf8:
    if (bs_get_utf8(SRC(I[2])) == THE_NON_VALUE) JUMP(I[1]);
    NEXT(5);
op_bs_skip_utf16:
    if (bs_get_utf16(SRC(I[2]), I[4]) == THE_NON_VALUE) JUMP(I[1]);
    NEXT(5);
op_bs_skip_utf32:
    if (bs_get_utf32(SRC(I[2]), I[4]) == THE_NON_VALUE) JUMP(I[1]);
    NEXT(5);

op_bs_init_writable:
    SWAPOUT();
    x[0] = make_binary(p, nullptr, 0);
    SWAPIN();
    NEXT(1);

op_bs_create_bin: {
    // [fail] [alloc] [live] [unit] [dst] [count] then segments of 6, then the Module*.
    Word n = I[6];
    SWAPOUT();
    Term r = create_binary(p, I, x, E);
    SWAPIN();
    if (r == THE_NON_VALUE) {
        if (I[1]) GUARD_FAIL(I[1]);
        goto handle_error;
    }
    // [alloc] words must be free after the binary: the compiler drops the test_heap of the
    // instructions that follow (a put_list of the new binary, say). The binary waits in the
    // first dead x register while a collection may run.
    Word live = I[3];
    x[live] = r;
    ENSURE_HEAP(I[2], live + 1);
    REG(I[5]) = x[live];
    NEXT(8 + n);
}

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
    // cp is where the trapping BIF returns; the continuation keeps what it needs.
    SWAPOUT();
    p->ip = trap_resume_code();
    p->cp = cp;
    p->arity = 0;
    p->saved_x.clear();
    p->reductions += CONTEXT_REDS - reds;
    if (p->suspend_for == SuspendFor::Nothing) return RunResult::Yield;  // may continue at once
    return RunResult::Suspended;

busy_port_wait:
    SWAPOUT();
    p->ip = I;
    p->cp = cp;
    p->arity = 1;
    p->saved_x.assign(x, x + 1);
    p->suspend_for = SuspendFor::BusyPort;
    p->reductions += CONTEXT_REDS - reds;
    return RunResult::Suspended;

native_code_wait:
    // Resumed past the marker: this call goes on interpreted (its entry breakpoint, if any,
    // has been hit already); the next ones enter the native code.
    SWAPOUT();
    p->ip = I + 2;
    p->cp = cp;
    p->arity = live;
    p->saved_x.assign(x, x + live);
    p->suspend_for = SuspendFor::NativeCode;
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

Term current_stacktrace(Process* p) { return stacktrace_of(p); }

std::vector<const Word*> return_addresses(Process* p, std::size_t max) {
    std::vector<const Word*> out;
    walk_return_addresses(p, p->stop, p->cp, [&](const Word* at) {
        if (out.size() < max) out.push_back(at);
    });
    return out;
}

}  // namespace beamlet::vm
