// tracing/delivery.hpp — the one door every trace event leaves a process through (DESIGN.md §6,
// "Delivery layer"; mirrors erl_trace.c with OTP's default erl_tracer).
//
// An event becomes {trace, Tracee, Tag, Data...[, Extra][, SchedulerId]} — trace_ts with a
// timestamp as the last element when the tracee's flags ask for one — built in a heap fragment
// and enqueued straight on the tracer's inbox: it never passes through send or receive
// tracing, touches no process heap (so the garbage collector can deliver from inside a
// collection), and runs on whatever thread generated the event. Each event is enqueued before
// the generating code goes on, so the events of one tracee reach a tracer in the order they
// happened; trace_delivered only has to wait for events being generated on other threads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>

#include "vm/term.hpp"
#include "tracing/sessions.hpp"
#include "vm/trace_hooks.hpp"

namespace beamlet::vm {
struct Port;
struct Process;
struct Vm;
}

namespace beamlet::tracing {

// A small tuple in a C++ array (event terms are built off-heap; delivery copies them).
template <std::size_t N>
struct StackTuple {
    vm::Term words[N + 1];
    explicit StackTuple(std::initializer_list<vm::Term> elements) {
        words[0] = vm::make_arityval(N);
        std::copy(elements.begin(), elements.end(), words + 1);
    }
    vm::Term term() { return vm::make_boxed(words); }
};

// One trace event: the elements of the message after {trace, Tracee, ...}. The terms may live
// anywhere (a heap, a literal area, a C++ stack array): delivery copies them.
struct TraceEvent {
    vm::Term tracee;            // the pid the event is about
    vm::Term tag;               // call, send, 'receive', spawn, in, gc_minor_start, ...
    vm::Term data[2] = {0, 0};  // the elements after the tag (0: absent)
    vm::Term extra = 0;         // a match spec's {message, X} value (0: none)
    bool enabled_checked = false;  // a tracer module's enabled/3 already said trace
};

enum class DeliveryResult : std::uint8_t {
    Delivered,
    Discarded,   // the tracer is the tracee itself: it gets nothing (OTP's erl_tracer)
    TracerGone,  // the tracer no longer exists
};

// Builds [event] formatted per the tracee's [flags] (timestamp kind, scheduler_id) and enqueues
// it on [tracer]'s inbox (or calls a tracer module). With [session], its overload limits
// apply first: an event over a limit is dropped (Discarded) and counted.
DeliveryResult deliver(vm::Vm& vm, vm::Tracer tracer, std::uint32_t flags, const TraceEvent& event,
                       vm::TraceSession* session = nullptr);

// Sets [session]'s overload limits (all zero: none) and resets its counters and state.
void set_trace_limits(vm::TraceSession* session, const vm::TraceLimits& limits);

// deliver() for [tracee]'s tracing in one session ([ref]); a tracer that is gone takes the
// session's flags off [tracee] with it (OTP's trace_status -> remove). True if delivered.
bool deliver_for(vm::Vm& vm, vm::Process* tracee, const vm::TracerRef& ref, const TraceEvent& event);
bool deliver_for(vm::Vm& vm, vm::Port* tracee, const vm::TracerRef& ref, const TraceEvent& event);

// A seq_trace event {seq_trace, Label, {Kind, {LastCnt, Serial}, From, To, Msg}[, Ts]} for
// [token] to the system tracer [tracer] (a pid), with the token's timestamp; false if the
// tracer is gone.
bool deliver_seq_trace(vm::Vm& vm, vm::Term tracer, vm::Term token, vm::Term kind, vm::Term from, vm::Term to,
                       vm::Term msg);

// cpu_timestamp: `timestamp` reads the scheduler thread's CPU time instead of the wall clock
// (a node-global switch, as in OTP).
void set_cpu_timestamp(bool on);
bool cpu_timestamp();

// erlang:trace_delivered/1 for [caller]: {trace_delivered, [tracee], [ref]} is sent to [caller]
// once every trace event generated before this call is in its tracer's queue, that is after a
// thread-progress wait (every scheduler has then finished the events it was generating).
void notify_when_delivered(vm::Vm& vm, vm::Term caller, vm::Term tracee, vm::Term ref);

}  // namespace beamlet::tracing
