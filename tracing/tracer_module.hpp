// tracing/tracer_module.hpp — tracer modules (the erl_tracer behaviour): a tracer {Module,
// State} whose enabled*/trace* callbacks run in the context of the traced entity at every
// trace point, instead of a message to a tracer process.
//
// A callback is found, in this order, as a NIF of Module's loaded library (OTP), as an
// exported Erlang function of Module (beyond OTP: run on a tracer context process of the
// calling thread, with a reduction budget and no receive), or as a native C++ tracer
// registered under Module's name (tracing/native_tracers.*). enabled_<kind>/3 and
// trace_<kind>/5 fall back to enabled/3 and trace/5.
//
// Descriptors are interned by {Module, State} and live as long as the VM, so a Tracer (one
// word: vm::Tracer::module) can be copied and published atomically like a pid.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "vm/term.hpp"
#include "vm/trace_hooks.hpp"

namespace beamlet::vm {
struct HeapFragment;
struct Process;
struct Vm;
}  // namespace beamlet::vm

namespace beamlet::tracing {

// The event kinds a tracer module distinguishes (OTP's TRACE_FUN_* pairs).
enum class TracerKind : std::uint8_t { Default, Send, Receive, Call, RunningProcs, RunningPorts, Gc, Procs, Ports, Count };

// What enabled/3 answered.
enum class TracerVerdict : std::uint8_t { Trace, Discard, Remove };

struct TracerModule;

// The tracer module {[module], [state]} (interned: the same pair gives the same descriptor).
const TracerModule* intern_tracer_module(vm::Term module, vm::Term state);
// Its module and state (the state lives in the descriptor's own heap).
vm::Term tracer_module_name(const TracerModule* t);
vm::Term tracer_module_state(const TracerModule* t);
// Whether [module] can be a tracer module now (enabled/3 and trace/5 resolve).
bool tracer_module_usable(vm::Vm& vm, vm::Term module);

// enabled_<kind>(Tag, State, Tracee) (or enabled/3); trace_status asks whether the tracer
// is still to be used: anything but remove is trace then. A module that cannot be called
// (not loaded any more, a crash) answers remove for trace_status and discard otherwise.
TracerVerdict tracer_enabled(vm::Vm& vm, const TracerModule* t, TracerKind kind, vm::Term tag, vm::Term tracee);

// The Opts map of trace/5.
struct TracerOpts {
    vm::Term extra = 0;              // 0: absent
    vm::Term match_spec_result = 0;  // 0: absent (true is not reported)
    std::uint32_t flags = 0;         // the tracee's flags: timestamp kind, scheduler_id
};

// trace_<kind>(Tag, State, Tracee, TraceTerm, Opts) (or trace/5). False when an Erlang
// callback failed (raised, looped, tried to receive): the tracer is then removed from the
// tracee, as for enabled's remove.
bool tracer_trace(vm::Vm& vm, const TracerModule* t, TracerKind kind, vm::Term tag, vm::Term tracee, vm::Term term,
                  const TracerOpts& opts);

// The kind of an event tag (send -> Send, call -> Call, in -> RunningProcs, ...).
TracerKind tracer_kind_of(vm::Term tag);

// Counters of one native or Erlang tracer module's calls, for tests and beamlet:tracer_stats/0.
struct TracerModuleStats {
    std::uint64_t enabled_calls = 0, trace_calls = 0, failures = 0;
};
TracerModuleStats tracer_module_stats();

// Frees every descriptor (VM shutdown).
void release_tracer_modules();

}  // namespace beamlet::tracing
