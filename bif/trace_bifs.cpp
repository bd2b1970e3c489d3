// bif/trace_bifs.cpp — the legacy tracing API: erlang:trace/3, trace_pattern/2,3, trace_info/2
// (on the legacy session). trace_pattern runs the staged breakpoint sequence as a chain of
// continuations, each after a thread-progress wait, holding the code modification permission.
#include <algorithm>
#include <memory>

#include "bif/bifs.hpp"
#include "tracing/breakpoints.hpp"
#include "tracing/call_tracer.hpp"
#include "tracing/sessions.hpp"
#include "vm/atom_table.hpp"
#include "vm/code_permission.hpp"

namespace beamlet::bif {

using namespace vm;
using tracing::BreakpointChange;

namespace {

#define CACHED_ATOM(name, text) static const Term name = atom(text)

struct FlagName {
    const char* name;
    std::uint32_t bit;
};
const FlagName PROCESS_FLAGS[] = {
    {"call", TRACE_CALL},           {"arity", TRACE_ARITY},
    {"set_on_spawn", TRACE_SOS},    {"set_on_first_spawn", TRACE_SOS1},
    {"set_on_link", TRACE_SOL},     {"set_on_first_link", TRACE_SOL1},
};

bool parse_trace_flags(Term list, std::uint32_t* flags, Term* tracer) {
    CACHED_ATOM(am_tracer, "tracer");
    for (Term l = list; !is_nil(l); l = cdr(l)) {
        if (!is_list(l)) return false;
        Term f = car(l);
        if (is_tuple(f) && tuple_arity(f) == 2 && tuple_element(f, 0) == am_tracer) {
            *tracer = tuple_element(f, 1);
            continue;
        }
        bool known = false;
        for (const FlagName& n : PROCESS_FLAGS)
            if (f == atom(n.name)) {
                *flags |= n.bit;
                known = true;
            }
        if (!known) return false;
    }
    return true;
}

Term flag_list(Process* p, std::uint32_t flags) {
    Term l = NIL;
    for (auto it = std::rbegin(PROCESS_FLAGS); it != std::rend(PROCESS_FLAGS); ++it)
        if (flags & it->bit) l = make_cons_on(p->alloc(2), atom(it->name), l);
    return l;
}

}  // namespace

// erlang:trace(PidSpec, How, FlagList): sets process trace flags on the legacy session.
Term bif_trace3(Process* p, Term* a) {
    CACHED_ATOM(am_all, "all");
    CACHED_ATOM(am_existing, "existing");
    CACHED_ATOM(am_new, "new");
    CACHED_ATOM(am_processes, "processes");
    CACHED_ATOM(am_existing_processes, "existing_processes");
    CACHED_ATOM(am_new_processes, "new_processes");
    Term spec = a[0], how = a[1];
    if (how != atoms::true_ && how != atoms::false_) return p->badarg();
    bool on = how == atoms::true_;
    std::uint32_t flags = 0;
    Term tracer = 0;
    if (!parse_trace_flags(a[2], &flags, &tracer)) return p->badarg();
    if (tracer) {
        if (!is_pid(tracer)) return p->badarg();
        std::shared_ptr<Process> t = p->vm.lookup_process(tracer);
        if (!t) return p->badarg();
    } else {
        tracer = p->id;
    }
    TraceSession* session = &tracing::legacy_session();
    auto apply_to = [&](Process* target) { return tracing::set_process_flags(p->vm, target, session, tracer, flags, on); };
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

namespace {

// The functions and exports an MFA pattern matches; false for a malformed pattern.
bool match_pattern(Vm& vm, Term mfa, bool local, BreakpointChange& change, SWord* count) {
    CACHED_ATOM(am_any, "_");
    if (!is_tuple(mfa) || tuple_arity(mfa) != 3) return false;
    Term m = tuple_element(mfa, 0), f = tuple_element(mfa, 1), a = tuple_element(mfa, 2);
    if (!is_atom(m) || !is_atom(f) || !(is_small(a) || a == am_any)) return false;
    // Wildcards only from the right: {M,F,'_'}, {M,'_','_'}, {'_','_','_'}.
    if (f == am_any && a != am_any) return false;
    if (m == am_any && f != am_any) return false;
    if (is_small(a) && (small_value(a) < 0 || small_value(a) > 255)) return false;
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
            Export* e = fi.exported ? vm.exports.find(mod->name, fi.name, fi.arity) : nullptr;
            if (local) {
                ++*count;
                change.functions.push_back(mod->code_info(fi));
                if (e) change.exports.push_back(e);  // a global setting there is cleared
            } else if (e) {
                ++*count;
                change.exports.push_back(e);
                change.functions.push_back(mod->code_info(fi));  // a local setting is cleared
            }
        }
    }
    // BIFs have exports but no code: only global tracing applies to them.
    if (!local && m != am_any) {
        for (Export* e : vm.exports.of_module(m))
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

Term trace_pattern(Process* p, Term mfa, Term ms, Term flags) {
    CACHED_ATOM(am_global, "global");
    CACHED_ATOM(am_local, "local");
    bool enable;
    if (ms == atoms::true_ || ms == NIL) enable = true;
    else if (ms == atoms::false_) enable = false;
    else return p->badarg();  // match specifications come with the next issue
    bool local = false;
    for (Term l = flags; !is_nil(l); l = cdr(l)) {
        if (!is_list(l)) return p->badarg();
        if (car(l) == am_local) local = true;
        else if (car(l) == am_global) local = false;
        else return p->badarg();
    }
    auto change = std::make_shared<BreakpointChange>();
    change->session = &tracing::legacy_session();
    change->enable = enable;
    change->local = local;
    SWord count = 0;
    if (!match_pattern(p->vm, mfa, local, *change, &count)) return p->badarg();
    Term result = make_small(count);
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

Term bif_trace_pattern2(Process* p, Term* a) { return trace_pattern(p, a[0], a[1], NIL); }
Term bif_trace_pattern3(Process* p, Term* a) { return trace_pattern(p, a[0], a[1], a[2]); }

// erlang:trace_info(PidOrFunc, Item) on the legacy session.
Term bif_trace_info2(Process* p, Term* a) {
    CACHED_ATOM(am_flags, "flags");
    CACHED_ATOM(am_tracer, "tracer");
    CACHED_ATOM(am_traced, "traced");
    CACHED_ATOM(am_match_spec, "match_spec");
    CACHED_ATOM(am_all, "all");
    CACHED_ATOM(am_new, "new");
    CACHED_ATOM(am_global, "global");
    CACHED_ATOM(am_local, "local");
    CACHED_ATOM(am_meta, "meta");
    CACHED_ATOM(am_meta_match_spec, "meta_match_spec");
    CACHED_ATOM(am_call_count, "call_count");
    CACHED_ATOM(am_call_time, "call_time");
    CACHED_ATOM(am_new_processes, "new_processes");
    TraceSession* session = &tracing::legacy_session();
    Term what = a[0], item = a[1];
    if (is_pid(what) || what == am_new || what == am_new_processes) {
        std::uint32_t flags = 0;
        Term tracer = 0;
        if (is_pid(what)) {
            std::shared_ptr<Process> target = what == p->id ? nullptr : p->vm.lookup_process(what);
            Process* t = what == p->id ? p : target.get();
            if (!t) return atoms::undefined;
            TracerRef r = tracing::process_trace_ref(t, session);
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
    if (!is_tuple(what) || tuple_arity(what) != 3) return p->badarg();
    Term m = tuple_element(what, 0), f = tuple_element(what, 1), ar = tuple_element(what, 2);
    if (!is_atom(m) || !is_atom(f) || !is_small(ar)) return p->badarg();
    Word arity = Word(small_value(ar));
    std::uint32_t flags = 0;
    if (Module* mod = p->vm.find_module(m))
        for (const FunctionInfo& fi : mod->functions)
            if (fi.name == f && fi.arity == arity) flags |= tracing::active_flags(mod->code_info(fi)->gen_bp, session);
    if (Export* e = p->vm.exports.find(m, f, arity)) flags |= tracing::active_flags(e->gen_bp, session);
    bool loaded = p->vm.find_module(m) != nullptr || p->vm.find_bif(m, f, arity) != nullptr;
    Term traced = flags & tracing::BPF_GLOBAL_TRACE ? am_global : flags & tracing::BPF_LOCAL_TRACE ? am_local : atoms::false_;
    Term spec = flags & (tracing::BPF_GLOBAL_TRACE | tracing::BPF_LOCAL_TRACE) ? NIL : atoms::false_;
    if (!loaded && item != am_all) return make_tuple_on(p, {item, atoms::undefined});
    if (item == am_traced) return make_tuple_on(p, {am_traced, traced});
    if (item == am_match_spec) return make_tuple_on(p, {am_match_spec, spec});
    if (item == am_meta || item == am_meta_match_spec || item == am_call_count || item == am_call_time)
        return make_tuple_on(p, {item, atoms::false_});
    if (item == am_all) {
        if (!loaded) return make_tuple_on(p, {am_all, atoms::undefined});
        if (!flags) return make_tuple_on(p, {am_all, atoms::false_});
        Term items[] = {make_tuple_on(p, {am_traced, traced}), make_tuple_on(p, {am_match_spec, spec}),
                        make_tuple_on(p, {am_meta, atoms::false_}), make_tuple_on(p, {am_meta_match_spec, atoms::false_}),
                        make_tuple_on(p, {am_call_time, atoms::false_}), make_tuple_on(p, {am_call_count, atoms::false_})};
        Term l = NIL;
        for (int i = 5; i >= 0; --i) l = make_cons_on(p->alloc(2), items[i], l);
        return make_tuple_on(p, {am_all, l});
    }
    return p->badarg();
}

}  // namespace beamlet::bif
