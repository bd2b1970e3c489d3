// tracing/hooks.cpp — TracingHooks: vm's trace seam, dispatched to the tracing components.
#include "tracing/hooks.hpp"

#include <algorithm>

#include "tracing/breakpoints.hpp"
#include "tracing/call_stats.hpp"
#include "tracing/call_trace.hpp"
#include "tracing/delivery.hpp"
#include "tracing/events.hpp"
#include "tracing/process_flags.hpp"
#include "tracing/sessions.hpp"
#include "vm/atom_table.hpp"
#include "vm/mailbox.hpp"

namespace beamlet::tracing {

using namespace vm;

Word TracingHooks::function_breakpoint(Process* p, const CodeInfo* ci, Term* x) {
    return tracing::function_breakpoint(m_vm, p, ci, x);
}

const Word* TracingHooks::export_breakpoint(Process* p, Export* e, Term* x) {
    return tracing::export_breakpoint(m_vm, p, e, x);
}

const Word* TracingHooks::trace_frame_returned(Process* p, Term value) {
    return tracing::trace_frame_returned(m_vm, p, value);
}

void TracingHooks::exception_unwinding(Process* p, Term* from, Term* to, const Word* catch_at) {
    tracing::exception_unwinding(m_vm, p, from, to, catch_at);
}

void TracingHooks::schedule_break(Process* p, bool out) { tracing::schedule_break(p, out); }

void TracingHooks::replace_entry_word(const CodeInfo* ci, Word word) { tracing::replace_first_word(ci, word); }

void TracingHooks::native_entry_adopted(const CodeInfo* ci) { tracing::adopt_native_entry(m_vm.services.code_engine, ci); }

void TracingHooks::module_loading(Module& module) {
    for (TraceSession* s : live_sessions()) {
        std::lock_guard guard(s->mutex);
        if (s->on_load.flags) apply_on_load(m_vm.services.code_engine, module, s, s->on_load);
    }
}

namespace {
bool traces_procs(const Process* p) { return p->all_trace_flags.load(std::memory_order_acquire) & TRACE_PROCS; }
}  // namespace

void TracingHooks::process_spawned(Process* parent, Process* child, Term mfa, bool linked) {
    // Everything the child inherits comes first, so that its own first events are traced.
    inherit_on_spawn(parent, child);
    if (linked) inherit_on_link(parent, child, false);
    // OTP reports the child's spawned before the parent's spawn, then the link.
    if (traces_procs(child)) trace_proc(m_vm, child, atoms::spawned, parent ? parent->id : atoms::undefined, mfa);
    if (!parent) return;
    if (traces_procs(parent)) trace_proc(m_vm, parent, atoms::spawn, child->id, mfa);
    if (!linked) return;
    if (traces_procs(parent)) trace_proc(m_vm, parent, atoms::link, child->id);
    if (traces_procs(child)) trace_proc(m_vm, child, atoms::getting_linked, parent->id);
}

void TracingHooks::process_linked(Process* linker, Process* linked) {
    std::vector<TracerRef> refs = inherit_on_link(linker, linked, true);
    if (!refs.empty()) {
        std::lock_guard guard(m_links_lock);
        // Processes that died before handling their link signal: forgotten now and then.
        if (m_pending_links.size() > 4096)
            std::erase_if(m_pending_links, [&](const auto& e) { return !m_vm.lookup_process(e.first); });
        std::vector<TracerRef>& pending = m_pending_links[linked->id];
        for (const TracerRef& r : refs) {
            auto same = std::find_if(pending.begin(), pending.end(), [&](const TracerRef& q) { return q.session == r.session; });
            if (same == pending.end()) pending.push_back(r);
            else same->flags |= r.flags;
        }
    }
    if (traces_procs(linker)) trace_proc(m_vm, linker, atoms::link, linked->id);
}

void TracingHooks::process_unlinked(Process* unlinker, Term other_pid) {
    if (traces_procs(unlinker)) trace_proc(m_vm, unlinker, atoms::unlink, other_pid);
}

void TracingHooks::process_event(Process* p, Term what, Term arg) {
    if (what != atoms::getting_linked) return trace_proc(m_vm, p, what, arg);
    std::vector<TracerRef> refs;
    {
        std::lock_guard guard(m_links_lock);
        auto it = m_pending_links.find(p->id);
        if (it != m_pending_links.end()) {
            refs = std::move(it->second);
            m_pending_links.erase(it);
        }
    }
    trace_proc_to(m_vm, p, give_inherited(p, refs), what, arg);
}

void TracingHooks::message_sent(Process* sender, Term to, Term msg, bool exists) {
    trace_send(m_vm, sender, to, msg, exists);
}

void TracingHooks::message_queued(Process* p, const Message& m) { trace_receive(m_vm, p, m.from, m.term); }

void TracingHooks::receive_timeout(Process* p) { trace_receive_timeout(m_vm, p); }

void TracingHooks::scheduled(Process* p, SchedEvent event) { trace_sched(m_vm, p, event); }

void TracingHooks::drop_dead_tracers(Process* p) {
    // Process and port tracers only: a tracer module is asked when an event is traced.
    std::vector<TracerRef> refs;
    detail::refs_with(p, ~0u, &refs);
    for (const TracerRef& r : refs)
        if (!r.tracer.is_module() && !tracer_alive(m_vm, r.tracer, p->id)) live_trace_ref(m_vm, p, r.session);
}

void TracingHooks::port_opened(Port* port, Term opener, Term driver) {
    inherit_on_open(port);
    if (driver && (port->all_trace_flags.load(std::memory_order_acquire) & TRACE_PORTS))
        trace_port(m_vm, port, atom("open"), opener, driver);
}

void TracingHooks::port_event(Port* port, Term what, Term arg) { trace_port(m_vm, port, what, arg); }

void TracingHooks::port_scheduled(Port* port, Term what, Term command) { trace_port_sched(m_vm, port, what, command); }

void TracingHooks::port_sent(Port* port, Term to, Term msg, bool exists) {
    trace_port_send(m_vm, port, to, msg, exists);
}

void TracingHooks::port_received(Port* port, Term, Term msg) { trace_port_receive(m_vm, port, msg); }

void TracingHooks::seq_trace_event(Term tracer, Term token, Term kind, Term from, Term to, Term msg) {
    // A system tracer that is gone is forgotten, as OTP clears it.
    if (!deliver_seq_trace(m_vm, tracer, token, kind, from, to, msg)) {
        Term expected = tracer;
        m_vm.seq_tracer.compare_exchange_strong(expected, 0);
    }
}

void TracingHooks::garbage_collection(Process* p, bool end, bool major, Word words) {
    trace_gc(m_vm, p, end, major, words);
}

}  // namespace beamlet::tracing
