// tracing/native_tracers.hpp — tracer modules written in C++ against the erl_tracer
// interface: registered under a module name, used when no NIF or Erlang module of that name
// provides the callbacks. beamlet ships beamlet_file_tracer (tracing/native_tracers.cpp).
#pragma once

#include "tracing/tracer_module.hpp"

namespace beamlet::tracing {

struct NativeTracer {
    virtual ~NativeTracer() = default;
    // enabled/3 for every kind (trace_status included).
    virtual TracerVerdict enabled(vm::Term state, vm::Term tag, vm::Term tracee) const = 0;
    // trace/5: the terms are only valid during the call.
    virtual void trace(vm::Term state, vm::Term tag, vm::Term tracee, vm::Term term, const TracerOpts& opts) const = 0;
};

// The native tracer registered as [module], or null.
const NativeTracer* find_native_tracer(vm::Term module);
// Registers [tracer] (which outlives its use) as the native tracer module [module]; null
// unregisters it. tools/ adds its own this way (beamlet_cli_tracer, tools/cli_trace.hpp).
void register_native_tracer(vm::Term module, const NativeTracer* tracer);

// A native tracer's callbacks as the Erlang functions Module:enabled/3 and Module:trace/5,
// for code that calls a tracer module itself (seq_trace:set_system_tracer/1 asks
// enabled(trace_status, self(), State) first). The tracer's owner registers two BIFs that
// call these with [args] as given.
vm::Term call_native_enabled(const NativeTracer& tracer, vm::Term* args);
vm::Term call_native_trace(const NativeTracer& tracer, vm::Term* args);
// beamlet_file_tracer's (bif/bifs.def).
const NativeTracer& file_tracer();

// Writes out what native tracers buffer (erlang:trace_delivered/1: the events are in place).
void flush_native_tracers();

}  // namespace beamlet::tracing
