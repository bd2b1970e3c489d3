// bif/trace_bifs.cpp — the legacy tracing API on the legacy session: erlang:trace/3,
// trace_pattern/2,3, trace_info/2, trace_delivered/1, match_spec_test/3; and the work they
// share with the OTP 27 trace module (bif/trace_module_bifs.cpp). Pattern changes run through
// tracing's staged-change driver.
#include "bif/trace_bifs.hpp"

#include "tracing/native_tracers.hpp"
#include "tracing/tracer_module.hpp"

#include <algorithm>
#include <memory>

#include "bif/bifs.hpp"
#include "tracing/breakpoints.hpp"
#include "tracing/call_trace.hpp"
#include "tracing/delivery.hpp"
#include "matchspec/match_spec.hpp"
#include "tracing/process_flags.hpp"
#include "tracing/sessions.hpp"
#include "tracing/staged_change.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/copy.hpp"
#include "vm/port.hpp"
#include "vm/port_table.hpp"

namespace beamlet::bif {

using namespace vm;
using tracing::BreakpointChange;
using matchspec::MatchSpec;
using matchspec::MatchSpecKind;

namespace {

// A compiled match spec owned by a BIF until it hands it to a change.
using OwnedSpec = std::unique_ptr<MatchSpec, void (*)(MatchSpec*)>;
OwnedSpec no_spec() {
    return OwnedSpec(nullptr, [](MatchSpec* m) {
        if (m && m->release()) delete m;
    });
}

// Compiles [source] for [kind] into [out]; false after raising badarg with erts's cause
// match_spec (or system_limit for a spec nested too deeply).
bool compile_spec(Process* p, Term source, MatchSpecKind kind, OwnedSpec* out) {
    bool too_deep = false;
    MatchSpec* m = MatchSpec::compile(p->vm, source, nullptr, kind, &too_deep);
    if (!m) {
        if (too_deep) p->error(atoms::system_limit);
        else p->badarg(atom("match_spec"));
        return false;
    }
    m->add_ref();
    out->reset(m);
    return true;
}

// A copy on [p]'s heap of a term kept off-heap (a match spec's source).
Term copy_term_to(Process* p, Term t) {
    Word size = term_size_words(t);
    if (!size) return t;
    Term* hp = p->alloc(size);
    return copy_term(t, &hp, &p->off_heap_first);
}

Term list_of(Process* p, const Term* items, std::size_t n) {
    Term l = NIL;
    for (std::size_t i = n; i-- > 0;) l = make_cons_on(p->alloc(2), items[i], l);
    return l;
}

// The process [pid] names, [p] itself included; null if it does not exist.
std::shared_ptr<Process> process_of(Process* p, Term pid, Process** out) {
    std::shared_ptr<Process> holder = pid == p->id ? nullptr : p->vm.lookup_process(pid);
    *out = pid == p->id ? p : holder.get();
    return holder;
}

}  // namespace

Tracer module_tracer(Vm& vm, Term module, Term state) {
    // OTP's default tracer module with a pid (or port) as its state is that process (its
    // trace_info is the pid again).
    static const Term am_erl_tracer = atom("erl_tracer");
    if (module == am_erl_tracer) return is_pid(state) ? Tracer::process(state) : Tracer();
    if (!is_atom(module) || !tracing::tracer_module_usable(vm, module)) return Tracer();
    return Tracer::module(tracing::intern_tracer_module(module, state));
}

bool load_tracer_module_first(Process* p, Term* a, Word arity, Term key, const char* bif, const char* bif_module) {
    // As OTP 27's trace module does (erlang:trace/3 and trace_pattern/3 are OTP's Erlang, which
    // does the same): a tracer module that is not loaded yet is loaded by calling its enabled/3 once
    // (beamlet_internal:trace_after_load/4, where a module that does not exist raises undef),
    // then the BIF runs again.
    for (Term l = a[arity - 1]; is_list(l); l = cdr(l)) {
        Term f = car(l);
        if (!is_tuple(f) || tuple_arity(f) != 3 || tuple_element(f, 0) != key || !is_atom(tuple_element(f, 1))) continue;
        Term module = tuple_element(f, 1);
        if (module == atom("erl_tracer") || p->vm.find_module(module) || tracing::find_native_tracer(module)) return false;
        const Export* retry = p->vm.exports.get(atom("beamlet_internal"), atom("trace_after_load"), 4);
        Term args = list_of(p, a, arity);
        a[0] = module;
        a[1] = tuple_element(f, 2);
        a[2] = bif_module ? make_tuple_on(p, {atom(bif_module), atom(bif)}) : atom(bif);
        a[3] = args;
        p->ip = retry->address();
        p->exception = PendingException{};
        return true;
    }
    return false;
}

// ---- process flags ------------------------------------------------------------------------------

Term trace_processes(Process* p, TraceSession* session, Term spec, Term how, Term flag_list) {
    BEAMLET_CACHED_ATOM(am_tracer, "tracer");
    BEAMLET_CACHED_ATOM(am_cpu_timestamp, "cpu_timestamp");
    BEAMLET_CACHED_ATOM(am_badopt, "badopt");  // erts's cause for a bad flag list
    BEAMLET_CACHED_ATOM(am_all, "all");
    BEAMLET_CACHED_ATOM(am_existing, "existing");
    BEAMLET_CACHED_ATOM(am_new, "new");
    BEAMLET_CACHED_ATOM(am_processes, "processes");
    BEAMLET_CACHED_ATOM(am_existing_processes, "existing_processes");
    BEAMLET_CACHED_ATOM(am_new_processes, "new_processes");
    BEAMLET_CACHED_ATOM(am_ports, "ports");
    BEAMLET_CACHED_ATOM(am_existing_ports, "existing_ports");
    BEAMLET_CACHED_ATOM(am_new_ports, "new_ports");
    if (how != atoms::true_ && how != atoms::false_) return p->badarg();
    bool on = how == atoms::true_;
    std::uint32_t flags = 0;
    Tracer tracer;
    bool tracer_given = false, cpu_ts = false;
    for (Term l = flag_list; !is_nil(l); l = cdr(l)) {
        if (!is_list(l)) return p->badarg(am_badopt);
        Term f = car(l);
        if (f == am_cpu_timestamp) {
            cpu_ts = true;
        } else if (is_tuple(f) && tuple_arity(f) == 2 && tuple_element(f, 0) == am_tracer) {
            // Sessions have a fixed tracer. A port tracer gets term_to_binary's bytes.
            Term t = tuple_element(f, 1);
            if (session->tracer || (!is_pid(t) && !is_port(t))) return p->badarg(am_badopt);
            tracer = is_pid(t) ? Tracer::process(t) : Tracer::port(t);
            tracer_given = true;
        } else if (is_tuple(f) && tuple_arity(f) == 3 && tuple_element(f, 0) == am_tracer) {
            // {tracer, Module, State}: a tracer module.
            if (session->tracer) return p->badarg(am_badopt);
            tracer = module_tracer(p->vm, tuple_element(f, 1), tuple_element(f, 2));
            if (!tracer) return p->badarg(am_badopt);
            tracer_given = true;
        } else if (std::uint32_t bit = tracing::process_flag_bit(f)) {
            flags |= bit;
        } else {
            return p->badarg(am_badopt);
        }
    }
    if (session->tracer) {
        tracer = session->tracer;
        tracer_given = true;
    } else if (!tracer_given) {
        tracer = Tracer::process(p->id);
    }
    // A dead tracer is accepted, as on OTP, but the flags it would get are removed at once.
    bool dead_tracer = on && tracer != Tracer::process(p->id) && !tracing::tracer_alive(p->vm, tracer);
    auto apply_to = [&](Process* target, std::uint32_t these) {
        if (dead_tracer) return tracing::set_process_flags(p->vm, target, session, tracer, ~0u, false, false);
        return tracing::set_process_flags(p->vm, target, session, tracer, these, on, tracer_given);
    };
    auto apply_to_port = [&](Port* target, std::uint32_t these) {
        if (dead_tracer) return tracing::set_port_flags(p->vm, target, session, tracer, ~0u, false, false);
        return tracing::set_port_flags(p->vm, target, session, tracer, these, on, tracer_given);
    };
    if (is_pid(spec)) {
        if (cpu_ts) return p->badarg();  // cpu_timestamp is node-global: all only
        Process* target;
        std::shared_ptr<Process> holder = process_of(p, spec, &target);
        if (!target || !apply_to(target, flags)) return p->badarg();
        return make_small(1);
    }
    if (is_port(spec)) {
        // One port keeps every flag it is given (OTP 25); only the port events use any.
        std::shared_ptr<Port> port = p->vm.port_table->lookup(spec);
        if (cpu_ts || !port) return p->badarg();
        bool done = dead_tracer ? tracing::set_port_flags(p->vm, port.get(), session, tracer, ~0u, false, false)
                                : tracing::set_port_flags(p->vm, port.get(), session, tracer, flags, on, tracer_given);
        if (!done) return p->badarg();
        return make_small(1);
    }
    bool all = spec == am_all, existing = spec == am_existing, fresh = spec == am_new;
    bool procs_now = all || existing || spec == am_processes || spec == am_existing_processes;
    bool procs_later = all || fresh || spec == am_processes || spec == am_new_processes;
    bool ports_now = all || existing || spec == am_ports || spec == am_existing_ports;
    bool ports_later = all || fresh || spec == am_ports || spec == am_new_ports;
    if (!procs_now && !procs_later && !ports_now && !ports_later) return p->badarg();
    if (cpu_ts && spec != am_all) return p->badarg();
    if (cpu_ts) tracing::set_cpu_timestamp(on);
    // OTP 25's rule for groups: processes are concerned when a process flag or a modifier is
    // given, ports when a port flag or a modifier is; each existing one then gets the whole
    // list, the defaults for new ones only the flags of their kind.
    bool procs_concerned = flags & ~tracing::PORT_ONLY_FLAGS;
    bool ports_concerned = flags & tracing::PORT_TRACE_FLAGS;
    if (procs_later && procs_concerned) {
        if (dead_tracer) tracing::set_new_procs_flags(session, ~0u, Tracer(), false);
        else tracing::set_new_procs_flags(session, flags & ~tracing::PORT_ONLY_FLAGS, tracer, on);
    }
    if (ports_later && ports_concerned) {
        if (dead_tracer) tracing::set_new_ports_flags(session, ~0u, Tracer(), false);
        else tracing::set_new_ports_flags(session, flags & tracing::PORT_TRACE_FLAGS, tracer, on);
    }
    SWord count = 0;
    if (procs_now && procs_concerned) {
        for (Term pid : p->vm.process_ids()) {
            Process* target;
            std::shared_ptr<Process> holder = process_of(p, pid, &target);
            if (target && apply_to(target, flags)) ++count;
        }
    }
    if (ports_now && ports_concerned) {
        for (Term id : p->vm.port_table->ids())
            if (std::shared_ptr<Port> port = p->vm.port_table->lookup(id); port && apply_to_port(port.get(), flags))
                ++count;
    }
    return make_small(count);
}

// erts_internal:trace/3, under OTP's erlang:trace/3.
Term bif_trace3(Process* p, Term* a) { return trace_processes(p, &tracing::legacy_session(), a[0], a[1], a[2]); }

// ---- function patterns --------------------------------------------------------------------------

namespace {

// The functions and exports an MFA pattern matches, into [change]; false for a malformed
// pattern. A function implemented natively (a BIF) counts once, as its BIF.
bool match_pattern(Vm& vm, Term mfa, bool local, BreakpointChange& change, SWord* count) {
    BEAMLET_CACHED_ATOM(am_any, "_");
    if (!is_tuple(mfa) || tuple_arity(mfa) != 3) return false;
    Term m = tuple_element(mfa, 0), f = tuple_element(mfa, 1), a = tuple_element(mfa, 2);
    if (!is_atom(m) || !is_atom(f) || !(is_small(a) || a == am_any)) return false;
    // Wildcards only from the right: {M,F,'_'}, {M,'_','_'}, {'_','_','_'}.
    if (f == am_any && a != am_any) return false;
    if (m == am_any && f != am_any) return false;
    *count = 0;
    if (is_small(a) && (small_value(a) < 0 || small_value(a) > 255)) return true;  // OTP: 0, not badarg
    auto matches = [&](Term mod, Term fun, Word arity) {
        return (m == am_any || m == mod) && (f == am_any || f == fun) && (a == am_any || SWord(arity) == small_value(a));
    };
    std::vector<Module*> modules = vm.loaded_modules();
    std::sort(modules.begin(), modules.end(), [](Module* x, Module* y) { return x->name < y->name; });
    for (Module* mod : modules) {
        if (m != am_any && mod->name != m) continue;
        for (const FunctionInfo& fi : mod->functions) {
            if (!matches(mod->name, fi.name, fi.arity)) continue;
            Export* e = fi.export_entry;
            if (e && e->is_bif()) continue;  // its placeholder body never runs: the BIF is matched below
            if (local) {
                ++*count;
                change.functions.push_back(mod->code_info(fi));
                if (e) change.exports.push_back(e);  // a global setting there is cleared
            } else {
                // A global setting clears local ones on every matching function, exported or
                // not; only exported functions count and get the global breakpoint.
                change.functions.push_back(mod->code_info(fi));
                if (e) {
                    ++*count;
                    change.exports.push_back(e);
                }
            }
        }
    }
    // BIFs have exports but no code: all kinds live on the export. erlang:apply/2,3 are not
    // calls for tracing: compiled code runs them as OTP's apply instruction.
    BEAMLET_CACHED_ATOM(am_apply, "apply");
    for (Export* e : m == am_any ? vm.exports.all() : vm.exports.of_module(m)) {
        if (!e->is_bif() || !matches(e->module, e->function, e->arity)) continue;
        if (e->module == atoms::erlang && e->function == am_apply) continue;
        ++*count;
        if (local) change.bif_locals.push_back(e);
        else change.exports.push_back(e);
    }
    return true;
}

// trace_pattern(on_load, MatchSpec, Flags): the pattern for modules loaded from now on; it
// matches nothing now (0).
Term on_load_pattern(TraceSession* session, bool off, bool pause, bool global, std::uint32_t kinds, OwnedSpec ms,
                     OwnedSpec meta_ms, Term meta_tracer) {
    std::lock_guard guard(session->mutex);
    tracing::OnLoadPattern& o = session->on_load;
    auto set = [](MatchSpec*& slot, MatchSpec* value) {
        if (slot && slot->release()) delete slot;
        slot = value;
    };
    if (off) {
        o.flags &= ~kinds;
        if (kinds & (tracing::BPF_LOCAL_TRACE | tracing::BPF_GLOBAL_TRACE)) set(o.ms, nullptr);
        if (kinds & tracing::BPF_META_TRACE) {
            set(o.meta_ms, nullptr);
            o.meta_tracer = 0;
        }
    } else if (!pause) {
        // Global call tracing and the local kinds exclude each other, as on functions.
        if (global) o.flags &= ~tracing::BPF_LOCAL_KINDS;
        else if (kinds) o.flags &= ~std::uint32_t(tracing::BPF_GLOBAL_TRACE);
        o.flags |= kinds;
        if (kinds & (tracing::BPF_LOCAL_TRACE | tracing::BPF_GLOBAL_TRACE)) set(o.ms, ms.release());
        if (kinds & tracing::BPF_META_TRACE) {
            set(o.meta_ms, meta_ms.release());
            o.meta_tracer = meta_tracer;
        }
    }
    return make_small(0);
}

}  // namespace

namespace {
// Whether [f] is one of trace_pattern/3's options, which erts parses before it looks at what
// the pattern is for ({meta, Tracer} only in a session without a tracer of its own).
bool is_pattern_option(Term f, const TraceSession* session) {
    static const Term names[] = {atom("local"), atom("global"), atom("meta"), atom("call_count"), atom("call_time"),
                                 atom("call_memory")};
    if (std::find(std::begin(names), std::end(names), f) != std::end(names)) return true;
    if (!is_tuple(f) || tuple_element(f, 0) != names[2] || session->tracer) return false;
    if (tuple_arity(f) == 2) return is_pid(tuple_element(f, 1)) || is_port(tuple_element(f, 1));
    return tuple_arity(f) == 3 && is_atom(tuple_element(f, 1));
}
}  // namespace

Term message_pattern(Process* p, TraceSession* session, bool send, Term ms, Term flags) {
    BEAMLET_CACHED_ATOM(am_none, "none");
    BEAMLET_CACHED_ATOM(am_badopt, "badopt");
    BEAMLET_CACHED_ATOM(am_match_spec, "match_spec");
    // As erts: the pattern first, then the options (none are allowed here, but an unknown one
    // is badopt and a known one none).
    OwnedSpec compiled = no_spec();
    bool on = ms != atoms::false_;
    if (is_list(ms)) {
        if (!compile_spec(p, ms, send ? MatchSpecKind::Send : MatchSpecKind::Receive, &compiled)) return THE_NON_VALUE;
    } else if (!is_nil(ms) && ms != atoms::true_ && ms != atoms::false_) {
        return p->badarg(am_match_spec);
    }
    if (!is_nil(flags)) {
        for (Term l = flags; !is_nil(l); l = cdr(l))
            if (!is_list(l) || !is_pattern_option(car(l), session)) return p->badarg(am_badopt);
        return p->badarg(am_none);
    }
    auto change = std::make_shared<BreakpointChange>();
    change->session = session;
    tracing::MessagePatternChange& c = send ? change->send : change->receive;
    c.set = true;
    c.on = on;
    c.ms = compiled.release();
    return tracing::run_staged_change(p, change, [](Process*, BreakpointChange&) { return make_small(1); });
}

Term trace_pattern(Process* p, TraceSession* session, Term mfa, Term ms, Term flags) {
    BEAMLET_CACHED_ATOM(am_global, "global");
    BEAMLET_CACHED_ATOM(am_local, "local");
    BEAMLET_CACHED_ATOM(am_meta, "meta");
    BEAMLET_CACHED_ATOM(am_call_count, "call_count");
    BEAMLET_CACHED_ATOM(am_call_time, "call_time");
    BEAMLET_CACHED_ATOM(am_call_memory, "call_memory");
    BEAMLET_CACHED_ATOM(am_pause, "pause");
    BEAMLET_CACHED_ATOM(am_restart, "restart");
    BEAMLET_CACHED_ATOM(am_on_load, "on_load");
    // erts's causes (erl_erts_errors explains them): a bad flag list, match spec or pattern.
    BEAMLET_CACHED_ATOM(am_badopt, "badopt");
    BEAMLET_CACHED_ATOM(am_match_spec, "match_spec");
    BEAMLET_CACHED_ATOM(am_none, "none");
    if (mfa == atoms::send || mfa == atoms::receive) return message_pattern(p, session, mfa == atoms::send, ms, flags);
    bool local = false, global = false, meta = false, count = false, time = false, memory = false;
    Term meta_tracer = 0;
    for (Term l = flags; !is_nil(l); l = cdr(l)) {
        if (!is_list(l)) return p->badarg(am_badopt);
        Term f = car(l);
        if (f == am_local) local = true;
        else if (f == am_global) global = true;
        else if (f == am_call_count) count = true;
        else if (f == am_call_time) time = true;
        else if (f == am_call_memory) memory = true;
        else if (f == am_meta) {
            meta = true;
            meta_tracer = session->tracer ? session->tracer.word() : p->id;
        } else if (is_tuple(f) && tuple_arity(f) == 2 && tuple_element(f, 0) == am_meta && !session->tracer &&
                   (is_pid(tuple_element(f, 1)) || is_port(tuple_element(f, 1)))) {
            meta = true;
            Term t = tuple_element(f, 1);
            meta_tracer = is_pid(t) ? t : Tracer::port(t).word();
        } else if (is_tuple(f) && tuple_arity(f) == 3 && tuple_element(f, 0) == am_meta && !session->tracer) {
            Tracer t = module_tracer(p->vm, tuple_element(f, 1), tuple_element(f, 2));
            if (!t) return p->badarg(am_badopt);
            meta = true;
            meta_tracer = t.word();
        } else {
            return p->badarg(am_badopt);
        }
    }
    bool counters = count || time || memory;
    if (global && (local || meta || counters)) return p->badarg(am_badopt);
    if (!local && !meta && !counters) global = true;  // the default
    // true, [], restart and pause switch tracing on without a match spec; a non-empty list is
    // a match spec, allowed with call tracing or meta only.
    bool off = ms == atoms::false_;
    bool has_ms = is_list(ms);
    if (!off && !has_ms && !is_nil(ms) && ms != atoms::true_ && ms != am_restart && ms != am_pause)
        return p->badarg(am_match_spec);
    if (has_ms && !local && !global && !meta) return p->badarg(atom("call_count"));  // counters take no match spec
    OwnedSpec compiled = no_spec();
    if (has_ms && !compile_spec(p, ms, MatchSpecKind::Call, &compiled)) return THE_NON_VALUE;
    if (mfa == am_on_load) {
        std::uint32_t kinds = 0;
        if (local) kinds |= tracing::BPF_LOCAL_TRACE;
        if (global) kinds |= tracing::BPF_GLOBAL_TRACE;
        if (meta) kinds |= tracing::BPF_META_TRACE;
        if (count) kinds |= tracing::BPF_COUNT | tracing::BPF_COUNT_ACTIVE;
        if (time) kinds |= tracing::BPF_TIME_TRACE | tracing::BPF_TIME_TRACE_ACTIVE;
        if (memory) kinds |= tracing::BPF_MEM_TRACE | tracing::BPF_MEM_TRACE_ACTIVE;
        OwnedSpec meta_ms = no_spec();
        if (meta && compiled && (local || global)) {
            compiled->add_ref();
            meta_ms.reset(compiled.get());
        } else if (meta) {
            meta_ms = std::move(compiled);
        }
        return on_load_pattern(session, off, ms == am_pause, global, kinds, std::move(compiled), std::move(meta_ms),
                               meta_tracer);
    }
    tracing::TraceAction trace_action = off ? tracing::TraceAction::Off : tracing::TraceAction::On;
    tracing::CountAction count_action = off ? tracing::CountAction::Stop
                                       : ms == am_pause   ? tracing::CountAction::Pause
                                       : ms == am_restart ? tracing::CountAction::Restart
                                                          : tracing::CountAction::Start;
    auto change = std::make_shared<BreakpointChange>();
    change->session = session;
    if (local || global) {
        change->trace = trace_action;
        change->global = global;
        change->ms = compiled.get();
    }
    if (meta) {
        change->meta = trace_action;
        change->meta_tracer = meta_tracer;
        change->meta_ms = compiled.get();
    }
    // The change holds one reference per use of the compiled spec.
    for (MatchSpec* m : {change->ms, change->meta_ms})
        if (m) m->add_ref();
    if (count) change->count = count_action;
    if (time) change->time = count_action;
    if (memory) change->memory = count_action;
    // A malformed pattern is badarg before anything is seized.
    BreakpointChange probe;
    SWord ignored;
    if (!match_pattern(p->vm, mfa, !global, probe, &ignored)) return p->badarg(am_none);
    return tracing::run_staged_change(p, change, [mfa, global](Process* q, BreakpointChange& c) {
        SWord matched = 0;
        match_pattern(q->vm, mfa, !global, c, &matched);
        return make_small(matched);
    });
}

// erts_internal:trace_pattern/3, under OTP's erlang:trace_pattern/2,3.
Term bif_trace_pattern3(Process* p, Term* a) {
    return trace_pattern(p, &tracing::legacy_session(), a[0], a[1], a[2]);
}

// ---- trace_info ---------------------------------------------------------------------------------

namespace {

// trace_info for a pid, a port, new, new_processes or new_ports: flags or tracer.
Term process_info_item(Process* p, TraceSession* session, Term what, Term item) {
    BEAMLET_CACHED_ATOM(am_flags, "flags");
    BEAMLET_CACHED_ATOM(am_tracer, "tracer");
    BEAMLET_CACHED_ATOM(am_new_ports, "new_ports");
    // A port that does not exist is undefined whatever the item (OTP 25 looks the port up
    // first; a process, after the item).
    bool bad_item = item != am_flags && item != am_tracer;
    std::uint32_t flags = 0;
    Tracer tracer;
    if (bad_item && !is_port(what)) return p->badarg();
    if (is_pid(what)) {
        Process* t;
        std::shared_ptr<Process> holder = process_of(p, what, &t);
        if (!t) return atoms::undefined;
        TracerRef r = tracing::live_trace_ref(p->vm, t, session);
        flags = r.flags;
        tracer = r.tracer;
    } else if (is_port(what)) {
        std::shared_ptr<Port> port = p->vm.port_table->lookup(what);
        if (!port) return atoms::undefined;
        if (bad_item) return p->badarg();
        TracerRef r = tracing::live_trace_ref(p->vm, port.get(), session);
        flags = r.flags;
        tracer = r.tracer;
    } else if (what == am_new_ports) {
        {
            std::lock_guard guard(session->mutex);
            flags = session->new_ports_flags;
            tracer = session->new_ports_tracer;
        }
        if (flags && !tracing::tracer_alive(p->vm, tracer)) {
            tracing::set_new_ports_flags(session, ~0u, Tracer(), false);
            flags = 0;
        }
    } else {
        {
            std::lock_guard guard(session->mutex);
            flags = session->new_procs_flags;
            tracer = session->new_procs_tracer;
        }
        // A dead default tracer is forgotten when it is read (OTP's get_new_p_tracing).
        if (flags && !tracing::tracer_alive(p->vm, tracer)) {
            tracing::set_new_procs_flags(session, ~0u, Tracer(), false);
            flags = 0;
        }
    }
    if (item == am_flags) return make_tuple_on(p, {am_flags, tracing::process_flag_list(p, flags)});
    if (item == am_tracer) return make_tuple_on(p, {am_tracer, flags ? tracing::tracer_term(p, tracer) : NIL});
    return p->badarg();
}

// The items of trace_info on functions and on_load, and their answers.
struct InfoAtoms {
    Term traced = atom("traced"), match_spec = atom("match_spec"), meta = atom("meta"),
         meta_match_spec = atom("meta_match_spec"), call_count = atom("call_count"), call_time = atom("call_time"),
         call_memory = atom("call_memory"), all = atom("all"), global = atom("global"), local = atom("local");
};
const InfoAtoms& info_atoms() {
    static const InfoAtoms atoms;
    return atoms;
}

// trace_info(on_load, Item).
Term on_load_info(Process* p, TraceSession* session, Term item) {
    const InfoAtoms& am = info_atoms();
    std::uint32_t flags;
    Term spec = atoms::false_, meta_spec = atoms::false_, meta = atoms::false_;
    {
        std::lock_guard guard(session->mutex);
        const tracing::OnLoadPattern& o = session->on_load;
        flags = o.flags;
        if (flags & (tracing::BPF_LOCAL_TRACE | tracing::BPF_GLOBAL_TRACE)) spec = o.ms ? o.ms->source() : NIL;
        if (flags & tracing::BPF_META_TRACE) {
            meta_spec = o.meta_ms ? o.meta_ms->source() : NIL;
            meta = is_small(o.meta_tracer) ? tracing::tracer_term(p, Tracer::from_word(o.meta_tracer)) : o.meta_tracer;
        }
        spec = copy_term_to(p, spec);
        meta_spec = copy_term_to(p, meta_spec);
    }
    auto boolean = [](bool b) { return b ? atoms::true_ : atoms::false_; };
    if (!flags) return make_tuple_on(p, {item, atoms::false_});  // untraced: any item is false
    Term traced = flags & tracing::BPF_GLOBAL_TRACE ? am.global : flags & tracing::BPF_LOCAL_TRACE ? am.local : atoms::false_;
    if (item == am.traced) return make_tuple_on(p, {am.traced, traced});
    if (item == am.match_spec) return make_tuple_on(p, {am.match_spec, spec});
    if (item == am.meta) return make_tuple_on(p, {am.meta, meta});
    if (item == am.meta_match_spec) return make_tuple_on(p, {am.meta_match_spec, meta_spec});
    if (item == am.call_count) return make_tuple_on(p, {item, boolean(flags & tracing::BPF_COUNT)});
    if (item == am.call_time) return make_tuple_on(p, {item, boolean(flags & tracing::BPF_TIME_TRACE)});
    if (item == am.call_memory) return make_tuple_on(p, {item, boolean(flags & tracing::BPF_MEM_TRACE)});
    if (item == am.all) {
        // OTP 25 lists these five, whatever else is set.
        Term items[] = {make_tuple_on(p, {am.traced, traced}), make_tuple_on(p, {am.match_spec, spec}),
                        make_tuple_on(p, {am.meta, meta}), make_tuple_on(p, {am.meta_match_spec, meta_spec}),
                        make_tuple_on(p, {am.call_count, boolean(flags & tracing::BPF_COUNT)})};
        return make_tuple_on(p, {am.all, list_of(p, items, 5)});
    }
    return p->badarg();
}

// trace_info(send | 'receive', match_spec).
Term message_pattern_info(Process* p, TraceSession* session, bool send, Term item) {
    const InfoAtoms& am = info_atoms();
    if (item != am.match_spec) return p->badarg();
    const tracing::MessagePattern& pattern =
        (send ? session->send_pattern : session->receive_pattern)[tracing::active_bp_index()];
    Term spec = !pattern.on ? atoms::false_ : pattern.ms ? copy_term_to(p, pattern.ms->source()) : atoms::true_;
    return make_tuple_on(p, {am.match_spec, spec});
}

// trace_info({M, F, A}, Item): the session's active settings on the function (local kinds),
// its export (global), or a BIF's export (every kind).
Term function_info(Process* p, TraceSession* session, Term what, Term item) {
    const InfoAtoms& am = info_atoms();
    if (!is_tuple(what) || tuple_arity(what) != 3) return p->badarg();
    Term m = tuple_element(what, 0), f = tuple_element(what, 1), ar = tuple_element(what, 2);
    if (!is_atom(m) || !is_atom(f) || !is_small(ar)) return p->badarg();
    Word arity = Word(small_value(ar));
    std::uint32_t flags = 0;
    std::int64_t calls = 0;
    Term local_spec = NIL, global_spec = NIL, meta_spec = NIL, meta_tracer = atoms::false_;
    const tracing::CallTimeData* time = nullptr;
    const tracing::CallTimeData* memory = nullptr;
    bool has_bp = false;
    // The chain holding the local kinds: the function header's, or a BIF's export.
    auto read_local = [&](const std::atomic<GenericBp*>& chain, std::uint32_t mask) {
        if (const tracing::GenericBpData* d = tracing::active_data(chain, session)) {
            std::uint32_t fl = d->flags.load(std::memory_order_relaxed) & mask;
            flags |= fl;
            if (d->ms && (fl & tracing::BPF_LOCAL_TRACE)) local_spec = d->ms->source();
            if (d->ms && (fl & tracing::BPF_GLOBAL_TRACE)) global_spec = d->ms->source();
            if (d->meta_ms) meta_spec = d->meta_ms->source();
            if (Term t = d->meta_tracer.load(std::memory_order_relaxed))
                meta_tracer = is_small(t) ? tracing::tracer_term(p, Tracer::from_word(t)) : t;
            has_bp = true;
            time = d->time;
            memory = d->memory;
        }
        if (const GenericBp* bp = tracing::find_bp(chain, session)) calls = bp->call_count.value();
    };
    Export* e = p->vm.exports.find(m, f, arity);
    bool bif = e && e->is_bif();
    bool exists = bif;
    if (bif) {
        read_local(e->gen_bp, ~0u);
    } else {
        if (Module* mod = p->vm.find_module(m))
            for (const FunctionInfo& fi : mod->functions)
                if (fi.name == f && fi.arity == arity) {
                    exists = true;
                    read_local(mod->code_info(fi)->gen_bp, ~std::uint32_t(tracing::BPF_GLOBAL_TRACE));
                }
        if (e)
            if (const tracing::GenericBpData* d = tracing::active_data(e->gen_bp, session)) {
                flags |= d->flags.load(std::memory_order_relaxed) & tracing::BPF_GLOBAL_TRACE;
                if (d->ms) global_spec = d->ms->source();
            }
    }
    auto counter_list = [&](const tracing::CallTimeData* data, bool is_time) -> Term {
        Term l = NIL;
        if (!data) return l;
        for (const tracing::CallTimeData::Entry& entry : data->collect()) {
            Term t;
            if (is_time) {
                std::int64_t us = entry.sum / 1000;
                t = make_tuple_on(p, {entry.pid, make_integer(p, entry.count), make_integer(p, us / 1000000),
                                      make_integer(p, us % 1000000)});
            } else {
                t = make_tuple_on(p, {entry.pid, make_integer(p, entry.count), make_integer(p, entry.sum)});
            }
            l = make_cons_on(p->alloc(2), t, l);
        }
        return l;
    };
    Term traced = flags & tracing::BPF_GLOBAL_TRACE ? am.global : flags & tracing::BPF_LOCAL_TRACE ? am.local : atoms::false_;
    Term spec = flags & tracing::BPF_GLOBAL_TRACE ? copy_term_to(p, global_spec)
              : flags & tracing::BPF_LOCAL_TRACE  ? copy_term_to(p, local_spec)
                                                  : atoms::false_;
    bool is_meta = flags & tracing::BPF_META_TRACE;
    Term meta = is_meta ? meta_tracer : atoms::false_;
    Term meta_ms = is_meta ? copy_term_to(p, meta_spec) : atoms::false_;
    Term count = flags & tracing::BPF_COUNT ? make_integer(p, calls) : atoms::false_;
    Term call_time = flags & tracing::BPF_TIME_TRACE ? counter_list(time, true) : atoms::false_;
    Term call_memory = flags & tracing::BPF_MEM_TRACE ? counter_list(memory, false) : atoms::false_;
    if (!exists && item != am.all) return make_tuple_on(p, {item, atoms::undefined});
    if (exists && !flags) return make_tuple_on(p, {item, atoms::false_});  // untraced: any item (OTP)
    if (item == am.traced) return make_tuple_on(p, {am.traced, traced});
    if (item == am.match_spec) return make_tuple_on(p, {am.match_spec, spec});
    // OTP 25 answers [] for a function with other breakpoints but no meta tracer.
    if (item == am.meta) return make_tuple_on(p, {am.meta, is_meta || !has_bp ? meta : NIL});
    if (item == am.meta_match_spec) return make_tuple_on(p, {am.meta_match_spec, meta_ms});
    if (item == am.call_count) return make_tuple_on(p, {am.call_count, count});
    if (item == am.call_time) return make_tuple_on(p, {am.call_time, call_time});
    if (item == am.call_memory) return make_tuple_on(p, {am.call_memory, call_memory});
    if (item == am.all) {
        if (!exists) return make_tuple_on(p, {am.all, atoms::undefined});
        if (!flags) return make_tuple_on(p, {am.all, atoms::false_});
        // OTP 25's items; call_memory (OTP 26) is listed only when it is on.
        Term items[] = {make_tuple_on(p, {am.traced, traced}),    make_tuple_on(p, {am.match_spec, spec}),
                        make_tuple_on(p, {am.meta, is_nil(meta) ? atoms::false_ : meta}),  // a forgotten tracer
                        make_tuple_on(p, {am.meta_match_spec, meta_ms}),
                        make_tuple_on(p, {am.call_time, call_time}), make_tuple_on(p, {am.call_memory, call_memory}),
                        make_tuple_on(p, {am.call_count, count})};
        if (call_memory == atoms::false_) {
            items[5] = items[6];
            return make_tuple_on(p, {am.all, list_of(p, items, 6)});
        }
        return make_tuple_on(p, {am.all, list_of(p, items, 7)});
    }
    return p->badarg();
}

}  // namespace

Term trace_info(Process* p, TraceSession* session, Term what, Term item) {
    BEAMLET_CACHED_ATOM(am_new, "new");
    BEAMLET_CACHED_ATOM(am_new_processes, "new_processes");
    BEAMLET_CACHED_ATOM(am_on_load, "on_load");
    BEAMLET_CACHED_ATOM(am_new_ports, "new_ports");
    BEAMLET_CACHED_ATOM(am_badopt, "badopt");
    if (is_pid(what) || is_port(what) || what == am_new || what == am_new_processes || what == am_new_ports)
        return process_info_item(p, session, what, item);
    if (what == am_on_load) return on_load_info(p, session, item);
    if (what == atoms::send || what == atoms::receive) return message_pattern_info(p, session, what == atoms::send, item);
    // As erts: a tracee of another node, or a term that is neither a tracee nor {M, F, A}, is
    // a bad option; a malformed {M, F, A} is plain badarg.
    if (!is_tuple(what)) return p->badarg(am_badopt);
    return function_info(p, session, what, item);
}

Term bif_trace_info2(Process* p, Term* a) { return trace_info(p, &tracing::legacy_session(), a[0], a[1]); }

// ---- trace_delivered and match_spec_test ----------------------------------------------------------

Term trace_delivered(Process* p, Term tracee) {
    BEAMLET_CACHED_ATOM(am_all, "all");
    if (tracee != am_all && !is_pid(tracee)) return p->badarg();
    Term ref = new_ref(p);
    tracing::notify_when_delivered(p->vm, p->id, tracee, ref);
    return ref;
}

Term bif_trace_delivered(Process* p, Term* a) { return trace_delivered(p, a[0]); }

namespace {
// match_spec_test's trace actions act on the calling process in the legacy session (as OTP),
// but {caller} has no traced call to look at and {set_tcw, N} only reads the word.
class TestTraceActions : public tracing::TraceActions {
public:
    using TraceActions::TraceActions;
    Term caller(Process*) override { return atoms::undefined; }
    Term caller_line(Process*) override { return atoms::undefined; }
    bool live() const override { return false; }
};
}  // namespace

// erlang:match_spec_test(Args, MatchSpec, trace | table).
Term bif_match_spec_test(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_trace, "trace");
    BEAMLET_CACHED_ATOM(am_table, "table");
    if (a[2] != am_trace && a[2] != am_table) return p->badarg();
    TestTraceActions actions(p->vm, &tracing::legacy_session());
    return matchspec::match_spec_test(p, a[0], a[1], a[2] == am_table, &actions);
}

// beamlet_file_tracer:enabled/3 and trace/5: the native tracer called from Erlang.
Term bif_file_tracer_enabled(Process*, Term* a) { return tracing::call_native_enabled(tracing::file_tracer(), a); }
Term bif_file_tracer_trace(Process*, Term* a) { return tracing::call_native_trace(tracing::file_tracer(), a); }

}  // namespace beamlet::bif
