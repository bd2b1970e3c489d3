// tracing/process_flags.hpp — a process's trace flags per session (its TracerRefs): reading
// them (locked, or lock-free when one session traces it), changing them, dropping a session
// whose tracer died, the flag names, and inheritance through spawn and link (set_on_spawn,
// set_on_link, new-process flags). Mirrors the tracer-ref half of erl_bif_trace.c.
#pragma once

#include <cstdint>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/port.hpp"
#include "vm/process.hpp"
#include "vm/trace_hooks.hpp"

namespace beamlet::vm {
struct Vm;
}

namespace beamlet::tracing {

// Every process flag `all` sets (OTP's TRACEE_FLAGS: all but cpu_timestamp).
inline constexpr std::uint32_t TRACEE_FLAGS =
    vm::TRACE_CALL | vm::TRACE_ARITY | vm::TRACE_RETURN_TO | vm::TRACE_SOS | vm::TRACE_SOS1 | vm::TRACE_SOL |
    vm::TRACE_SOL1 | vm::TRACE_SILENT | vm::TRACE_TIMESTAMPS | vm::TRACE_SEND | vm::TRACE_RECEIVE |
    vm::TRACE_PROCS | vm::TRACE_RUNNING | vm::TRACE_EXITING | vm::TRACE_GC | vm::TRACE_SCHEDULER_ID |
    vm::TRACE_PORTS | vm::TRACE_RUNNING_PORTS | vm::TRACE_RUNNING_PROCS;

// OTP's three kinds of trace flags: those only ports use, the modifiers that serve both
// (send, 'receive', silent, scheduler_id, timestamps), and the rest, for processes only.
inline constexpr std::uint32_t PORT_ONLY_FLAGS = vm::TRACE_PORTS | vm::TRACE_RUNNING_PORTS;
inline constexpr std::uint32_t MODIFIER_FLAGS = vm::TRACE_SEND | vm::TRACE_RECEIVE | vm::TRACE_SILENT |
                                                vm::TRACE_SCHEDULER_ID | vm::TRACE_TIMESTAMPS;
// The flags new ports take (the default of new_ports keeps only these).
inline constexpr std::uint32_t PORT_TRACE_FLAGS = PORT_ONLY_FLAGS | MODIFIER_FLAGS;

// The process trace flag named [name] (call, send, procs, ..., or all for TRACEE_FLAGS), or 0.
std::uint32_t process_flag_bit(vm::Term name);
// The names of [flags] as a list on [p]'s heap, in the order OTP's trace_info lists them.
vm::Term process_flag_list(vm::Process* p, std::uint32_t flags);

// Sets ([on]) or clears the [flags] of [session] on [p] with [tracer] (none: keep the current
// one). Fails (false) when [p] already has a different live tracer in this session (also when
// turning flags off, if [tracer_given]).
bool set_process_flags(vm::Vm& vm, vm::Process* p, vm::TraceSession* session, vm::Tracer tracer,
                       std::uint32_t flags, bool on, bool tracer_given = true);
// The same for port [port]: it keeps every flag it is given (OTP 25 reports them back; only
// the port events use any).
bool set_port_flags(vm::Vm& vm, vm::Port* port, vm::TraceSession* session, vm::Tracer tracer, std::uint32_t flags,
                    bool on, bool tracer_given = true);
// Makes [p]'s tracing in [session] exactly [flags] with [tracer] (none or no flags: untraced),
// whatever it was before (the match-spec trace actions, which hand the target the caller's
// tracer).
void replace_trace_ref(vm::Process* p, vm::TraceSession* session, vm::Tracer tracer, std::uint32_t flags);
// The flags and tracer of [session] on [p] (flags 0 when untraced), under p->lock.
vm::TracerRef process_trace_ref(vm::Process* p, const vm::TraceSession* session);
vm::TracerRef port_trace_ref(vm::Port* port, const vm::TraceSession* session);
// The same, but a dead tracer's flags are removed first (and nothing is reported).
vm::TracerRef live_trace_ref(vm::Vm& vm, vm::Process* p, const vm::TraceSession* session);
vm::TracerRef live_trace_ref(vm::Vm& vm, vm::Port* port, const vm::TraceSession* session);
// process_trace_ref without the lock when one session traces [p] (a sequence-count read),
// for the hot paths (a breakpoint hit).
inline vm::TracerRef own_trace_ref(vm::Process* p, const vm::TraceSession* session);
// Every ref of [p] (a process or a port) that has one of [flags]; [fn(const TracerRef&)] runs
// without p->lock held (events may be delivered from it). Lock-free when one session traces [p].
template <typename Tracee, typename Fn>
void for_each_ref(Tracee* p, std::uint32_t flags, Fn&& fn);
// Drops [session]'s flags on [p]: its tracer is gone (OTP's trace_status -> remove).
void drop_session(vm::Process* p, const vm::TraceSession* session);
void drop_session(vm::Port* port, const vm::TraceSession* session);

// Whether [tracer] can receive events: a live process, or a tracer module whose
// enabled(trace_status, State, [tracee]) does not answer remove. A tracer process never traces
// itself: [tracee]'s events to itself are discarded (OTP's erl_tracer answers discard).
bool tracer_alive(vm::Vm& vm, vm::Tracer tracer, vm::Term tracee = vm::atoms::undefined);
// The term trace_info reports for [tracer]: the pid, {Module, State} (on [p]'s heap), or [].
vm::Term tracer_term(vm::Process* p, vm::Tracer tracer);

// [child] inherits from [parent] (set_on_spawn, set_on_first_spawn) and gets the sessions'
// new-process flags. [parent] may be null.
void inherit_on_spawn(vm::Process* parent, vm::Process* child);
// A new port gets the sessions' new-port flags.
void inherit_on_open(vm::Port* port);
// [linked] inherits from [linker] (set_on_link, set_on_first_link). [by_link_bif]: through
// link/1, which passes flags in sessions but not in the legacy session (as OTP 25).
std::vector<vm::TracerRef> inherit_on_link(vm::Process* linker, vm::Process* linked, bool by_link_bif);
// Gives [linked] the refs a link passed on to it once more (see TracingHooks::process_event)
// and returns, from the same moment, the refs with procs: those its getting_linked goes to.
std::vector<vm::TracerRef> give_inherited(vm::Process* linked, const std::vector<vm::TracerRef>& refs);

// ---- implementation details of for_each_ref ----

namespace detail {
// Copies the refs of [p] with one of [flags] into [out] (under p->lock).
void refs_with(vm::Process* p, std::uint32_t flags, std::vector<vm::TracerRef>* out);
void refs_with(vm::Port* port, std::uint32_t flags, std::vector<vm::TracerRef>* out);
}  // namespace detail

inline vm::TracerRef own_trace_ref(vm::Process* p, const vm::TraceSession* session) {
    std::uint32_t seq = p->trace_seq.load(std::memory_order_acquire);
    if (!(seq & 1)) {
        vm::TraceSession* sole = p->sole_trace_session.load(std::memory_order_relaxed);
        vm::Word tracer = p->sole_tracer.load(std::memory_order_relaxed);
        std::uint32_t flags = p->all_trace_flags.load(std::memory_order_relaxed);
        std::atomic_thread_fence(std::memory_order_acquire);
        if (p->trace_seq.load(std::memory_order_relaxed) == seq && sole) {
            if (sole == session) return vm::TracerRef{sole, vm::Tracer::from_word(tracer), flags};
            return vm::TracerRef{nullptr, vm::Tracer(), 0};
        }
    }
    return process_trace_ref(p, session);
}

template <typename Tracee, typename Fn>
void for_each_ref(Tracee* p, std::uint32_t flags, Fn&& fn) {
    std::uint32_t seq = p->trace_seq.load(std::memory_order_acquire);
    if (!(seq & 1)) {
        vm::TraceSession* sole = p->sole_trace_session.load(std::memory_order_relaxed);
        vm::Word tracer = p->sole_tracer.load(std::memory_order_relaxed);
        std::uint32_t all = p->all_trace_flags.load(std::memory_order_relaxed);
        std::atomic_thread_fence(std::memory_order_acquire);
        if (p->trace_seq.load(std::memory_order_relaxed) == seq && sole) {
            if (all & flags) fn(vm::TracerRef{sole, vm::Tracer::from_word(tracer), all});
            return;
        }
    }
    std::vector<vm::TracerRef> refs;
    detail::refs_with(p, flags, &refs);
    for (const vm::TracerRef& r : refs) fn(r);
}

}  // namespace beamlet::tracing
