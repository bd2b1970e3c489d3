// tracing/process_flags.cpp — trace flags per (process, session), and their inheritance.
//
// p->trace_refs is guarded by p->lock. After every change, recompute_all_flags publishes the OR
// of the flags (the hot paths' "is anything traced?" test) and, when exactly one session traces
// the process, that session and tracer under a sequence count, so that event sites read them
// without the lock.
#include "tracing/process_flags.hpp"

#include <algorithm>

#include "tracing/sessions.hpp"
#include "tracing/tracer_module.hpp"
#include "vm/atom_table.hpp"
#include "vm/copy.hpp"
#include "vm/port_table.hpp"
#include "vm/vm.hpp"

namespace beamlet::tracing {

using namespace vm;

namespace {

struct FlagName {
    const char* name;
    std::uint32_t bit;
};
// In the order erlang:trace_info(P, flags) lists them on OTP 25.
const FlagName PROCESS_FLAGS[] = {
    {"running_procs", TRACE_RUNNING_PROCS},
    {"running_ports", TRACE_RUNNING_PORTS},
    {"ports", TRACE_PORTS},
    {"scheduler_id", TRACE_SCHEDULER_ID},
    {"silent", TRACE_SILENT},
    {"return_to", TRACE_RETURN_TO},
    {"arity", TRACE_ARITY},
    {"garbage_collection", TRACE_GC},
    {"exiting", TRACE_EXITING},
    {"running", TRACE_RUNNING},
    {"set_on_first_link", TRACE_SOL1},
    {"set_on_link", TRACE_SOL},
    {"set_on_first_spawn", TRACE_SOS1},
    {"procs", TRACE_PROCS},
    {"call", TRACE_CALL},
    {"set_on_spawn", TRACE_SOS},
    {"receive", TRACE_RECEIVE},
    {"send", TRACE_SEND},
    {"monotonic_timestamp", TRACE_TS_MONO},
    {"strict_monotonic_timestamp", TRACE_TS_STRICT},
    {"timestamp", TRACE_TS_NOW},
};

// Called with p->lock held after every change of p->trace_refs (a process or a port).
template <typename Tracee>
void recompute_all_flags(Tracee* p) {
    std::uint32_t all = 0;
    for (const TracerRef& r : p->trace_refs) all |= r.flags;
    bool sole = p->trace_refs.size() == 1;
    p->trace_seq.fetch_add(1, std::memory_order_acq_rel);  // odd: readers take the lock
    p->sole_trace_session.store(sole ? p->trace_refs[0].session : nullptr, std::memory_order_relaxed);
    p->sole_tracer.store(sole ? p->trace_refs[0].tracer.word() : 0, std::memory_order_relaxed);
    p->all_trace_flags.store(all, std::memory_order_release);
    p->trace_seq.fetch_add(1, std::memory_order_release);
}

// Adds [refs] to [to]'s flags (inheritance: the same tracer, the flags ORed in).
template <typename Tracee>
void give_locked(Tracee* to, const std::vector<TracerRef>& refs) {
    if (refs.empty()) return;
    for (const TracerRef& r : refs) {
        auto it = std::find_if(to->trace_refs.begin(), to->trace_refs.end(),
                               [&](const TracerRef& c) { return c.session == r.session; });
        if (it == to->trace_refs.end()) to->trace_refs.push_back(r);
        else it->flags |= r.flags;
    }
    recompute_all_flags(to);
}

template <typename Tracee>
void give(Tracee* to, const std::vector<TracerRef>& refs) {
    if (refs.empty()) return;
    std::lock_guard guard(to->lock);
    give_locked(to, refs);
}

// The refs [from] passes on through [every] (set_on_spawn / set_on_link) or, once, [first]
// (set_on_first_*: consumed, and not inherited). [accept] filters the sessions.
template <typename Accept>
std::vector<TracerRef> inherited(Process* from, std::uint32_t every, std::uint32_t first, Accept&& accept) {
    std::vector<TracerRef> out;
    if (!from || !(from->all_trace_flags.load(std::memory_order_acquire) & (every | first))) return out;
    std::lock_guard guard(from->lock);
    for (TracerRef& r : from->trace_refs) {
        if (!accept(r.session)) continue;
        if (r.flags & first) {
            // set_on_first_* overrides set_on_*: both end in the parent and the child (OTP).
            TracerRef copy = r;
            copy.flags &= ~(first | every);
            out.push_back(copy);
            r.flags &= ~(first | every);
        } else if (r.flags & every) {
            out.push_back(r);
        }
    }
    recompute_all_flags(from);
    return out;
}

}  // namespace

namespace {
// The atoms of PROCESS_FLAGS, in the same order.
const std::vector<Term>& flag_atoms() {
    static const std::vector<Term> atoms = [] {
        std::vector<Term> v;
        for (const FlagName& n : PROCESS_FLAGS) v.push_back(atom(n.name));
        return v;
    }();
    return atoms;
}
}  // namespace

std::uint32_t process_flag_bit(Term name) {
    static const Term am_all = atom("all");
    if (name == am_all) return TRACEE_FLAGS;
    const std::vector<Term>& names = flag_atoms();
    for (std::size_t i = 0; i < names.size(); ++i)
        if (name == names[i]) return PROCESS_FLAGS[i].bit;
    return 0;
}

Term process_flag_list(Process* p, std::uint32_t flags) {
    const std::vector<Term>& names = flag_atoms();
    Term l = NIL;
    for (std::size_t i = names.size(); i-- > 0;)
        if (flags & PROCESS_FLAGS[i].bit) l = make_cons_on(p->alloc(2), names[i], l);
    return l;
}

bool tracer_alive(Vm& vm, Tracer tracer, Term tracee) {
    if (tracer.is_process()) return vm.find_process(tracer.pid()) != nullptr;
    if (tracer.is_port()) return vm.port_table->lookup(tracer.word()) != nullptr;
    if (tracer.is_module()) {
        static const Term am_trace_status = atom("trace_status");
        auto* t = static_cast<const TracerModule*>(tracer.descriptor());
        return tracer_enabled(vm, t, TracerKind::Default, am_trace_status, tracee) == TracerVerdict::Trace;
    }
    return false;
}

Term tracer_term(Process* p, Tracer tracer) {
    if (tracer.is_process() || tracer.is_port()) return tracer.word();
    if (!tracer.is_module()) return NIL;
    auto* t = static_cast<const TracerModule*>(tracer.descriptor());
    Term state = tracer_module_state(t);
    Word n = term_size_words(state);
    Term* hp = p->alloc(n + 3);
    Term* body = hp + 3;
    hp[0] = make_arityval(2);
    hp[1] = tracer_module_name(t);
    hp[2] = n ? copy_term(state, &body, &p->off_heap_first) : state;
    return make_boxed(hp);
}

namespace {

template <typename Tracee>
TracerRef trace_ref_of(Tracee* p, const TraceSession* session) {
    std::lock_guard guard(p->lock);
    for (const TracerRef& r : p->trace_refs)
        if (r.session == session) return r;
    return TracerRef{nullptr, Tracer(), 0};
}

template <typename Tracee>
bool set_flags(Vm& vm, Tracee* p, TraceSession* session, Tracer tracer, std::uint32_t flags, bool on,
               bool tracer_given) {
    // One tracer per tracee per session: a different tracer that is still alive is an error
    // (when turning flags off too, if a tracer was named). Liveness is checked without p->lock
    // held: the process table lock is taken before process locks elsewhere.
    Tracer current = trace_ref_of(p, session).tracer;
    bool current_alive = current && (current.word() == p->id || tracer_alive(vm, current, p->id));
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

template <typename Tracee>
TracerRef live_ref_of(Vm& vm, Tracee* p, const TraceSession* session) {
    TracerRef r = trace_ref_of(p, session);
    if (r.tracer && r.tracer.word() != p->id && !tracer_alive(vm, r.tracer, p->id)) {
        drop_session(p, session);  // a dead tracer's flags are removed (OTP's trace_status)
        return TracerRef{nullptr, Tracer(), 0};
    }
    return r;
}

template <typename Tracee>
void drop_session_of(Tracee* p, const TraceSession* session) {
    std::lock_guard guard(p->lock);
    auto& refs = p->trace_refs;
    auto it = std::remove_if(refs.begin(), refs.end(), [&](const TracerRef& r) { return r.session == session; });
    if (it == refs.end()) return;
    refs.erase(it, refs.end());
    recompute_all_flags(p);
}

template <typename Tracee>
void refs_of(Tracee* p, std::uint32_t flags, std::vector<TracerRef>* out) {
    std::lock_guard guard(p->lock);
    for (const TracerRef& r : p->trace_refs)
        if (r.flags & flags) out->push_back(r);
}

}  // namespace

bool set_process_flags(Vm& vm, Process* p, TraceSession* session, Tracer tracer, std::uint32_t flags, bool on,
                       bool tracer_given) {
    return set_flags(vm, p, session, tracer, flags, on, tracer_given);
}

bool set_port_flags(Vm& vm, Port* port, TraceSession* session, Tracer tracer, std::uint32_t flags, bool on,
                    bool tracer_given) {
    return set_flags(vm, port, session, tracer, flags, on, tracer_given);
}

void replace_trace_ref(Process* p, TraceSession* session, Tracer tracer, std::uint32_t flags) {
    std::lock_guard guard(p->lock);
    auto& refs = p->trace_refs;
    auto it = std::find_if(refs.begin(), refs.end(), [&](const TracerRef& r) { return r.session == session; });
    if (!tracer || !flags) {
        if (it != refs.end()) refs.erase(it);
    } else if (it == refs.end()) {
        refs.push_back(TracerRef{session, tracer, flags});
    } else {
        *it = TracerRef{session, tracer, flags};
    }
    recompute_all_flags(p);
}

TracerRef process_trace_ref(Process* p, const TraceSession* session) { return trace_ref_of(p, session); }
TracerRef port_trace_ref(Port* port, const TraceSession* session) { return trace_ref_of(port, session); }

TracerRef live_trace_ref(Vm& vm, Process* p, const TraceSession* session) { return live_ref_of(vm, p, session); }
TracerRef live_trace_ref(Vm& vm, Port* port, const TraceSession* session) { return live_ref_of(vm, port, session); }

void drop_session(Process* p, const TraceSession* session) { drop_session_of(p, session); }
void drop_session(Port* port, const TraceSession* session) { drop_session_of(port, session); }

void detail::refs_with(Process* p, std::uint32_t flags, std::vector<TracerRef>* out) { refs_of(p, flags, out); }
void detail::refs_with(Port* port, std::uint32_t flags, std::vector<TracerRef>* out) { refs_of(port, flags, out); }

void inherit_on_spawn(Process* parent, Process* child) {
    std::vector<TracerRef> refs = inherited(parent, TRACE_SOS, TRACE_SOS1, [](const TraceSession*) { return true; });
    if (new_procs_sessions() > 0) for (TraceSession* s : live_sessions()) {
        std::lock_guard guard(s->mutex);
        if (!s->new_procs_flags) continue;
        auto it = std::find_if(refs.begin(), refs.end(), [&](const TracerRef& r) { return r.session == s; });
        if (it == refs.end()) refs.push_back(TracerRef{s, s->new_procs_tracer, s->new_procs_flags});
        else it->flags |= s->new_procs_flags;
    }
    give(child, refs);
}

void inherit_on_open(Port* port) {
    if (new_ports_sessions() == 0) return;
    std::vector<TracerRef> refs;
    for (TraceSession* s : live_sessions()) {
        std::lock_guard guard(s->mutex);
        if (s->new_ports_flags) refs.push_back(TracerRef{s, s->new_ports_tracer, s->new_ports_flags});
    }
    give(port, refs);
}

std::vector<TracerRef> inherit_on_link(Process* linker, Process* linked, bool by_link_bif) {
    // erl 25 passes the legacy session's flags on through spawn_link only; OTP 27 through link/1
    // too. A program that has created a session is an OTP 27 program and gets OTP 27's rule.
    TraceSession* legacy = &legacy_session();
    bool legacy_by_link = sessions_in_use();
    std::vector<TracerRef> refs = inherited(linker, TRACE_SOL, TRACE_SOL1, [&](const TraceSession* s) {
        return !by_link_bif || s != legacy || legacy_by_link;
    });
    give(linked, refs);
    return refs;
}

std::vector<TracerRef> give_inherited(Process* linked, const std::vector<TracerRef>& refs) {
    std::vector<TracerRef> live;
    for (const TracerRef& r : refs)
        if (r.session->alive.load(std::memory_order_acquire)) live.push_back(r);
    // One hold of the lock for the flags given and the sessions that hear getting_linked: a
    // trace:process/4 from another process comes before both or after both (erts handles the
    // link signal under the main lock, which flag changes take too).
    std::lock_guard guard(linked->lock);
    give_locked(linked, live);
    std::vector<TracerRef> procs;
    for (const TracerRef& r : linked->trace_refs)
        if (r.flags & TRACE_PROCS) procs.push_back(r);
    return procs;
}

}  // namespace beamlet::tracing
