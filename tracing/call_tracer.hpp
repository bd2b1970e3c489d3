// tracing/call_tracer.hpp — CallTracer: what happens when a breakpoint is hit (call trace and
// meta messages, match specs, trace frames for return_from / exception_from / return_to,
// call_count / call_time / call_memory accounting), process trace flags per session, and
// set_on_spawn; implements vm::TraceHooks.
#pragma once

#include <cstdint>

#include "vm/process.hpp"
#include "vm/trace_hooks.hpp"
#include "vm/vm.hpp"

namespace beamlet::tracing {

class CallTracer : public vm::TraceHooks {
public:
    explicit CallTracer(vm::Vm& vm) : m_vm(vm) {}

    vm::Word function_breakpoint(vm::Process* p, const vm::CodeInfo* ci, vm::Term* x) override;
    const vm::Word* export_breakpoint(vm::Process* p, vm::Export* e, vm::Term* x) override;
    const vm::Word* trace_frame_returned(vm::Process* p, vm::Term value) override;
    void exception_unwinding(vm::Process* p, vm::Term* from, vm::Term* to, const vm::Word* catch_at) override;
    void schedule_break(vm::Process* p, bool out) override;
    void process_spawned(vm::Process* parent, vm::Process* child) override;
    void process_linked(vm::Process* linker, vm::Process* linked) override;
    void module_loading(vm::Module& module) override;

private:
    vm::Vm& m_vm;
};

// Sets ([on]) or clears the [flags] of [session] on [p] with [tracer] (0: keep the current one).
// Fails (false) when [p] already has a different live tracer in this session.
bool set_process_flags(vm::Vm& vm, vm::Process* p, vm::TraceSession* session, vm::Term tracer, std::uint32_t flags,
                       bool on, bool tracer_given = true);
// The flags and tracer of [session] on [p] (flags 0 when untraced).
vm::TracerRef process_trace_ref(vm::Process* p, const vm::TraceSession* session);
// The same, but a dead tracer's flags are removed first (and nothing is reported).
vm::TracerRef live_trace_ref(vm::Vm& vm, vm::Process* p, const vm::TraceSession* session);

// The process trace flag named [name] (call, arity, return_to, silent, set_on_spawn, ...), or 0.
std::uint32_t process_flag_bit(vm::Term name);
// The names of [flags], in OTP's order.
vm::Term process_flag_list(vm::Process* p, std::uint32_t flags);

// {MegaSecs, Secs, MicroSecs} now, on [p]'s heap (the timestamp of meta trace messages).
vm::Term now_timestamp(vm::Process* p);

}  // namespace beamlet::tracing
