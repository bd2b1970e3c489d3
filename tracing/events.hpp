// tracing/events.hpp — the events of processes and messages: send, 'receive', procs,
// running / exiting, garbage_collection (OTP's trace_send, trace_receive, trace_proc,
// trace_sched and trace_gc in erl_trace.c). Each goes to every session whose ref on the process
// has the event's flag, through tracing/delivery.
#pragma once

#include "vm/port.hpp"
#include "vm/process.hpp"
#include "vm/trace_hooks.hpp"

namespace beamlet::vm {
struct Vm;
}

namespace beamlet::tracing {

// {trace, Sender, send, Msg, To}, or {trace, Sender, send_to_non_existing_process, Msg, To}
// when [exists] is false (a local pid that does not exist); [to] is the destination as
// written. The session's send pattern selects and decorates the event.
void trace_send(vm::Vm& vm, vm::Process* sender, vm::Term to, vm::Term msg, bool exists);
// {trace, P, 'receive', Msg}: [p] took [msg] from [sender] (0: unknown) into its queue; the
// session's 'receive' pattern sees [Node, Sender, Msg].
void trace_receive(vm::Vm& vm, vm::Process* p, vm::Term sender, vm::Term msg);
// [p]'s receive ... after timed out: {trace, P, 'receive', timeout}.
void trace_receive_timeout(vm::Vm& vm, vm::Process* p);
// {trace, P, [what], [arg]} or, with [arg2], {trace, P, [what], [arg], [arg2]}, for [p]'s
// sessions with procs.
void trace_proc(vm::Vm& vm, vm::Process* p, vm::Term what, vm::Term arg, vm::Term arg2 = 0);
// The same event for the sessions of [refs] only (taken under [p]'s lock by the caller).
void trace_proc_to(vm::Vm& vm, vm::Process* p, const std::vector<vm::TracerRef>& refs, vm::Term what, vm::Term arg);
// {trace, P, in | out | in_exiting | out_exiting | out_exited, {M, F, Arity} | 0} for [p]:
// the current function, 0 when it has none (running, running_procs, exiting).
void trace_sched(vm::Vm& vm, vm::Process* p, vm::SchedEvent event);
// {trace, P, gc_minor_start | gc_major_start, Info} ([end] false) or gc_minor_end /
// gc_major_end, Info OTP's twelve {Key, Value} pairs (wordsize, old_heap_block_size,
// heap_block_size, mbuf_size, recent_size, stack_size, old_heap_size, heap_size,
// bin_vheap_size, bin_vheap_block_size, bin_old_vheap_size, bin_old_vheap_block_size).
void trace_gc(vm::Vm& vm, vm::Process* p, bool end, bool major, vm::Word words);

// ---- ports (OTP's trace_port, trace_port_open, trace_sched_ports, trace_port_send and
// trace_port_receive) ----

// {trace, Port, [what], [arg]} (closed, getting_linked, register, ...) for [port]'s sessions
// with ports; with [arg2], {trace, Port, [what], [arg], [arg2]} (open).
void trace_port(vm::Vm& vm, vm::Port* port, vm::Term what, vm::Term arg, vm::Term arg2 = 0);
// {trace, Port, in | out, Command} (running_ports).
void trace_port_sched(vm::Vm& vm, vm::Port* port, vm::Term what, vm::Term command);
// {trace, Port, send, Msg, To}, or send_to_non_existing_process when [to] is gone.
void trace_port_send(vm::Vm& vm, vm::Port* port, vm::Term to, vm::Term msg, bool exists);
// {trace, Port, 'receive', Msg}.
void trace_port_receive(vm::Vm& vm, vm::Port* port, vm::Term msg);

}  // namespace beamlet::tracing
