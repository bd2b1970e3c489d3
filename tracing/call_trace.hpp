// tracing/call_trace.hpp — what a breakpoint hit does (call and meta trace messages, match
// specs, call_count, call_time / call_memory accounting) and what the trace frames it pushes
// report (return_from, exception_from, return_to). Mirrors erts_generic_breakpoint and the
// return-trace half of OTP's beam_bp.c.
#pragma once

#include "matchspec/match_spec.hpp"
#include "vm/module.hpp"
#include "vm/process.hpp"

namespace beamlet::vm {
struct Vm;
}

namespace beamlet::tracing {

// vm::TraceHooks' call-tracing entries (see vm/trace_hooks.hpp).
// A hit in a function header: {trace, P, call, {M, F, Args}} (with the arity flag
// {M, F, Arity}; [, Message] when the match spec's message action gives one), and for a meta
// pattern {trace_ts, P, call, {M, F, Args}, Ts} to the meta tracer.
vm::Word function_breakpoint(vm::Vm& vm, vm::Process* p, const vm::CodeInfo* ci, vm::Term* x);
// The same for a remote call of an export whose breakpoint is set (global tracing, BIFs).
const vm::Word* export_breakpoint(vm::Vm& vm, vm::Process* p, vm::Export* e, vm::Term* x);
// A traced function returned through its trace frame: {trace, P, return_from, {M, F, Arity},
// Value} (return_trace, exception_trace), {trace, P, return_to, {M, F, Arity}} (the return_to
// flag), and for meta patterns {trace_ts, P, return_from, {M, F, Arity}, Value, Ts}.
const vm::Word* trace_frame_returned(vm::Vm& vm, vm::Process* p, vm::Term value);
// An exception unwinds trace frames: {trace, P, exception_from, {M, F, Arity}, {Class,
// Value}} (exception_trace), then {trace, P, return_to, {M, F, Arity}} naming the catching
// function when one catches it.
void exception_unwinding(vm::Vm& vm, vm::Process* p, vm::Term* from, vm::Term* to, const vm::Word* catch_at);

// The trace actions of a match spec run for a session's call, send or receive pattern:
// {caller}, {process_dump}, {enable_trace, ...}, {trace, ...}, {silent, Bool}.
class TraceActions : public matchspec::MatchSpecActions {
public:
    TraceActions(vm::Vm& vm, vm::TraceSession* session) : m_vm(vm), m_session(session) {}

    vm::Term caller(vm::Process* p) override;
    vm::Term caller_line(vm::Process* p) override;
    vm::Term process_dump(vm::Process* p) override;
    vm::Term change_trace(vm::Process* p, vm::Term who, vm::Term disable, vm::Term enable) override;
    void set_silent(vm::Process* p, bool on) override;

    bool changed = false;  // the process's flags may have changed

private:
    vm::Vm& m_vm;
    vm::TraceSession* m_session;
};

}  // namespace beamlet::tracing
