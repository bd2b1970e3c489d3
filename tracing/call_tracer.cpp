// tracing/call_tracer.cpp — breakpoint actions and process trace flags.
#include "tracing/call_tracer.hpp"

#include <algorithm>

#include "tracing/breakpoints.hpp"
#include "tracing/sessions.hpp"
#include "vm/module.hpp"
#include "vm/atom_table.hpp"

namespace beamlet::tracing {

using namespace vm;

namespace {

void recompute_all_flags(Process* p) {
    std::uint32_t all = 0;
    for (const TracerRef& r : p->trace_refs) all |= r.flags;
    p->all_trace_flags.store(all, std::memory_order_release);
}

// The tracer of [session] for [p] if [p] has [flag] in it; 0 otherwise.
Term tracer_for(Process* p, const TraceSession* session, std::uint32_t flag, std::uint32_t* flags_out) {
    std::lock_guard guard(p->lock);
    for (const TracerRef& r : p->trace_refs)
        if (r.session == session && (r.flags & flag) && r.tracer) {
            *flags_out = r.flags;
            return r.tracer;
        }
    return 0;
}

// Drops [session]'s flags on [p] because its tracer is gone (OTP removes them the same way).
void drop_session(Process* p, const TraceSession* session) {
    std::lock_guard guard(p->lock);
    auto& refs = p->trace_refs;
    refs.erase(std::remove_if(refs.begin(), refs.end(), [&](const TracerRef& r) { return r.session == session; }),
               refs.end());
    recompute_all_flags(p);
}

// {trace, Pid, call, {M, F, Args}} (or Arity with the arity flag) to the tracer.
void send_call_message(Vm& vm, Process* p, Term tracer, std::uint32_t flags, Term m, Term f, Word arity, const Term* x,
                       const TraceSession* session) {
    std::shared_ptr<Process> to = vm.lookup_process(tracer);
    if (!to) {
        drop_session(p, session);
        return;
    }
    Term what;
    if (flags & TRACE_ARITY) {
        what = make_small(SWord(arity));
    } else {
        Term* cells = p->alloc(2 * arity);
        what = NIL;
        for (Word i = arity; i-- > 0;) what = make_cons_on(cells + 2 * i, x[i], what);
    }
    Term* mfa = p->alloc(4);
    mfa[0] = make_arityval(3);
    mfa[1] = m;
    mfa[2] = f;
    mfa[3] = what;
    Term* msg = p->alloc(5);
    msg[0] = make_arityval(4);
    msg[1] = atoms::trace;
    msg[2] = p->id;
    msg[3] = atoms::call;
    msg[4] = make_boxed(mfa);
    vm.send_message(p, tracer, make_boxed(msg));
}

void trace_call(Vm& vm, Process* p, const std::atomic<GenericBp*>& chain, std::uint32_t kind, Term m, Term f,
                Word arity, const Term* x) {
    if (!(p->all_trace_flags.load(std::memory_order_acquire) & TRACE_CALL)) return;
    unsigned ix = active_bp_index();
    for (GenericBp* bp = chain.load(std::memory_order_acquire); bp; bp = bp->next.load(std::memory_order_acquire)) {
        if (!(bp->data[ix].flags.load(std::memory_order_relaxed) & kind)) continue;
        std::uint32_t flags = 0;
        Term tracer = tracer_for(p, bp->session, TRACE_CALL, &flags);
        // A process is never told about itself when it is its own tracer.
        if (!tracer || tracer == p->id) continue;
        send_call_message(vm, p, tracer, flags, m, f, arity, x, bp->session);
        // return_to works with local patterns only, as in OTP.
        if ((flags & TRACE_RETURN_TO) && kind == BPF_LOCAL_TRACE) p->return_to_tracer = tracer;
    }
}

}  // namespace

Word CallTracer::function_breakpoint(Process* p, const CodeInfo* ci, Term* x) {
    GenericBp* head = ci->gen_bp.load(std::memory_order_acquire);
    unsigned ix = active_bp_index();
    // call_count counts every call, whatever the process's flags; no lock on this path.
    for (GenericBp* bp = head; bp; bp = bp->next.load(std::memory_order_acquire))
        if (bp->data[ix].flags.load(std::memory_order_relaxed) & BPF_COUNT_ACTIVE)
            bp->call_count.fetch_add(1, std::memory_order_relaxed);
    trace_call(m_vm, p, ci->gen_bp, BPF_LOCAL_TRACE, ci->module, ci->function, ci->arity, x);
    return head->orig_instr;
}

const Word* CallTracer::export_breakpoint(Process* p, Export* e, Term* x) {
    trace_call(m_vm, p, e->gen_bp, BPF_GLOBAL_TRACE, e->module, e->function, e->arity, x);
    return e->bp_original.load(std::memory_order_acquire);
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

void CallTracer::returned_to(Process* p, Term tracer, const Word* resume_at) {
    // {trace, Pid, return_to, {M, F, A}} naming the function execution resumes in, or
    // undefined when the process ends there.
    Term where = atoms::undefined;
    if (const Module* m = m_vm.module_containing(resume_at))
        if (const FunctionInfo* f = m->function_at(resume_at)) {
            Term* mfa = p->alloc(4);
            mfa[0] = make_arityval(3);
            mfa[1] = m->name;
            mfa[2] = f->name;
            mfa[3] = make_small(SWord(f->arity));
            where = make_boxed(mfa);
        }
    if (!m_vm.lookup_process(tracer)) return;
    Term* msg = p->alloc(5);
    msg[0] = make_arityval(4);
    msg[1] = atoms::trace;
    msg[2] = p->id;
    msg[3] = atom("return_to");
    msg[4] = where;
    m_vm.send_message(p, tracer, make_boxed(msg));
}

void CallTracer::module_loading(Module& module) {
    for (TraceSession* s : live_sessions()) {
        std::uint32_t flags;
        {
            std::lock_guard guard(s->mutex);
            flags = s->on_load_flags;
        }
        if (flags) apply_on_load(module, s, flags);
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
