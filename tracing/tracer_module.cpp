// tracing/tracer_module.cpp — calling tracer modules: resolving their callbacks (NIF, Erlang or
// native), the tracer contexts their calls run on, and the Opts map.
#include "tracing/tracer_module.hpp"

#include <array>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "nif/nif.hpp"
#include "tracing/delivery.hpp"
#include "tracing/native_tracers.hpp"
#include "vm/atom_table.hpp"
#include "vm/copy.hpp"
#include "vm/heap.hpp"
#include "vm/entry_code.hpp"
#include "vm/interpreter.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"
#include "vm/process.hpp"
#include "vm/scheduler.hpp"
#include "vm/term_hash.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

#define BEAMLET_CACHED_ATOM(name, text) static const ::beamlet::vm::Term name = ::beamlet::vm::atom(text)

namespace beamlet::tracing {

using namespace vm;

namespace {

constexpr std::size_t KINDS = std::size_t(TracerKind::Count);

// The callbacks of one module as they resolve now.
struct Callbacks {
    std::uint64_t generation = 0;
    enum class Via : std::uint8_t { None, Nif, Erlang, Native } via = Via::None;
    std::array<nif::NifFunction, KINDS> nif_enabled{}, nif_trace{};
    std::array<const Export*, KINDS> erl_enabled{}, erl_trace{};
    const NativeTracer* native = nullptr;
};

// The callback names per kind: enabled/3 and trace/5 for Default, then the specific ones.
constexpr const char* KIND_SUFFIX[KINDS] = {"",       "_send", "_receive",         "_call", "_running_procs",
                                            "_running_ports", "_garbage_collection", "_procs", "_ports"};

std::atomic<std::uint64_t> g_enabled_calls{0}, g_trace_calls{0}, g_failures{0};

}  // namespace

struct TracerModule {
    Term module = 0;
    Term state = 0;
    HeapFragment* state_heap = nullptr;
    // The callbacks as resolved for one code generation: an immutable snapshot, replaced (never
    // changed) when the generation moves, so callers read it without a lock. Older snapshots
    // are kept until the descriptor goes: a caller may still be using one.
    mutable std::mutex mutex;
    mutable std::atomic<const Callbacks*> callbacks{nullptr};
    mutable std::vector<std::unique_ptr<Callbacks>> snapshots;
};

namespace {

std::mutex g_intern_mutex;
std::unordered_multimap<Word, TracerModule*> g_interned;

std::uint64_t code_generation(Vm& vm) {
    return vm.code_generation.load(std::memory_order_acquire) * 1000003 + nif::generation();
}

// An exported Erlang function of [module] named [name]/[arity] that has code now.
const Export* erlang_callback(Vm& vm, Term module, const std::string& name, Word arity) {
    Export* e = vm.exports.find(module, atom(name), arity);
    if (!e || e->is_bif() || e->address() == e->trampoline) return nullptr;
    return e;
}

Callbacks resolve(Vm& vm, Term module) {
    Callbacks c;
    for (std::size_t k = 0; k < KINDS; ++k) {
        c.nif_enabled[k] = nif::find(vm, module, atom(std::string("enabled") + KIND_SUFFIX[k]), 3);
        c.nif_trace[k] = nif::find(vm, module, atom(std::string("trace") + KIND_SUFFIX[k]), 5);
    }
    if (c.nif_enabled[0].func && c.nif_trace[0].func) {
        c.via = Callbacks::Via::Nif;
        return c;
    }
    c.nif_enabled.fill({});
    c.nif_trace.fill({});
    if (const Module* m = vm.find_module(module); m && !m->on_load_pending.load(std::memory_order_acquire)) {
        for (std::size_t k = 0; k < KINDS; ++k) {
            c.erl_enabled[k] = erlang_callback(vm, module, std::string("enabled") + KIND_SUFFIX[k], 3);
            c.erl_trace[k] = erlang_callback(vm, module, std::string("trace") + KIND_SUFFIX[k], 5);
        }
        if (c.erl_enabled[0] && c.erl_trace[0]) {
            c.via = Callbacks::Via::Erlang;
            return c;
        }
        c.erl_enabled.fill(nullptr);
        c.erl_trace.fill(nullptr);
    }
    if ((c.native = find_native_tracer(module))) c.via = Callbacks::Via::Native;
    return c;
}

const Callbacks& callbacks_of(Vm& vm, const TracerModule* t) {
    std::uint64_t now = code_generation(vm);
    const Callbacks* c = t->callbacks.load(std::memory_order_acquire);
    if (c && c->generation == now) return *c;
    std::lock_guard lock(t->mutex);
    c = t->callbacks.load(std::memory_order_relaxed);
    if (c && c->generation == now) return *c;
    auto fresh = std::make_unique<Callbacks>(resolve(vm, t->module));
    fresh->generation = now;
    c = fresh.get();
    t->snapshots.push_back(std::move(fresh));
    t->callbacks.store(c, std::memory_order_release);
    return *c;
}

// ---- tracer contexts: detached processes the callbacks run on ----

// A process outside the process table with its own registers: a NIF callback's terms are
// made on its heap, an Erlang callback runs on it. Reset after every call.
struct Context {
    std::unique_ptr<Process> p;
    std::unique_ptr<Registers> regs;
    int scheduler_slot = -1;  // taken from that scheduler's own slot
};

struct ContextPool {
    std::mutex mutex;
    std::vector<Context> free;
    Vm* vm = nullptr;
};
ContextPool g_pool;

// One context per scheduler thread, taken without a lock (the pool serves other threads and
// a callback that runs while its scheduler's context is busy).
struct SchedulerContext {
    std::atomic<bool> busy{false};
    Vm* vm = nullptr;
    Context context;
};
constexpr int SCHEDULER_CONTEXTS = 64;
SchedulerContext g_scheduler_contexts[SCHEDULER_CONTEXTS];

Context make_context(Vm& vm) {
    Context c;
    c.p = std::make_unique<Process>(vm, vm.next_pid.fetch_add(1, std::memory_order_relaxed) + 1);
    c.p->ever_ran = true;
    c.regs = std::make_unique<Registers>();
    return c;
}

Context acquire_context(Vm& vm) {
    int index = Schedulers::current_index();
    if (index >= 0 && index < SCHEDULER_CONTEXTS) {
        SchedulerContext& s = g_scheduler_contexts[index];
        if (!s.busy.exchange(true, std::memory_order_acquire)) {
            if (s.vm != &vm || !s.context.p) {
                s.context = make_context(vm);
                s.vm = &vm;
            }
            Context c = std::move(s.context);
            c.scheduler_slot = index;
            return c;
        }
    }
    {
        std::lock_guard lock(g_pool.mutex);
        if (g_pool.vm == &vm && !g_pool.free.empty()) {
            Context c = std::move(g_pool.free.back());
            g_pool.free.pop_back();
            return c;
        }
    }
    return make_context(vm);
}

void release_context(Vm& vm, Context c) {
    Process* p = c.p.get();
    p->reset_heap();
    p->exited = false;
    p->exit_reason = 0;
    p->exception = PendingException{};
    p->continuation = nullptr;
    p->suspend_for = SuspendFor::Nothing;
    p->trace_frames = 0;
    p->yield_requested = false;
    p->timeout_ip = nullptr;
    p->saved_x.clear();
    p->arity = 0;
    if (c.scheduler_slot >= 0) {
        SchedulerContext& s = g_scheduler_contexts[c.scheduler_slot];
        c.scheduler_slot = -1;
        s.context = std::move(c);
        s.busy.store(false, std::memory_order_release);
        return;
    }
    std::lock_guard lock(g_pool.mutex);
    if (g_pool.vm != &vm) {
        g_pool.free.clear();
        g_pool.vm = &vm;
    }
    if (g_pool.free.size() < 64) g_pool.free.push_back(std::move(c));
}

// Runs Erlang function [e] with [args] on [c]; the result (on c's heap) or THE_NON_VALUE when
// it raised, ran out of its reduction budget, or tried to wait for a message.
Term run_erlang(Context& c, const Export* e, std::initializer_list<Term> args) {
    // The arguments are not copied: they outlive the call (the descriptor's state, the event's
    // terms), nothing the callback keeps survives it (its heap is reset), and the collector
    // leaves terms outside the context's own heap where they are.
    Process* p = c.p.get();
    prepare_call(p, e, std::data(args), args.size());
    RunResult r = run_process(p, *c.regs);
    if (r != RunResult::Exited || p->exit_reason != atoms::normal) {
        g_failures.fetch_add(1, std::memory_order_relaxed);
        return THE_NON_VALUE;
    }
    return p->return_value;
}

// A NIF callback on behalf of [tracee] (enif_self answers it when it is a process).
Term call_nif(Context& c, const nif::NifFunction& f, Term tracee, std::initializer_list<Term> args) {
    Term exception = 0;
    Term r = nif::call(f, c.p.get(), is_pid(tracee) ? tracee : 0, std::data(args), int(args.size()), &exception);
    if (r == THE_NON_VALUE) g_failures.fetch_add(1, std::memory_order_relaxed);
    return r;
}

// The Opts map of trace/5 on [p]'s heap.
Term opts_map(Process* p, const TracerOpts& opts) {
    BEAMLET_CACHED_ATOM(am_extra, "extra");
    BEAMLET_CACHED_ATOM(am_match_spec_result, "match_spec_result");
    BEAMLET_CACHED_ATOM(am_scheduler_id, "scheduler_id");
    BEAMLET_CACHED_ATOM(am_timestamp, "timestamp");
    BEAMLET_CACHED_ATOM(am_cpu_timestamp, "cpu_timestamp");
    BEAMLET_CACHED_ATOM(am_monotonic, "monotonic");
    BEAMLET_CACHED_ATOM(am_strict_monotonic, "strict_monotonic");
    std::vector<std::pair<Term, Term>> pairs;
    if (opts.extra) pairs.emplace_back(am_extra, opts.extra);
    if (opts.match_spec_result && opts.match_spec_result != atoms::true_)
        pairs.emplace_back(am_match_spec_result, opts.match_spec_result);
    if (opts.flags & TRACE_SCHEDULER_ID)
        pairs.emplace_back(am_scheduler_id, make_small(std::max(1, Schedulers::current_index() + 1)));
    if (opts.flags & TRACE_TS_NOW) pairs.emplace_back(am_timestamp, cpu_timestamp() ? am_cpu_timestamp : am_timestamp);
    else if (opts.flags & TRACE_TS_STRICT) pairs.emplace_back(am_timestamp, am_strict_monotonic);
    else if (opts.flags & TRACE_TS_MONO) pairs.emplace_back(am_timestamp, am_monotonic);
    if (pairs.empty()) return empty_map();
    return map_from_pairs(p, std::move(pairs));
}

}  // namespace

const TracerModule* intern_tracer_module(Term module, Term state) {
    Word h = Word(make_hash2(state)) * 31 + module;
    std::lock_guard lock(g_intern_mutex);
    auto [first, last] = g_interned.equal_range(h);
    for (auto it = first; it != last; ++it)
        if (it->second->module == module && terms_exact_equal(it->second->state, state)) return it->second;
    auto* t = new TracerModule;
    t->module = module;
    t->state_heap = copy_to_fragment(state, &t->state);
    g_interned.emplace(h, t);
    return t;
}

Term tracer_module_name(const TracerModule* t) { return t->module; }
Term tracer_module_state(const TracerModule* t) { return t->state; }

bool tracer_module_usable(Vm& vm, Term module) {
    return resolve(vm, module).via != Callbacks::Via::None;
}

TracerKind tracer_kind_of(Term tag) {
    static const std::unordered_map<Term, TracerKind> kinds = [] {
        std::unordered_map<Term, TracerKind> m;
        for (const char* t : {"send", "send_to_non_existing_process"}) m[atom(t)] = TracerKind::Send;
        m[atom("receive")] = TracerKind::Receive;
        for (const char* t : {"call", "return_to", "return_from", "exception_from"}) m[atom(t)] = TracerKind::Call;
        for (const char* t : {"in", "out", "in_exiting", "out_exiting", "out_exited"}) m[atom(t)] = TracerKind::RunningProcs;
        for (const char* t : {"gc_minor_start", "gc_minor_end", "gc_major_start", "gc_major_end"}) m[atom(t)] = TracerKind::Gc;
        for (const char* t : {"spawn", "spawned", "exit", "link", "unlink", "getting_linked", "getting_unlinked",
                              "register", "unregister"})
            m[atom(t)] = TracerKind::Procs;
        for (const char* t : {"open", "closed"}) m[atom(t)] = TracerKind::Ports;
        return m;
    }();
    auto it = kinds.find(tag);
    return it == kinds.end() ? TracerKind::Default : it->second;
}

TracerVerdict tracer_enabled(Vm& vm, const TracerModule* t, TracerKind kind, Term tag, Term tracee) {
    BEAMLET_CACHED_ATOM(am_trace, "trace");
    BEAMLET_CACHED_ATOM(am_discard, "discard");
    BEAMLET_CACHED_ATOM(am_remove, "remove");
    BEAMLET_CACHED_ATOM(am_trace_status, "trace_status");
    bool status = tag == am_trace_status;
    if (status) kind = TracerKind::Default;
    const Callbacks& cb = callbacks_of(vm, t);
    g_enabled_calls.fetch_add(1, std::memory_order_relaxed);
    Term r = THE_NON_VALUE;
    std::size_t k = std::size_t(kind);
    switch (cb.via) {
    case Callbacks::Via::None: return status ? TracerVerdict::Remove : TracerVerdict::Discard;
    case Callbacks::Via::Native: return cb.native->enabled(t->state, tag, tracee);
    case Callbacks::Via::Nif: {
        Context c = acquire_context(vm);
        r = call_nif(c, cb.nif_enabled[k].func ? cb.nif_enabled[k] : cb.nif_enabled[0], tracee, {tag, t->state, tracee});
        release_context(vm, std::move(c));
        break;
    }
    case Callbacks::Via::Erlang: {
        Context c = acquire_context(vm);
        r = run_erlang(c, cb.erl_enabled[k] ? cb.erl_enabled[k] : cb.erl_enabled[0], {tag, t->state, tracee});
        release_context(vm, std::move(c));
        break;
    }
    }
    // An answer other than trace, discard or remove (or a crash) removes the tracer, as OTP
    // does; for trace_status anything but remove keeps it.
    if (status) return r == am_remove || r == THE_NON_VALUE ? TracerVerdict::Remove : TracerVerdict::Trace;
    if (r == am_trace) return TracerVerdict::Trace;
    if (r == am_discard) return TracerVerdict::Discard;
    return TracerVerdict::Remove;
}

bool tracer_trace(Vm& vm, const TracerModule* t, TracerKind kind, Term tag, Term tracee, Term term,
                  const TracerOpts& opts) {
    const Callbacks& cb = callbacks_of(vm, t);
    g_trace_calls.fetch_add(1, std::memory_order_relaxed);
    std::size_t k = std::size_t(kind);
    Term r = atoms::ok;
    switch (cb.via) {
    case Callbacks::Via::None: return false;
    case Callbacks::Via::Native: cb.native->trace(t->state, tag, tracee, term, opts); return true;
    case Callbacks::Via::Nif: {
        Context c = acquire_context(vm);
        Term map = opts_map(c.p.get(), opts);
        r = call_nif(c, cb.nif_trace[k].func ? cb.nif_trace[k] : cb.nif_trace[0], tracee, {tag, t->state, tracee, term, map});
        release_context(vm, std::move(c));
        return true;  // a NIF's result is not looked at (OTP ignores it too)
    }
    case Callbacks::Via::Erlang: {
        Context c = acquire_context(vm);
        Term map = opts_map(c.p.get(), opts);
        r = run_erlang(c, cb.erl_trace[k] ? cb.erl_trace[k] : cb.erl_trace[0], {tag, t->state, tracee, term, map});
        release_context(vm, std::move(c));
        return r != THE_NON_VALUE;
    }
    }
    return false;
}

TracerModuleStats tracer_module_stats() {
    return TracerModuleStats{g_enabled_calls.load(), g_trace_calls.load(), g_failures.load()};
}

void release_tracer_modules() {
    {
        std::lock_guard lock(g_pool.mutex);
        g_pool.free.clear();
        g_pool.vm = nullptr;
    }
    for (SchedulerContext& s : g_scheduler_contexts) {
        s.context = Context{};
        s.vm = nullptr;
    }
    std::lock_guard lock(g_intern_mutex);
    for (auto& [h, t] : g_interned) {
        free_fragment(t->state_heap);
        delete t;
    }
    g_interned.clear();
}

}  // namespace beamlet::tracing
