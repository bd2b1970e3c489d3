// bif/trace_bifs.cpp — the legacy tracing API: erlang:trace/3, trace_pattern/2,3, trace_info/2
// (on the legacy session). trace_pattern runs the staged breakpoint sequence as a chain of
// continuations, each after a thread-progress wait, holding the code modification permission.
#include <algorithm>
#include <memory>

#include "bif/bifs.hpp"
#include "tracing/breakpoints.hpp"
#include "tracing/call_tracer.hpp"
#include "tracing/match_spec.hpp"
#include "tracing/sessions.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/code_permission.hpp"
#include "vm/copy.hpp"
#include "vm/magic.hpp"

#include <mutex>

namespace beamlet::bif {

using namespace vm;
using tracing::BreakpointChange;
using tracing::MatchSpec;

namespace {

bool parse_trace_flags(Term list, std::uint32_t* flags, Term* tracer) {
    BEAMLET_CACHED_ATOM(am_tracer, "tracer");
    for (Term l = list; !is_nil(l); l = cdr(l)) {
        if (!is_list(l)) return false;
        Term f = car(l);
        if (is_tuple(f) && tuple_arity(f) == 2 && tuple_element(f, 0) == am_tracer) {
            *tracer = tuple_element(f, 1);
            continue;
        }
        std::uint32_t bit = tracing::process_flag_bit(f);
        if (!bit) return false;
        *flags |= bit;
    }
    return true;
}

Term flag_list(Process* p, std::uint32_t flags) { return tracing::process_flag_list(p, flags); }

}  // namespace

namespace {

// Sets process flags in [session] for [spec] (a pid, all, existing, new, ...). [tracer] is the
// session's tracer, or 0 for the legacy session where {tracer, T} or the caller names it.
Term trace_processes(Process* p, TraceSession* session, Term session_tracer, Term spec, Term how, Term flag_list) {
    BEAMLET_CACHED_ATOM(am_all, "all");
    BEAMLET_CACHED_ATOM(am_existing, "existing");
    BEAMLET_CACHED_ATOM(am_new, "new");
    BEAMLET_CACHED_ATOM(am_processes, "processes");
    BEAMLET_CACHED_ATOM(am_existing_processes, "existing_processes");
    BEAMLET_CACHED_ATOM(am_new_processes, "new_processes");
    if (how != atoms::true_ && how != atoms::false_) return p->badarg();
    bool on = how == atoms::true_;
    std::uint32_t flags = 0;
    Term tracer = 0;
    if (!parse_trace_flags(flag_list, &flags, &tracer)) return p->badarg();
    if (session_tracer) {
        if (tracer) return p->badarg();  // sessions have a fixed tracer
        tracer = session_tracer;
    } else if (tracer) {
        if (!is_pid(tracer)) return p->badarg();
    } else {
        tracer = p->id;
    }
    // A dead tracer is accepted, as on OTP, but its flags are removed at once.
    bool dead_tracer = on && tracer != p->id && !p->vm.lookup_process(tracer);
    bool tracer_given = session_tracer || tracer != p->id;
    auto apply_to = [&](Process* target) {
        if (dead_tracer) return tracing::set_process_flags(p->vm, target, session, tracer, ~0u, false, false);
        return tracing::set_process_flags(p->vm, target, session, tracer, flags, on, tracer_given);
    };
    if (is_pid(spec)) {
        std::shared_ptr<Process> target = spec == p->id ? nullptr : p->vm.lookup_process(spec);
        Process* t = spec == p->id ? p : target.get();
        if (!t) return p->badarg();
        if (!apply_to(t)) return p->badarg();
        return make_small(1);
    }
    bool existing = spec == am_all || spec == am_existing || spec == am_processes || spec == am_existing_processes;
    bool future = spec == am_all || spec == am_new || spec == am_processes || spec == am_new_processes;
    if (!existing && !future) return p->badarg();
    if (future) {
        std::lock_guard guard(session->mutex);
        if (on) {
            session->new_procs_flags |= flags;
            session->new_procs_tracer = tracer;
        } else {
            session->new_procs_flags &= ~flags;
        }
    }
    SWord count = 0;
    if (existing) {
        for (Term pid : p->vm.process_ids()) {
            std::shared_ptr<Process> target = p->vm.lookup_process(pid);
            if (!target) continue;
            if (apply_to(target.get())) ++count;
        }
    }
    return make_small(count);
}

}  // namespace

// erlang:trace(PidSpec, How, FlagList): sets process trace flags on the legacy session.
Term bif_trace3(Process* p, Term* a) { return trace_processes(p, &tracing::legacy_session(), 0, a[0], a[1], a[2]); }

namespace {

// The functions and exports an MFA pattern matches; false for a malformed pattern.
bool match_pattern(Vm& vm, Term mfa, bool local, BreakpointChange& change, SWord* count) {
    BEAMLET_CACHED_ATOM(am_any, "_");
    if (!is_tuple(mfa) || tuple_arity(mfa) != 3) return false;
    Term m = tuple_element(mfa, 0), f = tuple_element(mfa, 1), a = tuple_element(mfa, 2);
    if (!is_atom(m) || !is_atom(f) || !(is_small(a) || a == am_any)) return false;
    // Wildcards only from the right: {M,F,'_'}, {M,'_','_'}, {'_','_','_'}.
    if (f == am_any && a != am_any) return false;
    if (m == am_any && f != am_any) return false;
    if (is_small(a) && (small_value(a) < 0 || small_value(a) > 255)) {
        *count = 0;  // no function has such an arity (OTP: 0, not badarg)
        return true;
    }
    auto matches = [&](Term mod, Term fun, Word arity) {
        return (m == am_any || m == mod) && (f == am_any || f == fun) && (a == am_any || SWord(arity) == small_value(a));
    };
    *count = 0;
    std::vector<Module*> modules = vm.loaded_modules();
    std::sort(modules.begin(), modules.end(), [](Module* x, Module* y) { return x->name < y->name; });
    for (Module* mod : modules) {
        if (m != am_any && mod->name != m) continue;
        for (const FunctionInfo& fi : mod->functions) {
            if (!matches(mod->name, fi.name, fi.arity)) continue;
            Export* e = fi.export_entry;
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
    // BIFs have exports but no code: only global tracing applies to them.
    if (!local) {
        for (Export* e : m == am_any ? vm.exports.all() : vm.exports.of_module(m))
            if (e->is_bif() && matches(e->module, e->function, e->arity)) {
                ++*count;
                change.exports.push_back(e);
            }
    }
    return true;
}

// The stages after staging, each after a thread-progress wait; the last one releases the
// permission and returns [count] to the caller.
Term run_stage(Process* p, std::shared_ptr<BreakpointChange> change, int stage, Term count) {
    switch (stage) {
    case 0: tracing::install(*change); break;
    case 1: tracing::commit(); break;
    case 2: tracing::uninstall(*change); break;
    case 3: tracing::consolidate(*change); break;
    case 4:
        tracing::free_unlinked(*change);
        p->vm.code_permission->release(p);
        return count;
    }
    return p->vm.trap_until_thread_progress(
        p, [change, stage, count](Process* q, Term*) { return run_stage(q, change, stage + 1, count); });
}

// trace_pattern(MFA, MatchSpec, Flags) for [session] ([session_tracer]: the tracer meta
// tracing uses in a session; 0 for the legacy session, where it is the caller or {meta, Pid}).
Term trace_pattern(Process* p, TraceSession* session, Term session_tracer, Term mfa, Term ms, Term flags) {
    BEAMLET_CACHED_ATOM(am_global, "global");
    BEAMLET_CACHED_ATOM(am_local, "local");
    BEAMLET_CACHED_ATOM(am_meta, "meta");
    BEAMLET_CACHED_ATOM(am_call_count, "call_count");
    BEAMLET_CACHED_ATOM(am_call_time, "call_time");
    BEAMLET_CACHED_ATOM(am_call_memory, "call_memory");
    BEAMLET_CACHED_ATOM(am_pause, "pause");
    BEAMLET_CACHED_ATOM(am_restart, "restart");
    bool local = false, global = false, meta = false, count = false, time = false, memory = false;
    Term meta_tracer = 0;
    for (Term l = flags; !is_nil(l); l = cdr(l)) {
        if (!is_list(l)) return p->badarg();
        Term f = car(l);
        if (f == am_local) local = true;
        else if (f == am_global) global = true;
        else if (f == am_call_count) count = true;
        else if (f == am_call_time) time = true;
        else if (f == am_call_memory) memory = true;
        else if (f == am_meta) {
            meta = true;
            meta_tracer = session_tracer ? session_tracer : p->id;
        } else if (is_tuple(f) && tuple_arity(f) == 2 && tuple_element(f, 0) == am_meta && !session_tracer &&
                   is_pid(tuple_element(f, 1))) {
            meta = true;
            meta_tracer = tuple_element(f, 1);
        } else {
            return p->badarg();
        }
    }
    bool counters = count || time || memory;
    if (global && (local || meta || counters)) return p->badarg();
    if (!local && !meta && !counters) global = true;  // the default
    // true, [], restart and pause switch tracing on without a match spec; a non-empty list is
    // a match spec, allowed with call tracing or meta only.
    bool off = ms == atoms::false_;
    bool has_ms = is_list(ms);
    if (!off && !has_ms && !is_nil(ms) && ms != atoms::true_ && ms != am_restart && ms != am_pause) return p->badarg();
    if (has_ms && !local && !global && !meta) return p->badarg();
    std::unique_ptr<MatchSpec, void (*)(MatchSpec*)> compiled(nullptr, [](MatchSpec* m) {
        if (m && m->release()) delete m;
    });
    if (has_ms) {
        MatchSpec* m = MatchSpec::compile(p->vm, ms, nullptr);
        if (!m) return p->badarg();
        m->add_ref();
        compiled.reset(m);
    }
    tracing::TraceAction trace_action = off ? tracing::TraceAction::Off : tracing::TraceAction::On;
    tracing::CountAction count_action = off ? tracing::CountAction::Stop
                                       : ms == am_pause ? tracing::CountAction::Pause
                                                        : tracing::CountAction::Start;
    BEAMLET_CACHED_ATOM(am_on_load, "on_load");
    if (mfa == am_on_load) {
        if (counters || meta) return p->badarg();
        // The pattern for modules loaded from now on (applied as they load); matches nothing now.
        std::lock_guard guard(session->mutex);
        std::uint32_t kind = local ? tracing::BPF_LOCAL_TRACE : tracing::BPF_GLOBAL_TRACE;
        if (session->on_load_ms && session->on_load_ms->release()) delete session->on_load_ms;
        session->on_load_ms = nullptr;
        if (off) {
            session->on_load_flags &= ~kind;
        } else {
            session->on_load_flags = kind;
            session->on_load_ms = compiled.release();
        }
        return make_small(0);
    }
    auto change = std::make_shared<BreakpointChange>();
    change->session = session;
    if (local || global) {
        change->trace = trace_action;
        change->global = global;
        if (local || global) change->ms = has_ms ? compiled.get() : nullptr;
    }
    if (meta) {
        change->meta = trace_action;
        change->meta_tracer = meta_tracer;
        change->meta_ms = has_ms ? compiled.get() : nullptr;
    }
    // The change holds one reference per use of the compiled spec.
    for (MatchSpec* m : {change->ms, change->meta_ms})
        if (m) m->add_ref();
    if (count) change->count = count_action;
    if (time) change->time = count_action;
    if (memory) change->memory = count_action;
    SWord matched = 0;
    if (!match_pattern(p->vm, mfa, !global, *change, &matched)) return p->badarg();
    Term result = make_small(matched);
    return p->vm.trap_until_permission(p, [change, result](Process* q, Term*) {
        if (!tracing::stage(*change)) {
            q->vm.code_permission->release(q);
            return result;
        }
        // Wait #1: every thread sees the new GenericBps before an instruction leads to them.
        return q->vm.trap_until_thread_progress(
            q, [change, result](Process* r, Term*) { return run_stage(r, change, 0, result); });
    });
}

}  // namespace

Term bif_trace_pattern2(Process* p, Term* a) { return trace_pattern(p, &tracing::legacy_session(), 0, a[0], a[1], NIL); }
Term bif_trace_pattern3(Process* p, Term* a) { return trace_pattern(p, &tracing::legacy_session(), 0, a[0], a[1], a[2]); }

namespace {
Term trace_info(Process* p, TraceSession* session, Term what, Term item);

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
}

// erlang:trace_info(PidOrFunc, Item) on the legacy session.
Term bif_trace_info2(Process* p, Term* a) { return trace_info(p, &tracing::legacy_session(), a[0], a[1]); }

namespace {
Term trace_info(Process* p, TraceSession* session, Term what, Term item) {
    BEAMLET_CACHED_ATOM(am_flags, "flags");
    BEAMLET_CACHED_ATOM(am_tracer, "tracer");
    BEAMLET_CACHED_ATOM(am_traced, "traced");
    BEAMLET_CACHED_ATOM(am_match_spec, "match_spec");
    BEAMLET_CACHED_ATOM(am_all, "all");
    BEAMLET_CACHED_ATOM(am_new, "new");
    BEAMLET_CACHED_ATOM(am_global, "global");
    BEAMLET_CACHED_ATOM(am_local, "local");
    BEAMLET_CACHED_ATOM(am_meta, "meta");
    BEAMLET_CACHED_ATOM(am_meta_match_spec, "meta_match_spec");
    BEAMLET_CACHED_ATOM(am_call_count, "call_count");
    BEAMLET_CACHED_ATOM(am_call_time, "call_time");
    BEAMLET_CACHED_ATOM(am_new_processes, "new_processes");
    if (is_pid(what) || what == am_new || what == am_new_processes) {
        std::uint32_t flags = 0;
        Term tracer = 0;
        if (is_pid(what)) {
            std::shared_ptr<Process> target = what == p->id ? nullptr : p->vm.lookup_process(what);
            Process* t = what == p->id ? p : target.get();
            if (!t) return atoms::undefined;
            TracerRef r = tracing::live_trace_ref(p->vm, t, session);
            flags = r.flags;
            tracer = r.tracer;
        } else {
            std::lock_guard guard(session->mutex);
            flags = session->new_procs_flags;
            tracer = session->new_procs_tracer;
        }
        if (item == am_flags) return make_tuple_on(p, {am_flags, flag_list(p, flags)});
        if (item == am_tracer) return make_tuple_on(p, {am_tracer, flags && tracer ? tracer : NIL});
        return p->badarg();
    }
    BEAMLET_CACHED_ATOM(am_on_load, "on_load");
    BEAMLET_CACHED_ATOM(am_call_memory, "call_memory");
    if (what == am_on_load) {
        std::uint32_t flags;
        Term spec = atoms::false_;
        {
            std::lock_guard guard(session->mutex);
            flags = session->on_load_flags;
            if (flags) spec = session->on_load_ms ? session->on_load_ms->source() : NIL;
        }
        Term traced = flags & tracing::BPF_GLOBAL_TRACE ? am_global : flags & tracing::BPF_LOCAL_TRACE ? am_local : atoms::false_;
        spec = copy_term_to(p, spec);
        if (item == am_traced) return make_tuple_on(p, {am_traced, traced});
        if (item == am_match_spec) return make_tuple_on(p, {am_match_spec, spec});
        if (item == am_meta || item == am_meta_match_spec || item == am_call_count || item == am_call_time ||
            item == am_call_memory)
            return make_tuple_on(p, {item, atoms::false_});
        if (item == am_all) {
            if (!flags) return make_tuple_on(p, {am_all, atoms::false_});
            Term items[] = {make_tuple_on(p, {am_traced, traced}), make_tuple_on(p, {am_match_spec, spec}),
                            make_tuple_on(p, {am_meta, atoms::false_}), make_tuple_on(p, {am_meta_match_spec, atoms::false_}),
                            make_tuple_on(p, {am_call_count, atoms::false_})};
            return make_tuple_on(p, {am_all, list_of(p, items, 5)});
        }
        return p->badarg();
    }
    if (!is_tuple(what) || tuple_arity(what) != 3) return p->badarg();
    Term m = tuple_element(what, 0), f = tuple_element(what, 1), ar = tuple_element(what, 2);
    if (!is_atom(m) || !is_atom(f) || !is_small(ar)) return p->badarg();
    Word arity = Word(small_value(ar));
    // The session's active settings on the function (local kinds) and its export (global).
    std::uint32_t flags = 0;
    std::int64_t calls = 0;
    Term local_spec = NIL, global_spec = NIL, meta_spec = NIL, meta_tracer = atoms::false_;
    const tracing::CallTimeData* time = nullptr;
    const tracing::CallTimeData* memory = nullptr;
    bool has_bp = false;
    bool exists = p->vm.find_bif(m, f, arity) != nullptr;
    if (Module* mod = p->vm.find_module(m))
        for (const FunctionInfo& fi : mod->functions)
            if (fi.name == f && fi.arity == arity) {
                exists = true;
                const auto& chain = mod->code_info(fi)->gen_bp;
                if (const tracing::GenericBpData* d = tracing::active_data(chain, session)) {
                    flags |= d->flags.load(std::memory_order_relaxed);
                    if (d->ms) local_spec = d->ms->source();
                    if (d->meta_ms) meta_spec = d->meta_ms->source();
                    if (Term t = d->meta_tracer.load(std::memory_order_relaxed)) meta_tracer = t;
                    has_bp = true;
                    time = d->time;
                    memory = d->memory;
                }
                if (const GenericBp* bp = tracing::find_bp(chain, session))
                    calls = bp->call_count.load(std::memory_order_relaxed);
            }
    if (Export* e = p->vm.exports.find(m, f, arity))
        if (const tracing::GenericBpData* d = tracing::active_data(e->gen_bp, session)) {
            flags |= d->flags.load(std::memory_order_relaxed) & tracing::BPF_GLOBAL_TRACE;
            if (d->ms) global_spec = d->ms->source();
        }
    auto counter_list = [&](const tracing::CallTimeData* data, bool is_time) -> Term {
        Term l = NIL;
        if (!data) return l;
        for (const tracing::CallTimeData::Entry& e : data->collect()) {
            Term entry;
            if (is_time) {
                std::int64_t us = e.sum / 1000;
                entry = make_tuple_on(p, {e.pid, make_integer(p, e.count), make_integer(p, us / 1000000),
                                          make_integer(p, us % 1000000)});
            } else {
                entry = make_tuple_on(p, {e.pid, make_integer(p, e.count), make_integer(p, e.sum)});
            }
            l = make_cons_on(p->alloc(2), entry, l);
        }
        return l;
    };
    Term traced = flags & tracing::BPF_GLOBAL_TRACE ? am_global : flags & tracing::BPF_LOCAL_TRACE ? am_local : atoms::false_;
    Term spec = flags & tracing::BPF_GLOBAL_TRACE ? copy_term_to(p, global_spec)
              : flags & tracing::BPF_LOCAL_TRACE  ? copy_term_to(p, local_spec)
                                                  : atoms::false_;
    bool is_meta = flags & tracing::BPF_META_TRACE;
    Term meta = is_meta ? meta_tracer : atoms::false_;
    Term meta_ms = is_meta ? copy_term_to(p, meta_spec) : atoms::false_;
    Term count = flags & tracing::BPF_COUNT ? make_integer(p, calls) : atoms::false_;
    Term call_time = flags & tracing::BPF_TIME_TRACE ? counter_list(time, true) : atoms::false_;
    Term call_memory = flags & tracing::BPF_MEM_TRACE ? counter_list(memory, false) : atoms::false_;
    if (!exists && item != am_all) return make_tuple_on(p, {item, atoms::undefined});
    if (item == am_traced) return make_tuple_on(p, {am_traced, traced});
    if (item == am_match_spec) return make_tuple_on(p, {am_match_spec, spec});
    // OTP 25 answers [] for a function with other breakpoints but no meta tracer.
    if (item == am_meta) return make_tuple_on(p, {am_meta, is_meta || !has_bp ? meta : NIL});
    if (item == am_meta_match_spec) return make_tuple_on(p, {am_meta_match_spec, meta_ms});
    if (item == am_call_count) return make_tuple_on(p, {am_call_count, count});
    if (item == am_call_time) return make_tuple_on(p, {am_call_time, call_time});
    if (item == am_call_memory) return make_tuple_on(p, {am_call_memory, call_memory});
    if (item == am_all) {
        if (!exists) return make_tuple_on(p, {am_all, atoms::undefined});
        if (!flags) return make_tuple_on(p, {am_all, atoms::false_});
        // OTP 25's items; call_memory (OTP 26) is listed only when it is on.
        Term items[] = {make_tuple_on(p, {am_traced, traced}),    make_tuple_on(p, {am_match_spec, spec}),
                        make_tuple_on(p, {am_meta, meta}),        make_tuple_on(p, {am_meta_match_spec, meta_ms}),
                        make_tuple_on(p, {am_call_time, call_time}), make_tuple_on(p, {am_call_memory, call_memory}),
                        make_tuple_on(p, {am_call_count, count})};
        if (call_memory == atoms::false_) {
            items[5] = items[6];
            return make_tuple_on(p, {am_all, list_of(p, items, 6)});
        }
        return make_tuple_on(p, {am_all, list_of(p, items, 7)});
    }
    return p->badarg();
}
}  // namespace

}  // namespace beamlet::bif

// ---- OTP 27 trace module ------------------------------------------------------------------------

namespace beamlet::bif {

namespace {

// The session a handle names: a strong {Ref, {Name, Id}} or a weak {Name, Id}; null if it is
// malformed or the session is gone.
TraceSession* session_of(Term handle) {
    if (!is_tuple(handle) || tuple_arity(handle) != 2) return nullptr;
    Term weak = is_ref(tuple_element(handle, 0)) ? tuple_element(handle, 1) : handle;
    if (!is_tuple(weak) || tuple_arity(weak) != 2 || !is_atom(tuple_element(weak, 0)) || !is_small(tuple_element(weak, 1)))
        return nullptr;
    SWord id = small_value(tuple_element(weak, 1));
    if (id < 0) return nullptr;
    return tracing::find_session(tuple_element(weak, 0), Word(id));
}

Term weak_handle(Process* p, const TraceSession* s) {
    BEAMLET_CACHED_ATOM(am_default, "default");
    return make_tuple_on(p, {s->name, s->id ? make_small(SWord(s->weak_id)) : am_default});
}

// Every function and export where [session] has a GenericBp.
void collect_session_breakpoints(Vm& vm, TraceSession* session, BreakpointChange& change) {
    for (Module* mod : vm.loaded_modules())
        for (const FunctionInfo& fi : mod->functions) {
            const CodeInfo* ci = mod->code_info(fi);
            if (tracing::find_bp(ci->gen_bp, session)) change.functions.push_back(ci);
            if (Export* e = fi.export_entry; e && tracing::find_bp(e->gen_bp, session)) change.exports.push_back(e);
        }
}

}  // namespace

namespace {

// What the strong handle of a session owns.
struct SessionHandle {
    Vm* vm;
    Term name;
    Word weak_id;
};

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

}  // namespace

// trace:session_create(Name, Tracer, Opts): a session with a tracer process. The strong handle
// {Ref, {Name, Id}} holds a magic reference: when its last copy is garbage collected, the
// session is destroyed.
Term bif_trace_session_create(Process* p, Term* a) {
    Term name = a[0], tracer = a[1];
    if (!is_atom(name) || !(is_list(a[2]) || is_nil(a[2]))) return p->badarg();
    if (!is_pid(tracer) || !p->vm.lookup_process(tracer)) return p->badarg();
    ensure_cleaner(p);
    TraceSession* s = tracing::create_session(name, tracer);
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
    TraceSession* s = session_of(a[0]);
    if (!s) {
        if (!is_tuple(a[0])) return p->badarg();
        return atoms::false_;
    }
    tracing::retire_session(s);
    for (Term pid : p->vm.process_ids())
        if (std::shared_ptr<Process> t = pid == p->id ? nullptr : p->vm.lookup_process(pid))
            tracing::set_process_flags(p->vm, t.get(), s, 0, ~0u, false, false);
    tracing::set_process_flags(p->vm, p, s, 0, ~0u, false, false);
    auto change = std::make_shared<BreakpointChange>();
    change->session = s;
    change->clear_all = true;
    return p->vm.trap_until_permission(p, [change, s](Process* q, Term*) {
        collect_session_breakpoints(q->vm, s, *change);
        if (!tracing::stage(*change)) {
            q->vm.code_permission->release(q);
            return atoms::true_;
        }
        return q->vm.trap_until_thread_progress(
            q, [change](Process* r, Term*) { return run_stage(r, change, 0, atoms::true_); });
    });
}

Term bif_trace_process(Process* p, Term* a) {
    TraceSession* s = session_of(a[0]);
    if (!s) return p->badarg();
    return trace_processes(p, s, s->tracer, a[1], a[2], a[3]);
}

Term bif_trace_function(Process* p, Term* a) {
    TraceSession* s = session_of(a[0]);
    if (!s) return p->badarg();
    return trace_pattern(p, s, s->tracer, a[1], a[2], a[3]);
}

Term bif_trace_info(Process* p, Term* a) {
    TraceSession* s = session_of(a[0]);
    if (!s) return p->badarg();
    return trace_info(p, s, a[1], a[2]);
}

// trace:session_info(What): the weak handles of the sessions tracing [What] (a pid or an
// MFA), or of all sessions for all.
Term bif_trace_session_info(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_all, "all");
    BEAMLET_CACHED_ATOM(am_session_info, "session_info");
    BEAMLET_CACHED_ATOM(am_new, "new");
    BEAMLET_CACHED_ATOM(am_new_processes, "new_processes");
    BEAMLET_CACHED_ATOM(am_on_load, "on_load");
    BEAMLET_CACHED_ATOM(am_send, "send");
    BEAMLET_CACHED_ATOM(am_receive, "receive");
    std::vector<TraceSession*> found;
    for (TraceSession* s : tracing::live_sessions()) {
        if (a[0] == am_all) {
            found.push_back(s);
        } else if (is_pid(a[0])) {
            std::shared_ptr<Process> t = a[0] == p->id ? nullptr : p->vm.lookup_process(a[0]);
            Process* target = a[0] == p->id ? p : t.get();
            if (!target) return atoms::undefined;
            if (tracing::process_trace_ref(target, s).flags) found.push_back(s);
        } else if (a[0] == am_new || a[0] == am_new_processes) {
            std::lock_guard guard(s->mutex);
            if (s->new_procs_flags) found.push_back(s);
        } else if (a[0] == am_on_load) {
            std::lock_guard guard(s->mutex);
            if (s->on_load_flags) found.push_back(s);
        } else if (a[0] == atoms::send_op || a[0] == am_send || a[0] == am_receive) {
            // No session can have send/'receive' tracing yet.
        } else if (is_tuple(a[0]) && tuple_arity(a[0]) == 3) {
            Term info = trace_info(p, s, a[0], atom("traced"));
            if (info != THE_NON_VALUE && is_tuple(info) && tuple_element(info, 1) != atoms::false_ &&
                tuple_element(info, 1) != atoms::undefined)
                found.push_back(s);
        } else {
            return p->badarg();
        }
    }
    Term l = NIL;
    for (auto it = found.rbegin(); it != found.rend(); ++it) l = make_cons_on(p->alloc(2), weak_handle(p, *it), l);
    return make_tuple_on(p, {am_session_info, l});
}

}  // namespace beamlet::bif

namespace beamlet::bif {

// erlang:match_spec_test(Args, MatchSpec, trace).
Term bif_match_spec_test(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_trace, "trace");
    BEAMLET_CACHED_ATOM(am_table, "table");
    if (a[2] != am_trace && a[2] != am_table) return p->badarg();
    return tracing::match_spec_test(p, a[0], a[1], a[2] == am_table);
}

}  // namespace beamlet::bif
