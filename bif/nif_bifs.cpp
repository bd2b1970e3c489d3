// bif/nif_bifs.cpp — erlang:load_nif/2 and the on_load protocol (erlang:call_on_load_function/1,
// erlang:finish_after_on_load/2, beamlet:on_load_claim/1) that bif/lib/beamlet_internal.erl
// drives when a module with -on_load(F/0) is loaded.
#include <algorithm>
#include <memory>
#include <string>

#include "bif/bifs.hpp"
#include "nif/nif.hpp"
#include "tracing/tracer_module.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/code_permission.hpp"
#include "vm/copy.hpp"
#include "vm/heap.hpp"
#include "vm/module.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

// A flat list of bytes as a string (load_nif's path: OTP accepts a character list).
bool string_arg(Term t, std::string* out) {
    out->clear();
    for (; is_list(t); t = cdr(t)) {
        Term c = car(t);
        if (!is_small(c) || small_value(c) < 0 || small_value(c) > 255) return false;
        out->push_back(char(small_value(c)));
    }
    return is_nil(t);
}

// Whether some function of [m] is a native BIF (its Erlang body a placeholder).
bool has_native_functions(const Vm& vm, const Module& m) {
    return std::any_of(m.functions.begin(), m.functions.end(),
                       [&](const FunctionInfo& fi) { return vm.find_bif(m.name, fi.name, fi.arity) != nullptr; });
}

}  // namespace

// erlang:load_nif(Path, LoadInfo): loads Path ++ ".so" into the calling module, under the code
// modification permission (its functions' first instructions change).
Term bif_load_nif(Process* p, Term* a) {
    // The caller's module: the call instruction (p->ip), or through apply its continuation.
    const Module* m = p->vm.module_containing(p->ip);
    if (!m && p->cp) m = p->vm.module_containing(p->cp);
    if (!m) return p->badarg();
    Term module = m->name;
    std::string path;
    if (!string_arg(a[0], &path)) return p->badarg();
    // A library named after its module whose NIFs beamlet has natively (bif/bifs.def: OTP's
    // prim_file, prim_buffer, ...) is built in, as OTP's statically linked NIF libraries are.
    if (path == atom_text(module) && has_native_functions(p->vm, *m)) return atoms::ok;
    // The load info outlives this call's heap (the wait for the permission may GC it).
    Term info;
    std::shared_ptr<HeapFragment> info_heap(copy_to_fragment(a[1], &info), free_fragment);
    return p->vm.trap_until_permission(p, [module, path, info, info_heap](Process* q, Term*) -> Term {
        Term r = nif::load_nif(q, module, path, info);
        q->vm.code_permission->release(q);
        return r;
    });
}

// beamlet:on_load_claim(Module): claimed (the caller runs the on_load function), running
// (another process does), or none (there is none to run).
Term bif_on_load_claim(Process* p, Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    const Word* entry = nullptr;
    switch (p->vm.claim_on_load(a[0], &entry)) {
    case Vm::OnLoadClaim::Claimed:
        p->on_load_entry = entry;
        return atom("claimed");
    case Vm::OnLoadClaim::Running: return atom("running");
    case Vm::OnLoadClaim::None: break;
    }
    return atom("none");
}

// erlang:call_on_load_function(Module): calls the on_load function the caller claimed; its
// result is this call's result.
Term bif_call_on_load_function(Process* p, Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    // OTP's code server calls it right after finish_loading: the caller claims the run.
    if (!p->on_load_entry && p->vm.claim_on_load(a[0], &p->on_load_entry) != Vm::OnLoadClaim::Claimed) return p->badarg();
    const Module* m = p->vm.find_module(a[0]);
    if (!m || !m->contains(p->on_load_entry)) return p->badarg();
    p->ip = p->on_load_entry;
    p->on_load_entry = nullptr;
    p->exception = PendingException{};
    return THE_NON_VALUE;  // trap: the on_load function runs, returning to our caller
}

// erlang:finish_after_on_load(Module, Keep): publishes the module's exports (Keep) or unloads it.
Term bif_finish_after_on_load(Process* p, Term* a) {
    if (!is_atom(a[0]) || (a[1] != atoms::true_ && a[1] != atoms::false_)) return p->badarg();
    if (!p->vm.finish_on_load(a[0], a[1] == atoms::true_)) return p->badarg();
    return atoms::true_;
}

// beamlet:tracer_module_stats(): #{enabled_calls, trace_calls, failures} of tracer modules
// (NIF, Erlang and native) since the VM started.
Term bif_beamlet_tracer_module_stats(Process* p, Term*) {
    tracing::TracerModuleStats s = tracing::tracer_module_stats();
    return map_from_pairs(p, {{atom("enabled_calls"), make_integer(p, SWord(s.enabled_calls))},
                              {atom("trace_calls"), make_integer(p, SWord(s.trace_calls))},
                              {atom("failures"), make_integer(p, SWord(s.failures))}});
}

// erlang:is_builtin(M, F, A): whether M:F/A is one of erts's BIFs (is_otp_bif), or one
// that erts implements as an instruction (apply/2,3 and yield/0).
Term bif_is_builtin(Process* p, Term* a) {
    if (!is_atom(a[0]) || !is_atom(a[1]) || !is_small(a[2]) || small_value(a[2]) < 0) return p->badarg();
    Word arity = Word(small_value(a[2]));
    if (a[0] == atoms::erlang && ((a[1] == atoms::apply && (arity == 2 || arity == 3)) ||
                                  (a[1] == atom("yield") && arity == 0)))
        return atoms::true_;
    const Export* e = p->vm.exports.find(a[0], a[1], arity);
    return make_bool(e && is_otp_bif(e));
}

}  // namespace beamlet::bif
