// bif/trace_module_bifs.cpp — the OTP 27 trace module: sessions (create, destroy, info) and the
// session variants of the legacy BIFs (process, function, send, recv, info, delivered).
#include <memory>
#include <optional>
#include <mutex>

#include "bif/bifs.hpp"
#include "vm/port.hpp"
#include "vm/port_table.hpp"
#include "bif/trace_bifs.hpp"
#include "tracing/breakpoints.hpp"
#include "tracing/delivery.hpp"
#include "tracing/process_flags.hpp"
#include "tracing/sessions.hpp"
#include "tracing/staged_change.hpp"
#include "vm/atom_table.hpp"
#include "vm/magic.hpp"
#include "vm/map.hpp"
#include "vm/bignum.hpp"

namespace beamlet::bif {

using namespace vm;
using tracing::BreakpointChange;

namespace {
// The cause in a failed call's error_info when the session argument names no live session
// (bif/lib/beamlet_kernel_errors.erl explains it).
Term session_cause() {
    BEAMLET_CACHED_ATOM(am_session, "session");
    return am_session;
}
}  // namespace

namespace {

// The session a handle names: a strong {Ref, {Name, Id}} or a weak {Name, Id}; null if it is
// malformed or the session is gone.
void session_handle_dropped(MagicHandle* handle);
struct SessionHandle;

// What a session handle names, as OTP 27's term_to_session reads it: a weak handle
// {Name, Id}, or a strong one {MagicRef, {Name, Id}} whose magic reference is a session's
// and names the same session. Anything else is no handle at all (badarg).
bool handle_names(Term handle, Term* name, Word* weak_id, bool* strong);

// The live session [handle] names, or null.
TraceSession* session_of(Term handle) {
    Term name;
    Word weak_id;
    bool strong;
    return handle_names(handle, &name, &weak_id, &strong) ? tracing::find_session(name, weak_id) : nullptr;
}

Term weak_handle(Process* p, const TraceSession* s) {
    BEAMLET_CACHED_ATOM(am_default, "default");
    return make_tuple_on(p, {s->name, s->id ? make_small(SWord(s->weak_id)) : am_default});
}

// Every function and export where [session] has a GenericBp (a BIF's export holds its local
// kinds too).
void collect_session_breakpoints(Vm& vm, TraceSession* session, BreakpointChange& change) {
    for (Module* mod : vm.loaded_modules())
        for (const FunctionInfo& fi : mod->functions) {
            const CodeInfo* ci = mod->code_info(fi);
            if (tracing::find_bp(ci->gen_bp, session)) change.functions.push_back(ci);
            if (Export* e = fi.export_entry; e && !e->is_bif() && tracing::find_bp(e->gen_bp, session))
                change.exports.push_back(e);
        }
    for (Export* e : vm.exports.all())
        if (e->is_bif() && tracing::find_bp(e->gen_bp, session)) change.exports.push_back(e);
}

// What the strong handle of a session owns.
struct SessionHandle {
    Vm* vm;
    Term name;
    Word weak_id;
};

bool handle_names(Term handle, Term* name, Word* weak_id, bool* strong) {
    if (!is_tuple(handle) || tuple_arity(handle) != 2) return false;
    Term first = tuple_element(handle, 0), second = tuple_element(handle, 1);
    if (is_atom(first) && is_small(second)) {  // weak
        if (small_value(second) < 0) return false;
        *name = first;
        *weak_id = Word(small_value(second));
        *strong = false;
        return true;
    }
    if (!is_magic_ref(first) || magic_handle(first)->destructor != session_handle_dropped) return false;
    if (!is_tuple(second) || tuple_arity(second) != 2) return false;
    const auto* owner = static_cast<const SessionHandle*>(magic_handle(first)->data);
    if (tuple_element(second, 0) != owner->name || tuple_element(second, 1) != make_small(SWord(owner->weak_id)))
        return false;
    *name = owner->name;
    *weak_id = owner->weak_id;
    *strong = true;
    return true;
}

// The last strong handle is gone (some GC or process exit, on any thread): the cleaner process
// destroys the session, as if by session_destroy/1. Nothing happens once the VM is stopping.
void session_handle_dropped(MagicHandle* handle) {
    auto* h = static_cast<SessionHandle*>(handle->data);
    Term cleaner = h->vm->trace_cleaner.load();
    if (h->vm->schedulers && cleaner) {
        Term weak[3] = {make_arityval(2), h->name, make_small(SWord(h->weak_id))};
        Term msg[3] = {make_arityval(2), atom("destroy"), make_boxed(weak)};
        h->vm->send_message(nullptr, cleaner, make_boxed(msg));
    }
    delete h;
}

void ensure_cleaner(Process* p) {
    if (p->vm.trace_cleaner.load()) return;
    static std::mutex start_mutex;
    std::lock_guard lock(start_mutex);
    if (p->vm.trace_cleaner.load()) return;
    const Export* entry = p->vm.exports.get(atom("beamlet_internal"), atom("trace_cleaner"), 0);
    p->vm.trace_cleaner.store(p->vm.spawn(nullptr, entry, NIL, NIL, false, false)->id);
}

// beamlet's overload options (trace:session_create/3's Opts, beamlet:trace_limits/2):
// {max_rate, {Max, Milliseconds}}, {max_queue, Length}, {on_overload, pause | stop}.
bool parse_limits(Term opts, TraceLimits* out) {
    BEAMLET_CACHED_ATOM(am_max_rate, "max_rate");
    BEAMLET_CACHED_ATOM(am_max_queue, "max_queue");
    BEAMLET_CACHED_ATOM(am_on_overload, "on_overload");
    BEAMLET_CACHED_ATOM(am_pause, "pause");
    BEAMLET_CACHED_ATOM(am_stop, "stop");
    auto positive = [](Term t) { return is_small(t) && small_value(t) > 0; };
    for (; is_list(opts); opts = cdr(opts)) {
        Term o = car(opts);
        if (!is_tuple(o) || tuple_arity(o) != 2) return false;
        Term key = tuple_element(o, 0), v = tuple_element(o, 1);
        if (key == am_max_rate && is_tuple(v) && tuple_arity(v) == 2 && positive(tuple_element(v, 0)) &&
            positive(tuple_element(v, 1))) {
            out->rate_max = std::uint64_t(small_value(tuple_element(v, 0)));
            out->rate_ms = std::uint64_t(small_value(tuple_element(v, 1)));
        } else if (key == am_max_queue && positive(v) && small_value(v) <= 0x7FFFFFFF) {
            out->max_queue = std::uint32_t(small_value(v));
        } else if (key == am_on_overload && (v == am_pause || v == am_stop)) {
            out->stop = v == am_stop;
        } else {
            return false;
        }
    }
    return is_nil(opts);
}

// The session a handle names, or the legacy session for the atom legacy.
TraceSession* limited_session(Term handle) {
    BEAMLET_CACHED_ATOM(am_legacy, "legacy");
    if (handle == am_legacy) return &tracing::legacy_session();
    return session_of(handle);
}

}  // namespace

// beamlet:trace_limits(Session | legacy, Opts): sets the session's overload limits (Opts as
// for trace:session_create/3; [] removes them) and resets its counters.
Term bif_beamlet_trace_limits2(Process* p, Term* a) {
    TraceSession* s = limited_session(a[0]);
    TraceLimits limits;
    if (!s || !parse_limits(a[1], &limits)) return p->badarg();
    tracing::set_trace_limits(s, limits);
    return atoms::ok;
}

// beamlet:trace_limits(Session | legacy): #{max_rate, max_queue, on_overload, state,
// delivered, dropped} (limits that are not set are absent).
Term bif_beamlet_trace_limits1(Process* p, Term* a) {
    TraceSession* s = limited_session(a[0]);
    if (!s) return p->badarg(session_cause());
    TraceLimits l;
    {
        std::lock_guard guard(s->mutex);
        l = s->limits;
    }
    static const Term states[] = {atom("running"), atom("paused"), atom("stopped")};
    std::vector<std::pair<Term, Term>> pairs;
    if (l.rate_max)
        pairs.emplace_back(atom("max_rate"), make_tuple_on(p, {make_integer(p, SWord(l.rate_max)), make_integer(p, SWord(l.rate_ms))}));
    if (l.max_queue) pairs.emplace_back(atom("max_queue"), make_integer(p, SWord(l.max_queue)));
    pairs.emplace_back(atom("on_overload"), atom(l.stop ? "stop" : "pause"));
    pairs.emplace_back(atom("state"), states[int(s->overload.load(std::memory_order_relaxed))]);
    pairs.emplace_back(atom("delivered"), make_integer(p, SWord(s->delivered.load(std::memory_order_relaxed))));
    pairs.emplace_back(atom("dropped"), make_integer(p, SWord(s->dropped.load(std::memory_order_relaxed))));
    return map_from_pairs(p, std::move(pairs));
}

// trace:session_create(Name, Tracer, Opts): a session with a tracer process (or none:
// undefined). The strong handle {Ref, {Name, Id}} holds a magic reference: when its last copy
// is garbage collected, the session is destroyed.
Term bif_trace_session_create(Process* p, Term* a) {
    Term name = a[0], tracer_term = a[1];
    TraceLimits limits;
    if (!is_atom(name) || !parse_limits(a[2], &limits)) return p->badarg();
    Tracer tracer;
    if (is_pid(tracer_term)) {
        tracer = Tracer::process(tracer_term);  // a dead one too, as OTP 27: its events are dropped
    } else if (is_port(tracer_term)) {
        tracer = Tracer::port(tracer_term);
    } else if (is_tuple(tracer_term) && tuple_arity(tracer_term) == 2) {
        // A tracer module {Module, State}.
        tracer = module_tracer(p->vm, tuple_element(tracer_term, 0), tuple_element(tracer_term, 1));
        if (!tracer) return p->badarg();
    } else if (tracer_term != atoms::undefined) {
        return p->badarg();
    }
    ensure_cleaner(p);
    TraceSession* s = tracing::create_session(name, tracer);
    if (limits.rate_max || limits.max_queue) tracing::set_trace_limits(s, limits);
    Word id[3];
    Word n = p->vm.next_ref.fetch_add(1, std::memory_order_relaxed) + 1;
    id[0] = n & 0x3FFFF;
    id[1] = n >> 18;
    id[2] = 0;
    auto* handle = new MagicHandle();
    handle->destructor = session_handle_dropped;
    handle->data = new SessionHandle{&p->vm, s->name, s->weak_id};
    Term ref = make_magic_ref(p, id, handle);
    return make_tuple_on(p, {ref, weak_handle(p, s)});
}

// trace:session_destroy(Session): removes every setting of the session; false if it was gone.
Term bif_trace_session_destroy(Process* p, Term* a) {
    // As OTP 27: a strong handle of a session already destroyed answers false; a weak one is
    // no longer found (badarg), nor is anything that is not a handle.
    Term name;
    Word weak_id;
    bool strong;
    if (!handle_names(a[0], &name, &weak_id, &strong)) return p->badarg();
    TraceSession* s = tracing::find_session(name, weak_id);
    if (!s) return strong ? atoms::false_ : p->badarg();
    tracing::retire_session(s);
    p->vm.system_monitors.remove(s->id);
    for (Term pid : p->vm.process_ids())
        if (std::shared_ptr<Process> t = pid == p->id ? nullptr : p->vm.lookup_process(pid))
            tracing::set_process_flags(p->vm, t.get(), s, Tracer(), ~0u, false, false);
    tracing::set_process_flags(p->vm, p, s, Tracer(), ~0u, false, false);
    for (Term id : p->vm.port_table->ids())
        if (std::shared_ptr<Port> port = p->vm.port_table->lookup(id)) tracing::drop_session(port.get(), s);
    auto change = std::make_shared<BreakpointChange>();
    change->session = s;
    change->clear_all = true;
    return tracing::run_staged_change(p, change, [s](Process* q, BreakpointChange& c) {
        collect_session_breakpoints(q->vm, s, c);
        std::lock_guard guard(s->mutex);
        tracing::OnLoadPattern& o = s->on_load;
        for (matchspec::MatchSpec** ms : {&o.ms, &o.meta_ms})
            if (*ms && (*ms)->release()) delete *ms;
        o = tracing::OnLoadPattern{};
        return atoms::true_;
    });
}

namespace {
// trace:process/4 and trace:port/4 name their groups all, existing and new; they reach
// erts_internal:trace/4 as processes, existing_processes, ... (OTP 27's trace.erl). [kind]
// is processes or ports; a pid (port) passes as it is, anything else is badarg.
Term group_spec(Term spec, bool ports) {
    BEAMLET_CACHED_ATOM(am_all, "all");
    BEAMLET_CACHED_ATOM(am_existing, "existing");
    BEAMLET_CACHED_ATOM(am_new, "new");
    static const Term names[2][3] = {{atom("processes"), atom("existing_processes"), atom("new_processes")},
                                     {atom("ports"), atom("existing_ports"), atom("new_ports")}};
    const Term* own = names[ports ? 1 : 0];
    if (ports ? is_port(spec) : is_pid(spec)) return spec;
    if (spec == am_all) return own[0];
    if (spec == am_existing) return own[1];
    if (spec == am_new) return own[2];
    for (int i = 0; i < 3; ++i)
        if (spec == own[i]) return spec;
    return 0;
}
}  // namespace

Term bif_trace_process(Process* p, Term* a) {
    if (load_tracer_module_first(p, a, 4, atom("tracer"), "process", "trace")) return THE_NON_VALUE;
    TraceSession* s = session_of(a[0]);
    Term spec = group_spec(a[1], false);
    if (!s) return p->badarg(session_cause());
    if (!spec) return p->badarg();
    return trace_processes(p, s, spec, a[2], a[3]);
}

Term bif_trace_function(Process* p, Term* a) {
    if (load_tracer_module_first(p, a, 4, atom("meta"), "function", "trace")) return THE_NON_VALUE;
    TraceSession* s = session_of(a[0]);
    if (!s) return p->badarg(session_cause());
    return trace_pattern(p, s, a[1], a[2], a[3]);
}

// trace:port(Session, Ports, How, FlagList): erlang:trace/3's port forms in the session.
Term bif_trace_port(Process* p, Term* a) {
    if (load_tracer_module_first(p, a, 4, atom("tracer"), "port", "trace")) return THE_NON_VALUE;
    TraceSession* s = session_of(a[0]);
    Term spec = group_spec(a[1], true);
    if (!s) return p->badarg(session_cause());
    if (!spec) return p->badarg();
    return trace_processes(p, s, spec, a[2], a[3]);
}

// trace:send(Session, MatchSpec, []) and trace:recv(Session, MatchSpec, []).
Term bif_trace_send(Process* p, Term* a) {
    if (load_tracer_module_first(p, a, 3, atom("meta"), "send", "trace")) return THE_NON_VALUE;
    TraceSession* s = session_of(a[0]);
    if (!s) return p->badarg(session_cause());
    return message_pattern(p, s, true, a[1], a[2]);
}

Term bif_trace_recv(Process* p, Term* a) {
    if (load_tracer_module_first(p, a, 3, atom("meta"), "recv", "trace")) return THE_NON_VALUE;
    TraceSession* s = session_of(a[0]);
    if (!s) return p->badarg(session_cause());
    return message_pattern(p, s, false, a[1], a[2]);
}

namespace {
// The session's system monitor: the events it watches, as trace:info(S, system, all) lists
// them (busy_port and busy_dist_port as atoms, the others as {Event, Limit}).
Term system_monitor_items(Process* p, TraceSession* s) {
    std::optional<SystemMonitors::Entry> m = p->vm.system_monitors.get(s->id);
    if (!m) return NIL;
    const MonitorLimits& l = m->limits;
    std::vector<Term> items;
    auto limit = [&](const char* name, std::uint64_t v) {
        if (v) items.push_back(make_tuple_on(p, {atom(name), make_integer(p, std::int64_t(v))}));
    };
    if (l.busy_port) items.push_back(atom("busy_port"));
    if (l.busy_dist_port) items.push_back(atom("busy_dist_port"));
    limit("large_heap", l.large_heap_words);
    limit("long_gc", l.long_gc_ms);
    limit("long_schedule", l.long_schedule_ms);
    if (l.long_msgq) {
        Term limits = make_tuple_on(p, {make_integer(p, std::int64_t(l.msgq_off)), make_integer(p, std::int64_t(l.msgq_on))});
        items.push_back(make_tuple_on(p, {atom("long_message_queue"), limits}));
    }
    Term list = NIL;
    for (auto it = items.rbegin(); it != items.rend(); ++it) list = make_cons_on(p->alloc(2), *it, list);
    return list;
}

// trace:info(S, system, Item): all lists the session's system monitor; an event names its
// setting, {Event, Limit}, or {Event, false} when it is not watched (busy_port and
// busy_dist_port: true or false).
Term system_monitor_info(Process* p, TraceSession* s, Term item) {
    Term items = system_monitor_items(p, s);
    if (item == atoms::all) return make_tuple_on(p, {atom("system"), items});
    for (const char* event : {"busy_port", "busy_dist_port", "large_heap", "long_gc", "long_schedule", "long_message_queue"}) {
        if (item != atom(event)) continue;
        for (Term l = items; is_list(l); l = cdr(l)) {
            Term i = car(l);
            if (i == item) return make_tuple_on(p, {item, atoms::true_});
            if (is_tuple(i) && tuple_element(i, 0) == item) return i;
        }
        return make_tuple_on(p, {item, atoms::false_});
    }
    return THE_NON_VALUE;
}
}  // namespace

Term bif_trace_info(Process* p, Term* a) {
    TraceSession* s = session_of(a[0]);
    if (!s) return p->badarg(session_cause());
    if (a[1] == atom("system")) {
        Term info = system_monitor_info(p, s, a[2]);
        return info == THE_NON_VALUE ? p->badarg() : info;
    }
    return trace_info(p, s, a[1], a[2]);
}

// trace:system(Session, Event, Value) (OTP 28): the session's own erlang:system_monitor/2.
// Value false stops watching Event; long_gc, long_schedule and large_heap take a limit,
// long_message_queue {Disable, Enable} with Disable < Enable, busy_port and busy_dist_port
// true. The events go to the session's tracer (a process or a port) as
// {monitor, Who, Event, Info}.
Term bif_trace_system(Process* p, Term* a) {
    TraceSession* s = session_of(a[0]);
    Term event = a[1], value = a[2];
    if (!s || !s->id) return p->badarg(session_cause());
    SystemMonitors& monitors = p->vm.system_monitors;
    std::optional<SystemMonitors::Entry> current = monitors.get(s->id);
    MonitorLimits l = current ? current->limits : MonitorLimits{};
    bool off = value == atoms::false_;
    auto limit = [&](std::uint64_t* field, std::uint64_t floor) {
        if (off) *field = 0;
        else if (is_small(value) && small_value(value) >= 0) *field = std::max(std::uint64_t(small_value(value)), floor);
        else return false;
        return true;
    };
    bool ok;
    if (event == atom("long_gc")) {
        ok = limit(&l.long_gc_ms, 1);
    } else if (event == atom("long_schedule")) {
        ok = limit(&l.long_schedule_ms, 1);
    } else if (event == atom("large_heap")) {
        ok = limit(&l.large_heap_words, MIN_LARGE_HEAP_WORDS);
    } else if (event == atom("busy_port") || event == atom("busy_dist_port")) {
        ok = off || value == atoms::true_;
        (event == atom("busy_port") ? l.busy_port : l.busy_dist_port) = !off;
    } else if (event == atom("long_message_queue")) {
        ok = off;
        l.long_msgq = false;
        if (!off && is_tuple(value) && tuple_arity(value) == 2) {
            Term disable = tuple_element(value, 0), enable = tuple_element(value, 1);
            ok = is_small(disable) && is_small(enable) && small_value(disable) >= 0 && small_value(enable) > small_value(disable);
            if (ok) {
                l.long_msgq = true;
                l.msgq_off = std::uint64_t(small_value(disable));
                l.msgq_on = std::uint64_t(small_value(enable));
            }
        }
    } else {
        ok = false;
    }
    if (!ok) return p->badarg();
    // A process or port tracer gets the messages; a tracer module or no tracer, none.
    Term receiver = s->tracer.is_process() || s->tracer.is_port() ? s->tracer.word() : 0;
    monitors.set(s->id, receiver, l);
    return atoms::ok;
}

// trace:delivered(Session, Tracee): erlang:trace_delivered/1; OTP 27's trace.erl ignores the
// session argument, whatever it is.
Term bif_trace_delivered2(Process* p, Term* a) { return trace_delivered(p, a[1]); }

// trace:session_info(What): the weak handles of the sessions tracing [What] (a pid, an MFA,
// new processes, on_load, send, 'receive'), or of all sessions for all; undefined for a pid
// or function that does not exist.
Term bif_trace_session_info(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_all, "all");
    BEAMLET_CACHED_ATOM(am_new, "new");
    BEAMLET_CACHED_ATOM(am_new_processes, "new_processes");
    BEAMLET_CACHED_ATOM(am_new_ports, "new_ports");
    BEAMLET_CACHED_ATOM(am_on_load, "on_load");
    BEAMLET_CACHED_ATOM(am_any, "any");
    std::vector<TraceSession*> found;
    for (TraceSession* s : tracing::live_sessions()) {
        if (a[0] == am_all || a[0] == am_any) {  // OTP 27 reads any as all
            found.push_back(s);
        } else if (is_pid(a[0])) {
            std::shared_ptr<Process> t = a[0] == p->id ? nullptr : p->vm.lookup_process(a[0]);
            Process* target = a[0] == p->id ? p : t.get();
            if (!target) return atoms::undefined;
            if (tracing::process_trace_ref(target, s).flags) found.push_back(s);
        } else if (is_port(a[0])) {
            std::shared_ptr<Port> port = p->vm.port_table->lookup(a[0]);
            if (!port) return atoms::undefined;
            if (tracing::port_trace_ref(port.get(), s).flags) found.push_back(s);
        } else if (a[0] == am_new_ports) {
            std::lock_guard guard(s->mutex);
            if (s->new_ports_flags) found.push_back(s);
        } else if (a[0] == am_new || a[0] == am_new_processes) {
            std::lock_guard guard(s->mutex);
            if (s->new_procs_flags) found.push_back(s);
        } else if (a[0] == am_on_load) {
            std::lock_guard guard(s->mutex);
            if (s->on_load.flags) found.push_back(s);
        } else if (a[0] == atoms::send || a[0] == atoms::receive) {
            // Every session whose pattern traces some sends (receives), the default included (OTP).
            const tracing::MessagePattern& pattern =
                (a[0] == atoms::send ? s->send_pattern : s->receive_pattern)[tracing::active_bp_index()];
            if (pattern.on) found.push_back(s);
        } else if (is_tuple(a[0]) && tuple_arity(a[0]) == 3) {
            Term info = trace_info(p, s, a[0], atom("all"));
            if (info == THE_NON_VALUE) return info;
            if (tuple_element(info, 1) == atoms::undefined) return atoms::undefined;
            if (tuple_element(info, 1) != atoms::false_) found.push_back(s);
        } else {
            return p->badarg();
        }
    }
    Term l = NIL;
    for (auto it = found.rbegin(); it != found.rend(); ++it) l = make_cons_on(p->alloc(2), weak_handle(p, *it), l);
    return l;
}

// ---- erl_tracer: OTP's default tracer module, whose two NIFs are built in ----

// erl_tracer:enabled(Tag, TracerPid, Tracee): trace while the tracer process lives (remove
// then); a process's events to itself are discarded.
Term bif_erl_tracer_enabled(Process* p, Term* a) {
    static const Term am_trace = atom("trace"), am_remove = atom("remove"), am_discard = atom("discard"),
                      am_trace_status = atom("trace_status");
    if (!is_pid(a[1])) return am_remove;
    if (!p->vm.lookup_process(a[1])) return am_remove;
    if (a[0] != am_trace_status && a[1] == a[2]) return am_discard;
    return am_trace;
}

// erl_tracer:trace(Tag, TracerPid, Tracee, Msg, Opts): sends {trace, Tracee, Tag, Msg} with
// Opts' extra and match_spec_result (unless true) appended; with a timestamp option, trace_ts
// and the time last. seq_trace events are {seq_trace, Label, Msg}.
Term bif_erl_tracer_trace(Process* p, Term* a) {
    static const Term am_extra = atom("extra"), am_match_spec_result = atom("match_spec_result"),
                      am_timestamp = atom("timestamp"), am_seq_trace = atom("seq_trace"), am_trace_ts = atom("trace_ts"),
                      am_monotonic = atom("monotonic"), am_strict_monotonic = atom("strict_monotonic");
    if (!is_pid(a[1]) || !is_map(a[4])) return atoms::ok;
    Term opts = a[4];
    std::vector<Term> elements;
    bool seq = a[0] == am_seq_trace;
    const Term* ts = map_lookup(opts, am_timestamp);
    elements.push_back(seq ? am_seq_trace : ts ? am_trace_ts : atoms::trace);
    elements.push_back(a[2]);
    if (!seq) elements.push_back(a[0]);
    elements.push_back(a[3]);
    if (const Term* extra = map_lookup(opts, am_extra)) elements.push_back(*extra);
    if (const Term* ms = map_lookup(opts, am_match_spec_result); ms && *ms != atoms::true_) elements.push_back(*ms);
    if (ts) {
        std::int64_t us = p->vm.unique_now_us();
        if (*ts == am_monotonic || *ts == am_strict_monotonic) {
            Term mono = make_integer(p, us * 1000);
            elements.push_back(*ts == am_monotonic ? mono : make_tuple_on(p, {mono, make_integer(p, p->vm.next_unique.fetch_add(1))}));
        } else {
            elements.push_back(make_tuple_on(p, {make_small(us / 1000000000000), make_small(us / 1000000 % 1000000),
                                                 make_small(us % 1000000)}));
        }
    }
    Term* hp = p->alloc(1 + elements.size());
    hp[0] = make_arityval(elements.size());
    for (std::size_t i = 0; i < elements.size(); ++i) hp[1 + i] = elements[i];
    p->vm.send_message(p, a[1], make_boxed(hp));
    return atoms::ok;
}

}  // namespace beamlet::bif
