// tracing/call_tracer.cpp — breakpoint actions, trace frames and process trace flags.
//
// A hit walks the function's GenericBp chain, one per session, reading the active generation
// (otp-tracing.md §3.1): call_count counts every process; local/global call tracing, call_time
// and call_memory need the process's `call` flag in that session; meta tracing needs nothing.
// Frames pushed on the Erlang stack (vm/trace_frames.hpp) report returns and exceptions.
#include "tracing/call_tracer.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "tracing/breakpoints.hpp"
#include "tracing/match_spec.hpp"
#include "tracing/sessions.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/module.hpp"
#include "vm/scheduler.hpp"
#include "vm/trace_frames.hpp"

namespace beamlet::tracing {

using namespace vm;

// ---- call_time / call_memory tables ------------------------------------------------------------

struct CallTimeData::Table {
    std::atomic<bool> busy{false};
    std::vector<Entry> slots = std::vector<Entry>(8, Entry{0, 0, 0});  // open addressing, pid 0: free
    std::size_t used = 0;

    void lock() {
        while (busy.exchange(true, std::memory_order_acquire)) std::this_thread::yield();
    }
    void unlock() { busy.store(false, std::memory_order_release); }

    Entry& find(Term pid) {
        std::size_t mask = slots.size() - 1;
        for (std::size_t i = (pid >> 4) & mask;; i = (i + 1) & mask)
            if (slots[i].pid == pid || slots[i].pid == 0) return slots[i];
    }
    void add(Term pid, std::int64_t count, std::int64_t sum) {
        Entry* e = &find(pid);
        if (e->pid == 0) {
            if (2 * (used + 1) > slots.size()) {
                std::vector<Entry> old = std::move(slots);
                slots.assign(old.size() * 2, Entry{0, 0, 0});
                for (const Entry& o : old)
                    if (o.pid) find(o.pid) = o;
                e = &find(pid);
            }
            ++used;
            e->pid = pid;
        }
        e->count += count;
        e->sum += sum;
    }
};

CallTimeData::~CallTimeData() {
    for (auto& t : m_tables) delete t.load(std::memory_order_relaxed);
}

void CallTimeData::add(Term pid, std::int64_t count, std::int64_t sum) {
    int ix = Schedulers::current_index() + 1;
    if (ix < 0 || ix >= MAX_TABLES) ix = 0;
    Table* t = m_tables[ix].load(std::memory_order_acquire);
    if (!t) {
        auto* fresh = new Table();
        if (m_tables[ix].compare_exchange_strong(t, fresh, std::memory_order_acq_rel)) t = fresh;
        else delete fresh;
    }
    t->lock();
    t->add(pid, count, sum);
    t->unlock();
}

std::vector<CallTimeData::Entry> CallTimeData::collect() const {
    Table merged;
    for (const auto& slot : m_tables) {
        Table* t = slot.load(std::memory_order_acquire);
        if (!t) continue;
        t->lock();
        for (const Entry& e : t->slots)
            if (e.pid) merged.add(e.pid, e.count, e.sum);
        t->unlock();
    }
    std::vector<Entry> out;
    for (const Entry& e : merged.slots)
        if (e.pid) out.push_back(e);
    return out;
}

namespace {

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// ---- process flags -----------------------------------------------------------------------------

struct FlagName {
    const char* name;
    std::uint32_t bit;
};
const FlagName PROCESS_FLAGS[] = {
    {"call", TRACE_CALL},           {"arity", TRACE_ARITY},         {"return_to", TRACE_RETURN_TO},
    {"silent", TRACE_SILENT},       {"set_on_spawn", TRACE_SOS},    {"set_on_first_spawn", TRACE_SOS1},
    {"set_on_link", TRACE_SOL},     {"set_on_first_link", TRACE_SOL1},
    {"timestamp", TRACE_TS_NOW},    {"monotonic_timestamp", TRACE_TS_MONO},
    {"strict_monotonic_timestamp", TRACE_TS_STRICT},
};

// Called with p->lock held after every change of p->trace_refs.
void recompute_all_flags(Process* p) {
    std::uint32_t all = 0;
    for (const TracerRef& r : p->trace_refs) all |= r.flags;
    bool sole = p->trace_refs.size() == 1;
    p->trace_seq.fetch_add(1, std::memory_order_acq_rel);  // odd: readers take the lock
    p->sole_trace_session.store(sole ? p->trace_refs[0].session : nullptr, std::memory_order_relaxed);
    p->sole_tracer.store(sole ? p->trace_refs[0].tracer : 0, std::memory_order_relaxed);
    p->all_trace_flags.store(all, std::memory_order_release);
    p->trace_seq.fetch_add(1, std::memory_order_release);
}

// process_trace_ref for the process's own breakpoints: without the lock when one session
// traces it (a sequence-count read; the lock if a change is under way).
TracerRef own_trace_ref(Process* p, TraceSession* session) {
    std::uint32_t seq = p->trace_seq.load(std::memory_order_acquire);
    if (!(seq & 1)) {
        TraceSession* sole = p->sole_trace_session.load(std::memory_order_relaxed);
        Term tracer = p->sole_tracer.load(std::memory_order_relaxed);
        std::uint32_t flags = p->all_trace_flags.load(std::memory_order_relaxed);
        std::atomic_thread_fence(std::memory_order_acquire);
        if (p->trace_seq.load(std::memory_order_relaxed) == seq && sole) {
            if (sole == session) return TracerRef{session, tracer, flags};
            return TracerRef{nullptr, 0, 0};
        }
    }
    return process_trace_ref(p, session);
}

// Drops [session]'s flags on [p] because its tracer is gone (OTP removes them the same way).
void drop_session(Process* p, const TraceSession* session) {
    std::lock_guard guard(p->lock);
    auto& refs = p->trace_refs;
    refs.erase(std::remove_if(refs.begin(), refs.end(), [&](const TracerRef& r) { return r.session == session; }),
               refs.end());
    recompute_all_flags(p);
}

Term tuple(Process* p, std::initializer_list<Term> elems) {
    Term* hp = p->alloc(elems.size() + 1);
    hp[0] = make_arityval(elems.size());
    std::copy(elems.begin(), elems.end(), hp + 1);
    return make_boxed(hp);
}

Term mfa_tuple(Process* p, Term m, Term f, Word arity) { return tuple(p, {m, f, make_small(SWord(arity))}); }

// {M, F, A} of the function containing [at], or undefined.
Term function_of(Process* p, const Word* at) {
    if (const Module* m = p->vm.module_containing(at))
        if (const FunctionInfo* f = m->function_at(at)) return mfa_tuple(p, m->name, f->name, f->arity);
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

// The tracer of [session] for [p] if it has [flag] there and the tracer is alive; 0 otherwise
// (a dead tracer's flags are dropped). A process tracing itself gets nothing.
Term live_tracer(Vm& vm, Process* p, const TraceSession* session, std::uint32_t flag, std::uint32_t* flags_out) {
    TracerRef r = process_trace_ref(p, session);
    if (!(r.flags & flag) || !r.tracer || r.tracer == p->id) return 0;
    if (!vm.lookup_process(r.tracer)) {
        drop_session(p, session);
        return 0;
    }
    if (flags_out) *flags_out = r.flags;
    return r.tracer;
}

// The timestamp [flags] ask for (now wins over strict, strict over monotonic), or 0.
Term timestamp_for(Process* p, std::uint32_t flags) {
    if (flags & TRACE_TS_NOW) return now_timestamp(p);
    if (!(flags & (TRACE_TS_STRICT | TRACE_TS_MONO))) return 0;
    Term mono = make_integer(p, now_ns());
    if (!(flags & TRACE_TS_STRICT)) return mono;
    std::int64_t unique = p->vm.next_unique.fetch_add(1, std::memory_order_relaxed);
    return tuple(p, {mono, make_integer(p, unique)});
}

// {trace, Pid, Body...} to [tracer], or {trace_ts, Pid, Body..., Ts} when [ts] is set.
void send_trace(Process* p, Term tracer, Term ts, std::initializer_list<Term> body) {
    Word n = 2 + body.size() + (ts ? 1 : 0);
    Term* hp = p->alloc(n + 1);
    hp[0] = make_arityval(n);
    hp[1] = ts ? atom("trace_ts") : atoms::trace;
    hp[2] = p->id;
    std::copy(body.begin(), body.end(), hp + 3);
    if (ts) hp[n] = ts;
    p->vm.send_message(p, tracer, make_boxed(hp));
}

// What one breakpoint hit is about.
struct Hit {
    Process* p;
    Term* x;
    Term module, function;
    Word arity;
    const void* mfa_source;  // the CodeInfo, or the Export tagged with bit 0
};

Term source_mfa(Process* p, Term source_word) {
    Word raw = Word(small_value(source_word));
    if (raw & 1) {
        const Export* e = reinterpret_cast<const Export*>(raw & ~Word(1));
        return mfa_tuple(p, e->module, e->function, e->arity);
    }
    const CodeInfo* ci = reinterpret_cast<const CodeInfo*>(raw);
    return mfa_tuple(p, ci->module, ci->function, ci->arity);
}

// The trace actions of match specs run at a breakpoint.
class HitActions : public MatchSpecActions {
public:
    HitActions(Vm& vm, TraceSession* session) : m_vm(vm), m_session(session) {}

    Term caller(Process* p) override { return function_of(p, real_return_address(p)); }
    Term caller_line(Process* p) override {
        const Word* cp = real_return_address(p);
        const Module* m = p->vm.module_containing(cp);
        const FunctionInfo* f = m ? m->function_at(cp) : nullptr;
        if (!f) return atoms::undefined;
        LineEntry loc = m->location_at(cp - 1);
        Term where = atoms::undefined;
        if (loc.line) {
            const std::string& file = m->files[loc.file_index];
            Term name = NIL;
            for (auto c = file.rbegin(); c != file.rend(); ++c)
                name = make_cons_on(p->alloc(2), make_small(static_cast<unsigned char>(*c)), name);
            where = tuple(p, {name, make_small(SWord(loc.line))});
        }
        return tuple(p, {m->name, f->name, make_small(SWord(f->arity)), where});
    }
    Term process_dump(Process* p) override { return process_dump_binary(p); }

    Term change_trace(Process* p, Term who, Term disable, Term enable) override {
        std::uint32_t off = 0, on = 0;
        if (!parse(disable, &off) || !parse(enable, &on)) return p->badarg();
        std::shared_ptr<Process> holder;
        Process* target = p;
        if (who && who != p->id) {
            if (is_atom(who)) holder = m_vm.whereis(who);
            else if (is_pid(who)) holder = m_vm.lookup_process(who);
            if (!holder) return p->badarg();
            if (holder.get() != p) target = holder.get();
        }
        // The target takes over the tracer of the process running the match spec.
        TracerRef mine = process_trace_ref(p, m_session);
        TracerRef before = process_trace_ref(target, m_session);
        Term tracer = before.tracer ? before.tracer : mine.tracer;
        if (off) set_process_flags(m_vm, target, m_session, tracer, off, false, false);
        if (on && tracer) set_process_flags(m_vm, target, m_session, tracer, on, true, false);
        changed = true;
        return process_trace_ref(target, m_session).flags != before.flags ? atoms::true_ : atoms::false_;
    }

    void set_silent(Process* p, bool on) override {
        TracerRef r = process_trace_ref(p, m_session);
        if (r.tracer) set_process_flags(m_vm, p, m_session, r.tracer, TRACE_SILENT, on, false);
        changed = true;
    }

    bool changed = false;  // the process's flags may have changed

private:
    static bool parse(Term list, std::uint32_t* out) {
        for (Term l = list; !is_nil(l); l = cdr(l)) {
            if (!is_list(l)) return false;
            std::uint32_t bit = process_flag_bit(car(l));
            if (!bit) return false;
            *out |= bit;
        }
        return true;
    }

    Vm& m_vm;
    TraceSession* m_session;
};

// {trace, Pid, call, {M, F, Args}} (or Arity with the arity flag), with the match spec's
// message as a fifth element when it gave one; timestamped per [flags] (meta: always now).
void send_call(Hit& h, Term tracer, std::uint32_t flags, Term extra, bool meta) {
    Process* p = h.p;
    Term what;
    if (!meta && (flags & TRACE_ARITY)) {
        what = make_small(SWord(h.arity));
    } else {
        Term* cells = p->alloc(2 * h.arity);
        what = NIL;
        for (Word i = h.arity; i-- > 0;) what = make_cons_on(cells + 2 * i, h.x[i], what);
    }
    Term mfa = tuple(p, {h.module, h.function, what});
    Term ts = timestamp_for(p, meta ? TRACE_TS_NOW : flags);
    if (extra != atoms::true_) send_trace(p, tracer, ts, {atoms::call, mfa, extra});
    else send_trace(p, tracer, ts, {atoms::call, mfa});
}

// Call or meta tracing for one session (OTP's do_call_trace / erts_call_trace): [ref] is the
// process's tracing in the session (call trace), or [meta_tracer] is set. Returns the match
// spec's return/exception flags; [sent] tells whether a call message went out. A dead tracer
// is noticed when there is something to send to it.
std::uint32_t call_trace(Vm& vm, Hit& h, TraceSession* session, MatchSpec* ms, TracerRef ref, Term meta_tracer,
                         bool* sent, std::uint32_t* flags_inout) {
    Process* p = h.p;
    bool meta = meta_tracer != 0;
    std::uint32_t flags = meta ? 0 : ref.flags;
    Term tracer = meta ? meta_tracer : ref.tracer;
    if (!tracer || tracer == p->id) return 0;  // a process tracing itself gets nothing
    MatchSpec::Result r{true, atoms::true_, 0};
    if (ms) {
        HitActions actions(vm, session);
        r = ms->run(p, h.x, h.arity, actions);
        // Flags the match spec changed apply to this call already (arity, silent, return_to).
        if (!meta && actions.changed) *flags_inout = flags = process_trace_ref(p, session).flags;
    }
    if (!meta && (flags & TRACE_SILENT)) return 0;
    if (!r.matched) return 0;
    if (!vm.lookup_process(tracer)) {
        if (!meta) drop_session(p, session);
        return 0;
    }
    if (r.message == atoms::false_) return r.flags;
    send_call(h, tracer, flags, r.message, meta);
    *sent = true;
    return r.flags;
}

CallAccounting& accounting_of(Process* p, TraceSession* session) {
    for (CallAccounting& a : p->call_accounting)
        if (a.session == session) return a;
    p->call_accounting.push_back(CallAccounting{session, nullptr, 0, 0, nullptr, 0, 0});
    return p->call_accounting.back();
}

// The call_time or call_memory table of [ci] for [session] now, or null.
CallTimeData* table_of(const CodeInfo* ci, const TraceSession* session, bool memory) {
    if (!ci) return nullptr;
    const GenericBpData* d = active_data(ci->gen_bp, session);
    if (!d) return nullptr;
    std::uint32_t flags = d->flags.load(std::memory_order_relaxed);
    if (memory) return (flags & BPF_MEM_TRACE_ACTIVE) ? d->memory : nullptr;
    return (flags & BPF_TIME_TRACE_ACTIVE) ? d->time : nullptr;
}

// Charges what [p] used since the last event to the function it was in (with the calls to it
// not yet counted), then starts charging [next], counting one call to it if [call]; returns the
// function charged before. One table update per event.
const CodeInfo* charge(Process* p, CallAccounting& a, bool memory, const CodeInfo* next, bool call) {
    std::int64_t now = memory ? std::int64_t(p->allocated_words()) : now_ns();
    const CodeInfo*& current = memory ? a.memory_ci : a.time_ci;
    std::int64_t& since = memory ? a.memory_since : a.time_since;
    std::int64_t& pending = memory ? a.memory_calls : a.time_calls;
    if (CallTimeData* t = table_of(current, a.session, memory)) t->add(p->id, pending, now - since);
    const CodeInfo* previous = current;
    current = next;
    since = now;
    pending = call ? 1 : 0;
    return previous;
}

// A return_trace or exception_trace frame if the match spec asked for one; [tracer_word] is
// true (the process's tracer in the session) or a meta tracer.
void push_return_frame(Hit& h, TraceSession* session, std::uint32_t ms_flags, Term tracer_word) {
    if (!(ms_flags & (MS_RETURN_TRACE | MS_EXCEPTION_TRACE))) return;
    TraceFrameKind kind = (ms_flags & MS_EXCEPTION_TRACE) ? TraceFrameKind::ExceptionTrace : TraceFrameKind::ReturnTrace;
    push_frame(h.p, h.x, h.arity, {make_trace_mark(session, kind), pointer_to_small(h.mfa_source), tracer_word});
}

// The kinds that act only for a process with the `call` flag in the session.
constexpr std::uint32_t needs_call = BPF_LOCAL_TRACE | BPF_GLOBAL_TRACE | BPF_TIME_TRACE_ACTIVE | BPF_MEM_TRACE_ACTIVE;

// One session's work at a breakpoint hit beyond call_count (OTP's do_session_breakpoint).
void session_breakpoint(Vm& vm, Hit& h, GenericBp* bp, const CodeInfo* ci, bool local) {
    TraceSession* session = bp->session;
    if (!session->alive.load(std::memory_order_acquire)) return;
    const GenericBpData& d = bp->data[active_bp_index()];
    std::uint32_t flags = d.flags.load(std::memory_order_relaxed);
    Process* p = h.p;
    TracerRef ref{nullptr, 0, 0};
    if (flags & needs_call) {
        if (p->all_trace_flags.load(std::memory_order_acquire) & TRACE_CALL) ref = own_trace_ref(p, session);
        if (!(ref.flags & TRACE_CALL)) flags &= ~needs_call;
    }
    std::uint32_t pflags = ref.flags;
    Word live = h.arity;
    if (flags & (BPF_LOCAL_TRACE | BPF_GLOBAL_TRACE)) {
        bool sent = false;
        std::uint32_t ms_flags = call_trace(vm, h, session, d.ms, ref, 0, &sent, &pflags);
        // return_to (local breakpoints only): one frame per chain of tail calls, below the
        // return_trace frame so that return_from comes first.
        if (sent && local && (pflags & TRACE_RETURN_TO)) {
            bool already = false;
            real_return_address(p, session, &already);
            if (!already) push_frame(p, h.x, live, {make_trace_mark(session, TraceFrameKind::ReturnTo)});
        }
        push_return_frame(h, session, ms_flags, atoms::true_);
    }
    if (flags & BPF_META_TRACE) {
        auto& meta_slot = const_cast<std::atomic<Term>&>(d.meta_tracer);
        Term meta_tracer = meta_slot.load(std::memory_order_relaxed);
        if (is_pid(meta_tracer) && meta_tracer != p->id && !vm.lookup_process(meta_tracer)) {
            meta_slot.compare_exchange_strong(meta_tracer, NIL, std::memory_order_relaxed);
            meta_tracer = NIL;
        }
        if (is_pid(meta_tracer)) {
            bool sent = false;
            std::uint32_t ignored = 0;
            std::uint32_t ms_flags = call_trace(vm, h, session, d.meta_ms, ref, meta_tracer, &sent, &ignored);
            push_return_frame(h, session, ms_flags, meta_tracer);
        }
    }
    if (ci && (flags & (BPF_TIME_TRACE_ACTIVE | BPF_MEM_TRACE_ACTIVE))) {
        CallAccounting& a = accounting_of(p, session);
        Term prev_time = NIL, prev_memory = NIL;
        if (flags & BPF_TIME_TRACE_ACTIVE)
            if (const CodeInfo* prev = charge(p, a, false, ci, true)) prev_time = pointer_to_small(prev);
        if (flags & BPF_MEM_TRACE_ACTIVE)
            if (const CodeInfo* prev = charge(p, a, true, ci, true)) prev_memory = pointer_to_small(prev);
        // One accounting frame per chain of tail calls: none when a trace frame is on top.
        if (p->cp != trace_return_code())
            push_frame(p, h.x, live, {make_trace_mark(session, TraceFrameKind::Accounting), prev_time, prev_memory});
    }
}

// The tracer a return/exception frame reports to: the process's tracer in the session
// (still with `call`), or the meta tracer kept in the frame; [ts_flags] says which timestamp.
Term frame_tracer(Vm& vm, Process* p, const TraceSession* session, Term word, std::uint32_t* ts_flags) {
    if (!session->alive.load(std::memory_order_acquire)) return 0;
    if (word != atoms::true_) {
        *ts_flags = TRACE_TS_NOW;
        return word != p->id && vm.lookup_process(word) ? word : 0;
    }
    return live_tracer(vm, p, session, TRACE_CALL, ts_flags);
}

}  // namespace

Term now_timestamp(Process* p) {
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
                  .count();
    return tuple(p, {make_small(us / 1000000000000), make_small((us / 1000000) % 1000000), make_small(us % 1000000)});
}

std::uint32_t process_flag_bit(Term name) {
    for (const FlagName& n : PROCESS_FLAGS)
        if (name == atom(n.name)) return n.bit;
    return 0;
}

Term process_flag_list(Process* p, std::uint32_t flags) {
    Term l = NIL;
    for (auto it = std::rbegin(PROCESS_FLAGS); it != std::rend(PROCESS_FLAGS); ++it)
        if (flags & it->bit) l = make_cons_on(p->alloc(2), atom(it->name), l);
    return l;
}

namespace {
// The hot path: call_count, and whether a session has anything else to do for [p].
template <typename Slow>
void for_each_hit(Process* p, GenericBp* head, Slow&& slow) {
    unsigned ix = active_bp_index();
    bool call_traced = p->all_trace_flags.load(std::memory_order_relaxed) & TRACE_CALL;
    for (GenericBp* bp = head; bp; bp = bp->next.load(std::memory_order_acquire)) {
        std::uint32_t flags = bp->data[ix].flags.load(std::memory_order_relaxed);
        if (flags & BPF_COUNT_ACTIVE) bp->call_count.fetch_add(1, std::memory_order_relaxed);
        if ((flags & BPF_META_TRACE) || (call_traced && (flags & needs_call))) slow(bp);
    }
}
}  // namespace

Word CallTracer::function_breakpoint(Process* p, const CodeInfo* ci, Term* x) {
    GenericBp* head = ci->gen_bp.load(std::memory_order_acquire);
    for_each_hit(p, head, [&](GenericBp* bp) {
        Hit h{p, x, ci->module, ci->function, ci->arity, ci};
        session_breakpoint(m_vm, h, bp, ci, true);
    });
    return head->orig_instr;
}

const Word* CallTracer::export_breakpoint(Process* p, Export* e, Term* x) {
    for_each_hit(p, e->gen_bp.load(std::memory_order_acquire), [&](GenericBp* bp) {
        Hit h{p, x, e->module, e->function, e->arity, reinterpret_cast<const char*>(e) + 1};
        session_breakpoint(m_vm, h, bp, nullptr, false);
    });
    return e->bp_original.load(std::memory_order_acquire);
}

const Word* CallTracer::trace_frame_returned(Process* p, Term value) {
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
        std::uint32_t flags = 0;
        if (Term tracer = frame_tracer(m_vm, p, session, frame[3], &flags))
            send_trace(p, tracer, timestamp_for(p, flags), {atom("return_from"), source_mfa(p, frame[2]), value});
        break;
    }
    case TraceFrameKind::ReturnTo: {
        // Names the first real return address, past any trace frames below this one.
        if (!session->alive.load(std::memory_order_acquire)) break;
        std::uint32_t flags = 0;
        Term tracer = live_tracer(m_vm, p, session, TRACE_RETURN_TO, &flags);
        if (!tracer) break;
        p->cp = resume_at;
        Term where = function_of(p, real_return_address(p));
        p->cp = nullptr;
        send_trace(p, tracer, timestamp_for(p, flags), {atom("return_to"), where});
        break;
    }
    case TraceFrameKind::Accounting: {
        // Charges the function returning, and resumes charging the one saved in the frame.
        for (CallAccounting& a : p->call_accounting) {
            if (a.session != session) continue;
            for (bool memory : {false, true}) {
                Term prev = frame[memory ? 3 : 2];
                if ((memory ? a.memory_ci : a.time_ci) || is_small(prev))
                    charge(p, a, memory, is_small(prev) ? small_to_pointer<const CodeInfo>(prev) : nullptr, false);
            }
        }
        break;
    }
    }
    return resume_at;
}

void CallTracer::exception_unwinding(Process* p, Term* from, Term* to, const Word* catch_at) {
    std::vector<TraceSession*> returned_to;
    for (Term* s = from + 1; s < to; ++s) {
        if (!is_trace_mark(*s)) continue;
        Term* frame = s - 1;
        Word mark = *s;
        TraceSession* session = trace_mark_session(mark);
        --p->trace_frames;
        switch (trace_mark_kind(mark)) {
        case TraceFrameKind::ExceptionTrace: {
            std::uint32_t flags = 0;
            if (Term tracer = frame_tracer(m_vm, p, session, frame[3], &flags)) {
                // A throw nobody catches is reported as the error it becomes.
                bool nocatch = !catch_at && p->exception.cls == atoms::throw_;
                Term value = nocatch ? tuple(p, {atoms::error, tuple(p, {atom("nocatch"), p->exception.reason})})
                                     : tuple(p, {p->exception.cls, p->exception.reason});
                send_trace(p, tracer, timestamp_for(p, flags), {atom("exception_from"), source_mfa(p, frame[2]), value});
            }
            break;
        }
        case TraceFrameKind::ReturnTo:
            if (std::find(returned_to.begin(), returned_to.end(), session) == returned_to.end())
                returned_to.push_back(session);
            break;
        case TraceFrameKind::ReturnTrace:
        case TraceFrameKind::Accounting:
            break;
        }
        s += trace_frame_words(mark) - 2;
    }
    // One return_to per session, naming the function that catches.
    if (!catch_at) return;
    for (TraceSession* session : returned_to) {
        if (!session->alive.load(std::memory_order_acquire)) continue;
        std::uint32_t flags = 0;
        if (Term tracer = live_tracer(m_vm, p, session, TRACE_RETURN_TO, &flags))
            send_trace(p, tracer, timestamp_for(p, flags), {atom("return_to"), function_of(p, catch_at)});
    }
}

void CallTracer::schedule_break(Process* p, bool out) {
    std::int64_t now = now_ns();
    for (CallAccounting& a : p->call_accounting) {
        if (!out) {
            a.time_since = now;
        } else if (CallTimeData* t = table_of(a.time_ci, a.session, false)) {
            t->add(p->id, a.time_calls, now - a.time_since);
            a.time_calls = 0;
        }
    }
}

namespace {
// The refs [from] passes on through [every] (set_on_spawn / set_on_link) or, once, [first]
// (set_on_first_*: that flag is consumed and not inherited).
std::vector<TracerRef> inherited(Process* from, std::uint32_t every, std::uint32_t first) {
    std::vector<TracerRef> out;
    if (!from || !(from->all_trace_flags.load(std::memory_order_acquire) & (every | first))) return out;
    std::lock_guard guard(from->lock);
    for (TracerRef& r : from->trace_refs) {
        if (r.flags & every) {
            out.push_back(r);
        } else if (r.flags & first) {
            TracerRef copy = r;
            copy.flags &= ~first;
            out.push_back(copy);
            r.flags &= ~first;
        }
    }
    recompute_all_flags(from);
    return out;
}

void give(Process* to, const std::vector<TracerRef>& refs) {
    if (refs.empty()) return;
    std::lock_guard guard(to->lock);
    for (const TracerRef& r : refs) {
        auto it = std::find_if(to->trace_refs.begin(), to->trace_refs.end(),
                               [&](const TracerRef& c) { return c.session == r.session; });
        if (it == to->trace_refs.end()) to->trace_refs.push_back(r);
        else it->flags |= r.flags;
    }
    recompute_all_flags(to);
}
}  // namespace

void CallTracer::module_loading(Module& module) {
    for (TraceSession* s : live_sessions()) {
        std::uint32_t flags;
        MatchSpec* ms;
        {
            std::lock_guard guard(s->mutex);
            flags = s->on_load_flags;
            ms = s->on_load_ms;
        }
        if (flags) apply_on_load(module, s, flags, ms);
    }
}

void CallTracer::process_linked(Process* linker, Process* linked) {
    give(linked, inherited(linker, TRACE_SOL, TRACE_SOL1));
}

void CallTracer::process_spawned(Process* parent, Process* child) {
    std::vector<TracerRef> inherit = inherited(parent, TRACE_SOS, TRACE_SOS1);
    TraceSession& legacy = legacy_session();
    {
        std::lock_guard guard(legacy.mutex);
        if (legacy.new_procs_flags)
            inherit.push_back(TracerRef{&legacy, legacy.new_procs_tracer, legacy.new_procs_flags});
    }
    give(child, inherit);
}

bool set_process_flags(Vm& vm, Process* p, TraceSession* session, Term tracer, std::uint32_t flags, bool on,
                       bool tracer_given) {
    // One tracer per process per session: a different tracer that is still alive is an error
    // (when turning flags off too, if a tracer was named). Liveness is checked without p->lock
    // held: the process table lock is taken before process locks elsewhere.
    Term current = process_trace_ref(p, session).tracer;
    bool current_alive = current && (current == p->id || vm.lookup_process(current));
    if (current && current != tracer && current_alive && (on || tracer_given)) return false;
    std::lock_guard guard(p->lock);
    auto& refs = p->trace_refs;
    auto it = std::find_if(refs.begin(), refs.end(), [&](const TracerRef& r) { return r.session == session; });
    if (it != refs.end() && !current_alive) {
        refs.erase(it);  // the old tracer is gone, and its flags with it
        it = refs.end();
    }
    if (on) {
        if (it == refs.end()) {
            if (flags) refs.push_back(TracerRef{session, tracer, flags});
        } else {
            it->tracer = tracer;
            it->flags |= flags;
        }
    } else if (it != refs.end()) {
        it->flags &= ~flags;
        if (it->flags == 0) refs.erase(it);
    }
    recompute_all_flags(p);
    return true;
}

TracerRef process_trace_ref(Process* p, const TraceSession* session) {
    std::lock_guard guard(p->lock);
    for (const TracerRef& r : p->trace_refs)
        if (r.session == session) return r;
    return TracerRef{nullptr, 0, 0};
}

TracerRef live_trace_ref(Vm& vm, Process* p, const TraceSession* session) {
    TracerRef r = process_trace_ref(p, session);
    if (r.tracer && r.tracer != p->id && !vm.lookup_process(r.tracer)) {
        drop_session(p, session);  // a dead tracer's flags are removed (OTP's trace_status)
        return TracerRef{nullptr, 0, 0};
    }
    return r;
}

}  // namespace beamlet::tracing
