// bif/trace_bifs.hpp — what the legacy tracing BIFs (bif/trace_bifs.cpp) and the OTP 27 trace
// module (bif/trace_module_bifs.cpp) share: each legacy BIF is its trace-module counterpart on
// the legacy session.
#pragma once

#include "tracing/sessions.hpp"
#include "vm/process.hpp"

namespace beamlet::bif {

// erlang:trace/3 and trace:process/4: sets process flags in [session] for [spec] (a pid, all,
// existing, new, processes, ...). The legacy session (no tracer of its own) takes the tracer
// from {tracer, T} or the caller.
vm::Term trace_processes(vm::Process* p, vm::TraceSession* session, vm::Term spec, vm::Term how, vm::Term flags);

// erlang:trace_pattern/3 and trace:function/4: a pattern on functions, on_load, or (with
// [mfa] send / 'receive') the session's message pattern.
vm::Term trace_pattern(vm::Process* p, vm::TraceSession* session, vm::Term mfa, vm::Term ms, vm::Term flags);

// trace:send/3 and trace:recv/3: the session's send or 'receive' pattern.
vm::Term message_pattern(vm::Process* p, vm::TraceSession* session, bool send, vm::Term ms, vm::Term flags);

// erlang:trace_info/2 and trace:info/3.
vm::Term trace_info(vm::Process* p, vm::TraceSession* session, vm::Term what, vm::Term item);

// The tracer module {[module], [state]}, or none when [module] cannot be one (badarg).
vm::Tracer module_tracer(vm::Vm& vm, vm::Term module, vm::Term state);

// erlang:trace/3 and trace_pattern/3 with a {[key], Module, State} flag whose Module is not
// loaded: sets up a trap into beamlet_internal:trace_after_load/4, which loads it and calls
// [bif] again with the [arity] arguments in [a] (true: the BIF returns THE_NON_VALUE).
bool load_tracer_module_first(vm::Process* p, vm::Term* a, vm::Word arity, vm::Term key, const char* bif,
                              const char* bif_module = nullptr);

// erlang:trace_delivered/1 and trace:delivered/2.
vm::Term trace_delivered(vm::Process* p, vm::Term tracee);

}  // namespace beamlet::bif
