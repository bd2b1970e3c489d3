// tracing/call_trace.cpp — breakpoint actions and trace frames.
//
// A hit walks the function's GenericBp chain, one per session, reading the active generation
// (as erts_generic_breakpoint in OTP's beam_bp.c): call_count counts every process; local/global call tracing, call_time
// and call_memory need the process's `call` flag in that session; meta tracing needs nothing.
// Frames pushed on the Erlang stack (vm/trace_frames.hpp) report returns and exceptions.
// Messages leave through tracing/delivery; their terms are built in C++ arrays, never on the
// traced process's heap.
#include "tracing/call_trace.hpp"

#include <algorithm>

#include "tracing/breakpoints.hpp"
#include "tracing/call_stats.hpp"
#include "tracing/delivery.hpp"
#include "tracing/process_flags.hpp"
#include "tracing/sessions.hpp"
#include "tracing/tracer_module.hpp"
#include "vm/stack_trace.hpp"
#include "vm/atom_table.hpp"
#include "vm/bit_syntax.hpp"
#include "vm/trace_frames.hpp"
#include "vm/vm.hpp"

namespace beamlet::tracing {

using namespace vm;

namespace {

Term heap_tuple(Process* p, std::initializer_list<Term> elems) {
    Term* hp = p->alloc(elems.size() + 1);
    hp[0] = make_arityval(elems.size());
    std::copy(elems.begin(), elems.end(), hp + 1);
    return make_boxed(hp);
}

// {M, F, A} of the function containing [at] on [p]'s heap, or undefined.
Term function_of(Process* p, const Word* at) {
    if (const Module* m = p->vm.module_containing(at))
        if (const FunctionInfo* f = m->function_at(at))
            return heap_tuple(p, {m->name, f->name, make_small(SWord(f->arity))});
    return atoms::undefined;
}

// Where the function being entered returns to, past any trace frames on top of the stack
// (OTP's fixup_cp_before_trace); [return_to_of] reports whether a return_to frame of that
// session is among those frames.
const Word* real_return_address(Process* p, const TraceSession* return_to_of = nullptr, bool* has_return_to = nullptr) {
    const Word* cp = p->cp;
    Term* e = p->stop;
    while (cp == trace_return_code()) {
        Word mark = e[1];
        if (has_return_to && trace_mark_kind(mark) == TraceFrameKind::ReturnTo && trace_mark_session(mark) == return_to_of)
            *has_return_to = true;
        cp = reinterpret_cast<const Word*>(e[0]);
        e += trace_frame_words(mark);
    }
    return cp;
}

// Pushes a trace frame [mark, extra...] over the current continuation pointer; [live] x
// registers survive a garbage collection if the stack needs room.
void push_frame(Process* p, Term* x, Word live, std::initializer_list<Word> words) {
    Word n = words.size() + 1;
    if (Word(p->stop - p->htop) < n) garbage_collect(p, x, live, n);
    p->stop -= n;
    p->stop[0] = reinterpret_cast<Word>(p->cp);
    std::copy(words.begin(), words.end(), p->stop + 1);
    p->cp = trace_return_code();
    ++p->trace_frames;
}

// What one breakpoint hit is about.
struct Hit {
    Process* p;
    Term* x;
    Term module, function;
    Word arity;
    const void* mfa_source;  // the CodeInfo, or the Export tagged with bit 0
    const BpChain* chain;    // the breakpoint chain (names the function for call_time)
};

// The arguments as a match spec and a call message see them (OTP's erts_call_trace): a match
// context that a function receives in place of a binary (the compiler's delayed sub-binary
// creation: bs_sum(<<H, T/binary>>, Acc) -> bs_sum(T, Acc + H)) stands for the rest of its
// binary, so that sub-binary is built on [p]'s heap. Valid until [p]'s next collection (a
// trace frame pushed may collect): make one for each use.
class TracedArgs {
public:
    explicit TracedArgs(const Hit& h) : m_args(h.x) {
        for (Word i = 0; i < h.arity; ++i) {
            if (!is_boxed_of(h.x[i], Subtag::MatchState)) continue;
            if (m_args == h.x) {
                std::copy(h.x, h.x + h.arity, m_buf);
                m_args = m_buf;
            }
            m_buf[i] = bs_get_tail(h.p, h.x[i]);
        }
    }
    Term* get() const { return m_args; }

private:
    Term* m_args;
    Term m_buf[256];  // a function has at most 255 arguments
};

// The {M, F, Arity} a trace frame's source word names.
StackTuple<3> source_mfa(Term source_word) {
    Word raw = Word(small_value(source_word));
    if (raw & 1) {
        const Export* e = reinterpret_cast<const Export*>(raw & ~Word(1));
        return StackTuple<3>({e->module, e->function, make_small(SWord(e->arity))});
    }
    const CodeInfo* ci = reinterpret_cast<const CodeInfo*>(raw);
    return StackTuple<3>({ci->module, ci->function, make_small(SWord(ci->arity))});
}

// {trace, Pid, call, {M, F, Args}} (or Arity with the arity flag), with the match spec's
// message as a fifth element when it gave one; timestamped per [flags] (meta: always now).
// False if the tracer is gone.
DeliveryResult send_call(Vm& vm, Hit& h, TraceSession* session, Tracer tracer, std::uint32_t flags, Term extra,
                         bool meta) {
    Term cells[2 * 256];
    Term what;
    if (!meta && (flags & TRACE_ARITY)) {
        what = make_small(SWord(h.arity));
    } else {
        what = NIL;
        TracedArgs args(h);
        for (Word i = h.arity; i-- > 0;) what = make_cons_on(cells + 2 * i, args.get()[i], what);
    }
    StackTuple<3> mfa({h.module, h.function, what});
    TraceEvent e{h.p->id, atoms::call, {mfa.term(), 0}, extra == atoms::true_ ? 0 : extra};
    e.enabled_checked = true;  // call_trace asked a tracer module already
    return deliver(vm, tracer, meta ? (TRACE_TS_NOW | (flags & TRACE_SCHEDULER_ID)) : flags, e, session);
}

// Call or meta tracing for one session (OTP's do_call_trace / erts_call_trace): [ref] is the
// process's tracing in the session (call trace), or [meta_tracer] is set. Returns the match
// spec's return/exception flags; [sent] tells whether a call message went out. A dead tracer
// is noticed when there is something to send to it.
std::uint32_t call_trace(Vm& vm, Hit& h, TraceSession* session, MatchSpec* ms, const TracerRef& ref, Tracer meta_tracer,
                         bool* sent, std::uint32_t* flags_inout) {
    Process* p = h.p;
    bool meta = !meta_tracer.is_none();
    std::uint32_t flags = meta ? 0 : ref.flags;
    Tracer tracer = meta ? meta_tracer : ref.tracer;
    if (!tracer || tracer == Tracer::process(p->id)) return 0;  // a process tracing itself gets nothing
    if (tracer.is_module()) {
        // A tracer module is asked first, before the match spec runs (OTP's erts_call_trace):
        // trace_status, then enabled_call.
        static const Term am_trace_status = atom("trace_status");
        auto* t = static_cast<const TracerModule*>(tracer.descriptor());
        TracerVerdict v = tracer_enabled(vm, t, TracerKind::Default, am_trace_status, p->id);
        if (v == TracerVerdict::Trace) v = tracer_enabled(vm, t, TracerKind::Call, atoms::call, p->id);
        if (v == TracerVerdict::Remove && !meta) drop_session(p, session);
        if (v != TracerVerdict::Trace) return 0;
    }
    MatchSpec::Result r{true, atoms::true_, 0};
    if (ms) {
        TraceActions actions(vm, session);
        r = ms->run(p, TracedArgs(h).get(), h.arity, actions);
        // Flags the match spec changed apply to this call already (arity, silent, return_to).
        if (!meta && actions.changed) *flags_inout = flags = process_trace_ref(p, session).flags;
    }
    if (!meta && (flags & TRACE_SILENT)) return 0;
    if (!r.matched) return 0;
    if (r.message == atoms::false_) {
        if (!tracer_alive(vm, tracer)) {
            if (!meta) drop_session(p, session);
            return 0;
        }
        return r.flags;
    }
    switch (send_call(vm, h, session, tracer, flags, r.message, meta)) {
    case DeliveryResult::Delivered: *sent = true; return r.flags;
    case DeliveryResult::Discarded: return 0;
    case DeliveryResult::TracerGone:
        if (!meta) drop_session(p, session);
        return 0;
    }
    return 0;
}

// A return_trace or exception_trace frame if the match spec asked for one; [tracer_word] is
// true (the process's tracer in the session) or a meta tracer.
void push_return_frame(Hit& h, TraceSession* session, std::uint32_t ms_flags, Term tracer_word) {
    if (!(ms_flags & (matchspec::MS_RETURN_TRACE | matchspec::MS_EXCEPTION_TRACE))) return;
    TraceFrameKind kind = (ms_flags & matchspec::MS_EXCEPTION_TRACE) ? TraceFrameKind::ExceptionTrace : TraceFrameKind::ReturnTrace;
    push_frame(h.p, h.x, h.arity, {make_trace_mark(session, kind), pointer_to_small(h.mfa_source), tracer_word});
}

// The kinds that act only for a process with the `call` flag in the session.
constexpr std::uint32_t needs_call = BPF_LOCAL_TRACE | BPF_GLOBAL_TRACE | BPF_TIME_TRACE_ACTIVE | BPF_MEM_TRACE_ACTIVE;

// One session's work at a breakpoint hit beyond call_count (OTP's do_session_breakpoint).
// [local]: a function-entry breakpoint (or a BIF's local kinds), where return_to applies.
void session_breakpoint(Vm& vm, Hit& h, GenericBp* bp, bool local) {
    TraceSession* session = bp->session;
    if (!session->alive.load(std::memory_order_acquire)) return;
    const GenericBpData& d = bp->data[active_bp_index()];
    std::uint32_t flags = d.flags.load(std::memory_order_relaxed);
    Process* p = h.p;
    TracerRef ref{nullptr, Tracer(), 0};
    if (flags & needs_call) {
        if (p->all_trace_flags.load(std::memory_order_acquire) & TRACE_CALL) ref = own_trace_ref(p, session);
        if (!(ref.flags & TRACE_CALL)) flags &= ~needs_call;
    }
    std::uint32_t pflags = ref.flags;
    Word live = h.arity;
    // A call the match spec rejects on its first tests does nothing more (a tracer module is
    // asked before the match spec runs, so only for a process tracer).
    if ((flags & (BPF_LOCAL_TRACE | BPF_GLOBAL_TRACE)) && d.ms && !ref.tracer.is_module() &&
        !d.ms->may_match(TracedArgs(h).get(), h.arity))
        flags &= ~(BPF_LOCAL_TRACE | BPF_GLOBAL_TRACE);
    if (flags & (BPF_LOCAL_TRACE | BPF_GLOBAL_TRACE)) {
        bool sent = false;
        std::uint32_t ms_flags = call_trace(vm, h, session, d.ms, ref, Tracer(), &sent, &pflags);
        // return_to (local call tracing only, a BIF's included): one frame per chain of tail
        // calls, below the return_trace frame so that return_from comes first.
        if (sent && local && (flags & BPF_LOCAL_TRACE) && (pflags & TRACE_RETURN_TO)) {
            bool already = false;
            real_return_address(p, session, &already);
            if (!already) push_frame(p, h.x, live, {make_trace_mark(session, TraceFrameKind::ReturnTo)});
        }
        push_return_frame(h, session, ms_flags, atoms::true_);
    }
    if (flags & BPF_META_TRACE) {
        Term meta_tracer = d.meta_tracer.load(std::memory_order_relaxed);
        if (is_pid(meta_tracer) && meta_tracer != p->id && !vm.find_process(meta_tracer)) {
            // A dead meta tracer is forgotten in both generations (OTP's BpMetaTracer is one
            // object that both share): a later switch of the active index must not revive it.
            for (GenericBpData& g : bp->data) {
                Term expected = meta_tracer;
                g.meta_tracer.compare_exchange_strong(expected, NIL, std::memory_order_relaxed);
            }
            meta_tracer = NIL;
        }
        if (is_pid(meta_tracer) || is_small(meta_tracer)) {  // a process or a tracer module
            bool sent = false;
            std::uint32_t ignored = 0;
            std::uint32_t ms_flags =
                call_trace(vm, h, session, d.meta_ms, ref, Tracer::from_word(meta_tracer), &sent, &ignored);
            push_return_frame(h, session, ms_flags, meta_tracer);
        }
    }
    if (flags & (BPF_TIME_TRACE_ACTIVE | BPF_MEM_TRACE_ACTIVE)) {
        CallAccounting& a = accounting_of(p, session);
        Term prev_time = NIL, prev_memory = NIL;
        if (flags & BPF_TIME_TRACE_ACTIVE)
            if (const BpChain* prev = charge(p, a, false, h.chain, true)) prev_time = pointer_to_small(prev);
        if (flags & BPF_MEM_TRACE_ACTIVE)
            if (const BpChain* prev = charge(p, a, true, h.chain, true)) prev_memory = pointer_to_small(prev);
        // One accounting frame per chain of tail calls: none when a trace frame is on top.
        if (p->cp != trace_return_code()) {
            bool time = flags & BPF_TIME_TRACE_ACTIVE, memory = flags & BPF_MEM_TRACE_ACTIVE;
            if (time && memory)
                push_frame(p, h.x, live, {make_trace_mark(session, TraceFrameKind::Accounting), prev_time, prev_memory});
            else if (time)
                push_frame(p, h.x, live, {make_trace_mark(session, TraceFrameKind::AccountingTime), prev_time});
            else
                push_frame(p, h.x, live, {make_trace_mark(session, TraceFrameKind::AccountingMemory), prev_memory});
        }
    }
}

// The tracer a return/exception frame reports to, with the flags for its message: the
// process's tracer in the session (still with `call`), or the meta tracer kept in the frame.
bool frame_tracer(Process* p, const TraceSession* session, Term word, TracerRef* out) {
    if (!session->alive.load(std::memory_order_acquire)) return false;
    if (word != atoms::true_) {
        *out = TracerRef{const_cast<TraceSession*>(session), Tracer::from_word(word), TRACE_TS_NOW};
        return true;
    }
    *out = process_trace_ref(p, session);
    return (out->flags & TRACE_CALL) && out->tracer;
}

// Sends {trace, P, [tag], [a], [b]} for a trace frame of [session]: to the meta tracer in the
// frame, or through the process's ref (a dead tracer drops its flags).
void frame_event(Vm& vm, Process* p, const TracerRef& to, bool meta, Term tag, Term a, Term b) {
    TraceEvent e{p->id, tag, {a, b}};
    e.enabled_checked = true;  // a tracer module was asked at the call (OTP asks no more)
    if (meta) deliver(vm, to.tracer, to.flags, e, to.session);
    else deliver_for(vm, p, to, e);
}

// The hot path: call_count, and whether a session has anything else to do for [p].
template <typename Slow>
void for_each_hit(Process* p, GenericBp* head, Slow&& slow) {
    unsigned ix = active_bp_index();
    bool call_traced = p->all_trace_flags.load(std::memory_order_relaxed) & TRACE_CALL;
    for (GenericBp* bp = head; bp; bp = bp->next.load(std::memory_order_acquire)) {
        std::uint32_t flags = bp->data[ix].flags.load(std::memory_order_relaxed);
        if (flags & BPF_COUNT_ACTIVE) bp->call_count.add(p->scheduler_index);
        if ((flags & BPF_META_TRACE) || (call_traced && (flags & needs_call))) slow(bp);
    }
}

}  // namespace

// ---- trace actions -----------------------------------------------------------------------------

Term TraceActions::caller(Process* p) { return function_of(p, real_return_address(p)); }

Term TraceActions::caller_line(Process* p) {
    const Word* cp = real_return_address(p);
    const Module* m = p->vm.module_containing(cp);
    const FunctionInfo* f = m ? m->function_at(cp) : nullptr;
    if (!f) return atoms::undefined;
    LineEntry loc = m->location_at(cp - 1);
    Term where = atoms::undefined;
    if (loc.line) {
        Term name = module_file_name(p, m, loc.file_index);
        where = heap_tuple(p, {name, make_small(SWord(loc.line))});
    }
    return heap_tuple(p, {m->name, f->name, make_small(SWord(f->arity)), where});
}

Term TraceActions::process_dump(Process* p) { return matchspec::process_dump_binary(p); }

namespace {
// A {trace, ...} flag list: flag names, and in the legacy session {tracer, Pid} ([tracer]).
bool parse_flag_list(Term list, bool legacy, std::uint32_t* out, Tracer* tracer) {
    static const Term am_tracer = atom("tracer");
    for (Term l = list; !is_nil(l); l = cdr(l)) {
        if (!is_list(l)) return false;
        Term f = car(l);
        if (legacy && is_tuple(f) && tuple_arity(f) == 2 && tuple_element(f, 0) == am_tracer &&
            is_pid(tuple_element(f, 1))) {
            *tracer = Tracer::process(tuple_element(f, 1));
            continue;
        }
        std::uint32_t bit = process_flag_bit(f);
        if (!bit) return false;
        *out |= bit;
    }
    return true;
}
}  // namespace

Term TraceActions::change_trace(Process* p, Term who, Term disable, Term enable) {
    std::uint32_t off = 0, on = 0;
    Tracer given;
    bool legacy = !m_session->tracer;
    if (!parse_flag_list(disable, legacy, &off, &given) || !parse_flag_list(enable, legacy, &on, &given))
        return p->badarg();
    std::shared_ptr<Process> holder;
    Process* target = p;
    if (who && who != p->id) {
        if (is_atom(who)) holder = m_vm.whereis(who);
        else if (is_pid(who)) holder = m_vm.lookup_process(who);
        if (!holder) return p->badarg();
        if (holder.get() != p) target = holder.get();
    }
    // The target gets the tracer of the process running the match spec (a session's own
    // tracer; a {tracer, Pid} in the lists), as OTP: an untraced caller, or a dead tracer,
    // leaves the target untraced in this session.
    Tracer tracer = m_session->tracer ? m_session->tracer : given ? given : process_trace_ref(p, m_session).tracer;
    TracerRef before = process_trace_ref(target, m_session);
    std::uint32_t flags = (before.flags & ~off) | on;
    if (!tracer || (tracer != Tracer::process(target->id) && !tracer_alive(m_vm, tracer))) flags = 0;
    replace_trace_ref(target, m_session, tracer, flags);
    changed = true;
    return flags != before.flags ? atoms::true_ : atoms::false_;
}

void TraceActions::set_silent(Process* p, bool on) {
    TracerRef r = process_trace_ref(p, m_session);
    if (r.tracer) set_process_flags(m_vm, p, m_session, r.tracer, TRACE_SILENT, on, false);
    changed = true;
}

// ---- breakpoints and trace frames --------------------------------------------------------------

Word function_breakpoint(Vm& vm, Process* p, const CodeInfo* ci, Term* x) {
    GenericBp* head = ci->gen_bp.load(std::memory_order_acquire);
    for_each_hit(p, head, [&](GenericBp* bp) {
        Hit h{p, x, ci->module, ci->function, ci->arity, ci, &ci->gen_bp};
        session_breakpoint(vm, h, bp, true);
    });
    return std::atomic_ref<Word>(head->orig_instr).load(std::memory_order_acquire);  // see replace_first_word
}

const Word* export_breakpoint(Vm& vm, Process* p, Export* e, Term* x) {
    for_each_hit(p, e->gen_bp.load(std::memory_order_acquire), [&](GenericBp* bp) {
        Hit h{p, x, e->module, e->function, e->arity, reinterpret_cast<const char*>(e) + 1, &e->gen_bp};
        // A BIF has no function header: its local kinds live on the export.
        session_breakpoint(vm, h, bp, e->is_bif());
    });
    return e->bp_original.load(std::memory_order_acquire);
}

const Word* trace_frame_returned(Vm& vm, Process* p, Term value) {
    Term* frame = p->stop;
    const Word* resume_at = reinterpret_cast<const Word*>(frame[0]);
    Word mark = frame[1];
    TraceSession* session = trace_mark_session(mark);
    p->stop = frame + trace_frame_words(mark);
    p->cp = nullptr;
    --p->trace_frames;
    switch (trace_mark_kind(mark)) {
    case TraceFrameKind::ReturnTrace:
    case TraceFrameKind::ExceptionTrace: {
        TracerRef to;
        if (frame_tracer(p, session, frame[3], &to)) {
            StackTuple<3> mfa = source_mfa(frame[2]);
            frame_event(vm, p, to, frame[3] != atoms::true_, atoms::return_from, mfa.term(), value);
        }
        break;
    }
    case TraceFrameKind::ReturnTo: {
        // Names the first real return address, past any trace frames below this one.
        if (!session->alive.load(std::memory_order_acquire)) break;
        TracerRef r = process_trace_ref(p, session);
        if (!(r.flags & TRACE_RETURN_TO) || !r.tracer) break;
        p->cp = resume_at;
        Term where = function_of(p, real_return_address(p));
        p->cp = nullptr;
        frame_event(vm, p, r, false, atoms::return_to, where, 0);
        break;
    }
    case TraceFrameKind::Accounting:
    case TraceFrameKind::AccountingTime:
    case TraceFrameKind::AccountingMemory: {
        // Charges the function returning, and resumes charging the one saved in the frame.
        TraceFrameKind kind = trace_mark_kind(mark);
        Term prevs[2] = {kind == TraceFrameKind::AccountingMemory ? NIL : frame[2],   // time
                         kind == TraceFrameKind::Accounting         ? frame[3]
                         : kind == TraceFrameKind::AccountingMemory ? frame[2]
                                                                    : NIL};        // memory
        for (CallAccounting& a : p->call_accounting) {
            if (a.session != session) continue;
            for (bool memory : {false, true}) {
                Term prev = prevs[memory];
                if ((memory ? a.memory_site : a.time_site) || is_small(prev))
                    charge(p, a, memory, is_small(prev) ? small_to_pointer<const BpChain>(prev) : nullptr, false);
            }
        }
        break;
    }
    }
    return resume_at;
}

void exception_unwinding(Vm& vm, Process* p, Term* from, Term* to, const Word* catch_at) {
    std::vector<TraceSession*> returned_to;
    for (Term* s = from + 1; s < to; ++s) {
        if (!is_trace_mark(*s)) continue;
        Term* frame = s - 1;
        Word mark = *s;
        TraceSession* session = trace_mark_session(mark);
        --p->trace_frames;
        switch (trace_mark_kind(mark)) {
        case TraceFrameKind::ExceptionTrace: {
            TracerRef tracer;
            if (frame_tracer(p, session, frame[3], &tracer)) {
                // A throw nobody catches is reported as the error it becomes.
                bool nocatch = !catch_at && p->exception.cls == atoms::throw_;
                StackTuple<2> nocatch_reason({atoms::nocatch, p->exception.reason});
                StackTuple<2> value({nocatch ? atoms::error : p->exception.cls,
                                     nocatch ? nocatch_reason.term() : p->exception.reason});
                StackTuple<3> mfa = source_mfa(frame[2]);
                frame_event(vm, p, tracer, frame[3] != atoms::true_, atoms::exception_from, mfa.term(), value.term());
            }
            break;
        }
        case TraceFrameKind::ReturnTo:
            if (std::find(returned_to.begin(), returned_to.end(), session) == returned_to.end())
                returned_to.push_back(session);
            break;
        case TraceFrameKind::ReturnTrace:
        case TraceFrameKind::Accounting:
        case TraceFrameKind::AccountingTime:
        case TraceFrameKind::AccountingMemory:
            break;
        }
        s += trace_frame_words(mark) - 2;
    }
    // One return_to per session, naming the function that catches.
    if (!catch_at) return;
    for (TraceSession* session : returned_to) {
        if (!session->alive.load(std::memory_order_acquire)) continue;
        TracerRef r = process_trace_ref(p, session);
        if ((r.flags & TRACE_RETURN_TO) && r.tracer)
            frame_event(vm, p, r, false, atoms::return_to, function_of(p, catch_at), 0);
    }
}

}  // namespace beamlet::tracing
