// bif/erlang_links.cpp — link/1, unlink/1 (processes and ports) and exit/2.
#include <cctype>
#include <algorithm>

#include "bif/bifs.hpp"
#include "vm/node.hpp"
#include "bif/process_bifs.hpp"
#include "vm/port.hpp"
#include "vm/port_table.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/copy.hpp"
#include "vm/entry_code.hpp"
#include "vm/interpreter.hpp"
#include "vm/stack_trace.hpp"
#include "vm/map.hpp"
#include "vm/scheduler.hpp"
#include "vm/seq_trace.hpp"
#include "vm/term_order.hpp"
#include "vm/timer_service.hpp"
#include "vm/trace_hooks.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

// The procs event of the process calling link/1 or unlink/1: it gets one for every call,
// even when nothing changes (OTP); the other side's events need a real change.
void trace_own_link_event(Process* p, Term what, Term pid) {
    if ((p->all_trace_flags.load(std::memory_order_relaxed) & TRACE_PROCS) && p->vm.services.trace)
        p->vm.services.trace->process_event(p, what, pid);
}
}  // namespace

namespace {

// link/1 on a port: both halves, the port's through its link operation (getting_linked).
Term link_port(Process* p, Term id) {
    std::shared_ptr<Port> port = p->vm.port_table->lookup(id);
    bool already;
    {
        std::lock_guard guard(p->lock);
        already = std::find(p->links.begin(), p->links.end(), id) != p->links.end();
    }
    // Already linked: only the caller's event (the port runs no link operation).
    if (already && port) {
        trace_own_link_event(p, atoms::link, id);
        return atoms::true_;
    }
    if (!port || port->link(p->id) != PortOpResult::Done) {
        // A closed port: trapping callers get {'EXIT', Port, noproc}; others fail with noproc.
        if (!p->trap_exit) return p->error(atoms::noproc);
        Message m;
        m.kind = SignalKind::Exit;
        m.from = id;
        m.term = atoms::noproc;
        m.fragment = nullptr;
        p->vm.send_signal(p, m);
        return atoms::true_;
    }
    if (!already) {
        std::lock_guard guard(p->lock);
        p->links.push_back(id);
    }
    trace_own_link_event(p, atoms::link, id);
    return atoms::true_;
}
}  // namespace

Term bif_link(Process* p, Term* a) {
    Term pid = a[0];
    if (is_port(pid)) return link_port(p, pid);
    if (is_external_pid(pid)) {
        // Another node's process: no connection to it can be made until this node is
        // distributed, so the link breaks at once with noconnection (OTP). One of an earlier
        // incarnation of this node is a dead process (below).
        if (external_node(pid) == this_node().name) {
            if (!p->trap_exit) return p->error(atoms::noproc);
            p->vm.send_exit(pid, p->id, atoms::noproc, false);
            return atoms::true_;
        }
        Term remote = stable_external(pid);
        bool already;
        {
            std::lock_guard guard(p->lock);
            already = std::find(p->links.begin(), p->links.end(), remote) != p->links.end();
            if (!already) p->links.push_back(remote);
        }
        if (!already) {
            if (!p->vm.services.dist || !p->vm.services.dist->link(p, remote)) {
                // No connection can be made: the link breaks at once with noconnection.
                {
                    std::lock_guard guard(p->lock);
                    std::erase(p->links, remote);
                }
                p->vm.send_exit(remote, p->id, atoms::noconnection, false);
                return atoms::true_;
            }
        }
        trace_own_link_event(p, atoms::link, pid);
        return atoms::true_;
    }
    if (!is_pid(pid)) return p->badarg();
    bool already = pid == p->id;
    if (!already) {
        std::lock_guard guard(p->lock);
        already = std::find(p->links.begin(), p->links.end(), pid) != p->links.end();
    }
    if (already) {
        trace_own_link_event(p, atoms::link, pid);
        return atoms::true_;
    }
    std::shared_ptr<Process> other = p->vm.lookup_process(pid);
    bool linked = false;
    if (other) {
        std::lock_guard guard(other->lock);
        if (!other->exiting) {
            other->links.push_back(p->id);
            linked = true;
        }
    }
    if (!linked) {
        // A dead process: trapping callers get {'EXIT', Pid, noproc}; others fail with noproc.
        if (!p->trap_exit) return p->error(atoms::noproc);
        p->vm.send_exit(pid, p->id, atoms::noproc, false);
        return atoms::true_;
    }
    {
        std::lock_guard guard(p->lock);
        p->links.push_back(pid);
    }
    constexpr std::uint32_t link_flags = TRACE_PROCS | TRACE_SOL | TRACE_SOL1;
    if (((p->all_trace_flags.load(std::memory_order_relaxed) | other->all_trace_flags.load(std::memory_order_relaxed)) &
         link_flags) && p->vm.services.trace) {
        p->vm.services.trace->process_linked(p, other.get());  // set_on_link first: it may trace [other]
        p->vm.send_link_event(p->id, other.get(), true);
    }
    return atoms::true_;
}

Term bif_unlink(Process* p, Term* a) {
    Term pid = a[0];
    if (is_port(pid)) {
        {
            std::lock_guard guard(p->lock);
            auto it = std::find(p->links.begin(), p->links.end(), pid);
            if (it != p->links.end()) p->links.erase(it);
        }
        if (std::shared_ptr<Port> port = p->vm.port_table->lookup(pid)) port->unlink(p->id);
        trace_own_link_event(p, atoms::unlink, pid);
        return atoms::true_;
    }
    if (is_external_pid(pid)) {
        Term remote = stable_external(pid);
        bool had_link;
        {
            std::lock_guard guard(p->lock);
            had_link = std::erase(p->links, remote) != 0;
        }
        if (had_link && p->vm.services.dist) p->vm.services.dist->unlink(p, remote);
        trace_own_link_event(p, atoms::unlink, pid);
        return atoms::true_;
    }
    if (!is_pid(pid)) return p->badarg();
    bool had_link = false;
    {
        std::lock_guard guard(p->lock);
        auto it = std::find(p->links.begin(), p->links.end(), pid);
        if (it != p->links.end()) {
            p->links.erase(it);
            had_link = true;
        }
    }
    std::shared_ptr<Process> other = p->vm.lookup_process(pid);
    if (other) {
        std::lock_guard guard(other->lock);
        auto it = std::find(other->links.begin(), other->links.end(), p->id);
        if (it != other->links.end()) other->links.erase(it);
    }
    if ((p->all_trace_flags.load(std::memory_order_relaxed) & TRACE_PROCS) && p->vm.services.trace)
        p->vm.services.trace->process_unlinked(p, pid);
    if (other && had_link) p->vm.send_link_event(p->id, other.get(), false);
    // A trapped exit from the old link that is already queued stays, as in OTP's unlink/1 docs.
    return atoms::true_;
}

Term bif_exit2(Process* p, Term* a) {
    Term pid = a[0], reason = a[1];
    if (is_port(pid)) {
        p->vm.send_exit(p->id, pid, reason, false);
        return atoms::true_;
    }
    if (is_external_pid(pid)) {  // over the connection (none can be made: the signal is lost)
        p->vm.send_exit(p->id, pid, reason, false);
        return atoms::true_;
    }
    if (!is_pid(pid)) return p->badarg();
    if (pid == p->id) {
        // To oneself: kill is final at once; a trapped signal becomes a message; otherwise the
        // process exits (even with normal) when the signal is handled, i.e. right away.
        if (reason == atoms::kill) {
            p->pending_exit = atoms::killed;
            p->yield_requested = true;
            return atoms::true_;
        }
        if (!p->trap_exit) {
            p->pending_exit = reason;
            p->yield_requested = true;
            return atoms::true_;
        }
    }
    p->vm.send_exit(p->id, pid, reason, false);
    return atoms::true_;
}

}  // namespace beamlet::bif
