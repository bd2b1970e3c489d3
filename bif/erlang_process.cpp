// bif/erlang_process.cpp — a process's own state and names: process_flag/2, register/2,
// unregister/1, whereis/1, registered/0, processes/0, is_process_alive/1, group_leader/0,2,
// yield/0, send/3, hibernate/3, suspend_process/1,2 and resume_process/1, system_monitor/0,1,2.
#include <cctype>
#include <algorithm>

#include "bif/bifs.hpp"
#include "dist/distribution.hpp"
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
#include "vm/node.hpp"
#include "vm/scheduler.hpp"
#include "vm/seq_trace.hpp"
#include "vm/term_order.hpp"
#include "vm/timer_service.hpp"
#include "vm/trace_hooks.hpp"

namespace beamlet::bif {

using namespace vm;

Term bif_process_flag(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_trap_exit, "trap_exit");
    if (a[0] == am_trap_exit) {
        if (a[1] != atoms::true_ && a[1] != atoms::false_) return p->badarg();
        std::lock_guard guard(p->lock);
        Term old = make_bool(p->trap_exit);
        p->trap_exit = a[1] == atoms::true_;
        return old;
    }
    if (a[0] == atom("max_heap_size")) {
        MaxHeapSize limit;
        if (!parse_max_heap_size(a[1], p->max_heap, &limit)) return p->badarg();
        Term old = max_heap_size_term(p, p->max_heap);
        p->max_heap = limit;
        p->max_heap_over = false;
        return old;
    }
    // Heap tuning: min_heap_size is rounded up to a heap size, as OTP does.
    BEAMLET_CACHED_ATOM(am_min_heap_size, "min_heap_size");
    BEAMLET_CACHED_ATOM(am_min_bin_vheap_size, "min_bin_vheap_size");
    BEAMLET_CACHED_ATOM(am_fullsweep_after, "fullsweep_after");
    if (a[0] == am_min_heap_size || a[0] == am_min_bin_vheap_size || a[0] == am_fullsweep_after) {
        if (!is_small(a[1]) || small_value(a[1]) < 0) return p->badarg();
        Word n = Word(small_value(a[1]));
        Word* field = a[0] == am_min_heap_size ? &p->min_heap_words
                      : a[0] == am_fullsweep_after ? &p->fullsweep_after
                                                   : &p->min_bin_vheap_size;
        Term old = make_small(SWord(*field));
        *field = a[0] == am_min_heap_size ? std::max(next_heap_size_words(n), MIN_HEAP_SIZE_WORDS) : n;
        return old;
    }
    // priority: the run queue the process goes in from its next schedule on.
    if (a[0] == atom("priority")) {
        std::optional<Priority> prio = priority_of(a[1]);
        if (!prio) return p->badarg();
        return priority_atom(p->priority.exchange(*prio, std::memory_order_relaxed));
    }
    // Flags whose values are kept (and reported back) without changing how the process runs.
    struct Kept {
        const char* name;
        const char* initial;  // an atom, or digits for an integer
        bool (*valid)(Term);
    };
    static const Kept kept[] = {
        {"message_queue_data", "on_heap", [](Term v) { return v == atom("on_heap") || v == atom("off_heap"); }},
        {"sensitive", "false", [](Term v) { return v == atoms::true_ || v == atoms::false_; }},
        {"save_calls", "0", [](Term v) { return is_small(v) && small_value(v) >= 0 && small_value(v) <= 10000; }},
        {"error_handler", "error_handler", [](Term v) { return is_atom(v); }},
        {"async_dist", "false", [](Term v) { return v == atoms::true_ || v == atoms::false_; }},
        // scheduler binding (0: unbound): every scheduler runs any process here.
        {"scheduler", "0", [](Term v) { return is_small(v) && small_value(v) >= 0 && small_value(v) <= 1024; }},
    };
    // monitor_nodes (and {monitor_nodes, Options}): the distribution's subscriptions
    // (net_kernel:monitor_nodes/1,2), the count before the change returned.
    static const Term am_monitor_nodes = atom("monitor_nodes");
    if (a[0] == am_monitor_nodes || (is_tuple(a[0]) && tuple_arity(a[0]) == 2 && tuple_element(a[0], 0) == am_monitor_nodes &&
                                     (is_map(tuple_element(a[0], 1)) || is_list(tuple_element(a[0], 1))))) {
        if (a[1] != atoms::true_ && a[1] != atoms::false_) return p->badarg();
        dist::Distribution* d = dist::of(p->vm);
        if (!d) return make_small(0);
        Term options = is_tuple(a[0]) ? tuple_element(a[0], 1) : 0;
        if (options && is_list(options)) return p->badarg();  // net_kernel passes a map
        std::int64_t count = d->monitor_nodes(p, options, a[1] == atoms::true_);
        return count < 0 ? p->badarg() : make_small(count);
    }
    if (is_atom(a[0])) {
        const std::string& name = atom_text(a[0]);
        for (const Kept& k : kept) {
            if (name != k.name) continue;
            if (!k.valid(a[1])) return p->badarg();
            Term old = std::isdigit(static_cast<unsigned char>(k.initial[0])) ? make_small(std::atol(k.initial)) : atom(k.initial);
            for (auto& [f, v] : p->kept_flags)
                if (f == a[0]) {
                    old = v;
                    v = a[1];
                    return old;
                }
            // Stored values are immediates or kept alive by the flag list's copy on the heap:
            // only immediates are accepted for storage; a map (max_heap_size) is reported as 0.
            p->kept_flags.emplace_back(a[0], is_map(a[1]) ? make_small(0) : a[1]);
            return old;
        }
    }
    return p->badarg();
}

// erts_internal:process_flag(Pid, save_calls, N), under erlang:process_flag/3: the only flag
// that can be set on another process, on that process's own thread (answer_info_request);
// the atom badarg (erlang.erl raises it) for anything else or a dead process.
Term bif_erts_internal_process_flag(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_save_calls, "save_calls");
    BEAMLET_CACHED_ATOM(am_set_save_calls, "$save_calls");
    if (!is_pid(a[0]) || a[1] != am_save_calls || !is_small(a[2]) || small_value(a[2]) < 0 || small_value(a[2]) > 10000)
        return atoms::badarg;
    if (a[0] == p->id) {
        Term args[2] = {a[1], a[2]};
        return bif_process_flag(p, args);
    }
    return request_process_info(p, a, a[0], make_tuple_on(p, {am_set_save_calls, a[2]}), atoms::badarg);
}

Term bif_register(Process* p, Term* a) {
    if (!is_atom(a[0]) || a[0] == atoms::undefined) return p->badarg();
    if (is_port(a[1])) {
        std::shared_ptr<Port> port = p->vm.port_table->lookup(a[1]);
        if (!port || !p->vm.register_name(a[0], port.get())) return p->badarg();
        return atoms::true_;
    }
    std::shared_ptr<Process> target = is_pid(a[1]) ? p->vm.lookup_process(a[1]) : nullptr;
    if (!target || !p->vm.register_name(a[0], target.get())) return p->badarg();
    return atoms::true_;
}

Term bif_unregister(Process* p, Term* a) {
    if (!is_atom(a[0]) || !p->vm.unregister_name(a[0])) return p->badarg();
    return atoms::true_;
}

Term bif_whereis(Process* p, Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    Term id = p->vm.whereis_id(a[0]);
    return id ? id : atoms::undefined;
}

Term bif_registered(Process* p, Term*) {
    Term l = NIL;
    for (Term name : p->vm.registered_names()) l = make_cons_on(p->alloc(2), name, l);
    return l;
}

Term bif_is_process_alive(Process* p, Term* a) {
    if (!is_pid(a[0])) return p->badarg();
    if (a[0] == p->id) return atoms::true_;
    std::shared_ptr<Process> target = p->vm.lookup_process(a[0]);
    if (!target) return atoms::false_;
    {
        std::lock_guard guard(target->lock);
        if (target->exiting) return atoms::false_;
        if (target->inbox.empty() && !target->signals_in_hand && !target->exit_decided) return atoms::true_;
    }
    // Signals not yet handled (an exit signal this process sent, say), or handled but not yet
    // acted on: the answer comes after them, as OTP orders an is_process_alive request behind
    // the caller's earlier signals.
    BEAMLET_CACHED_ATOM(am_is_alive, "$is_alive");
    return request_process_info(p, a, a[0], am_is_alive, atoms::false_);
}

namespace {
Term pid_list(Process* p, const std::vector<Term>& ids) {
    Term l = NIL;
    for (auto it = ids.rbegin(); it != ids.rend(); ++it) l = make_cons_on(p->alloc(2), *it, l);
    return l;
}

// OTP's processes/0 costs (erl 25's processes_bif_info): 40 reductions to start, 40 for each
// chunk of 1000 process table slots; the table has 263 chunks (262144 slots).
constexpr SWord PTAB_START_REDS = 40, PTAB_CHUNK_REDS = 40, PTAB_CHUNK_SLOTS = 1000, PTAB_CHUNKS = 263;

// A processes/0 call that trapped: the processes alive at the call, and the table chunks
// still to go over, a time slice's worth each time the caller runs.
struct PtabList {
    std::vector<Term> ids;
    SWord chunks_left = PTAB_CHUNKS;  // 100 a slice: 263 take three slices
};

Term ptab_list_continue(Process* p, std::shared_ptr<PtabList> list) {
    SWord chunks = std::min(list->chunks_left, SWord(CONTEXT_REDS) / PTAB_CHUNK_REDS);
    list->chunks_left -= chunks;
    if (list->chunks_left == 0) {
        p->slice_reds -= chunks * PTAB_CHUNK_REDS;
        return pid_list(p, list->ids);
    }
    return trap_yield(p, p->vm.exports.get(atoms::erlang, atom("ptab_list_continue"), 2),
                      [list](Process* q, Term*) { return ptab_list_continue(q, list); });
}
}  // namespace

// erlang:processes/0: the processes alive at the call. As OTP's: a caller with the
// reductions for the start and the used part of the table gets the list at once; otherwise
// it is scheduled out and goes over the whole table a slice at a time, in
// erlang:ptab_list_continue/2 (what process_info and trace's running events show meanwhile).
Term bif_processes(Process* p, Term*) {
    std::vector<Term> ids = p->vm.process_ids();
    std::sort(ids.begin(), ids.end());
    SWord used_chunks = (SWord(ids.size()) + PTAB_CHUNK_SLOTS - 1) / PTAB_CHUNK_SLOTS;
    SWord cost = PTAB_START_REDS + PTAB_CHUNK_REDS * used_chunks;
    if (p->slice_reds >= cost) {
        p->slice_reds -= cost;
        return pid_list(p, ids);
    }
    auto list = std::make_shared<PtabList>();
    list->ids = std::move(ids);
    return trap_yield(p, p->vm.exports.get(atoms::erlang, atom("ptab_list_continue"), 2),
                      [list](Process* q, Term*) { return ptab_list_continue(q, list); });
}

Term bif_yield(Process* p, Term*) {
    p->yield_requested = true;
    return atoms::true_;
}

Term bif_group_leader(Process* p, Term*) {
    Term gl = p->group_leader.load(std::memory_order_relaxed);
    return gl ? gl : p->id;
}

// group_leader(Leader, Pid): Pid's I/O goes to Leader from now on.
namespace {
// Whether [p] is bound to die by a signal already sent to it (an exit signal it does not trap,
// or a kill): a later signal finds it gone. Under [p]'s lock.
bool dies_before_later_signals(const Process& p) {
    if (p.exiting || p.exit_decided || p.kill_pending || p.state == ProcessState::Exited) return true;
    return std::any_of(p.inbox.begin(), p.inbox.end(), [&](const Message& m) {
        return m.kind == SignalKind::Exit && (m.term == atoms::kill ? !m.linked : !p.trap_exit && m.term != atoms::normal);
    });
}
}  // namespace

// As erts, a local change reaches Pid in signal order, after what the caller sent it before:
// a process an exit signal has doomed answers badarg.
Term bif_group_leader2(Process* p, Term* a) {
    if (!is_any_pid(a[0]) || !is_any_pid(a[1])) return p->badarg();
    // Another node's leader is held as a stable copy (vm/node.hpp); another node's process
    // gets its leader over the connection.
    Term leader = is_external_pid(a[0]) ? stable_external(a[0]) : a[0];
    if (is_external_pid(a[1])) {
        if (!p->vm.services.dist || external_node(a[1]) == this_node().name) return p->badarg();
        p->vm.services.dist->group_leader(p->id, leader, a[1]);
        return atoms::true_;
    }
    auto target = p->vm.lookup_process(a[1]);
    if (!target) return p->badarg();
    if (target.get() != p) {
        std::lock_guard guard(target->lock);
        if (dies_before_later_signals(*target)) return p->badarg();
    }
    target->group_leader.store(leader, std::memory_order_relaxed);
    return atoms::true_;
}

Term bif_send3(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_nosuspend, "nosuspend");
    BEAMLET_CACHED_ATOM(am_noconnect, "noconnect");
    bool nosuspend = false, noconnect = false;
    Term l = a[2];
    for (; is_list(l); l = cdr(l)) {
        if (car(l) == am_nosuspend) nosuspend = true;
        else if (car(l) == am_noconnect) noconnect = true;
        else return p->badarg();
    }
    if (!is_nil(l)) return p->badarg();
    // Another node's process, alias or name needs a connection: with noconnect, one that is
    // not there (up or being set up) is not made, and the answer is noconnect.
    bool remote = is_external_pid(a[0]) || is_external_ref(a[0]) ||
                  (is_tuple(a[0]) && tuple_arity(a[0]) == 2 && is_atom(tuple_element(a[0], 0)) &&
                   is_atom(tuple_element(a[0], 1)) && tuple_element(a[0], 1) != this_node().name);
    if (remote && noconnect) {
        Term node = is_tuple(a[0]) ? tuple_element(a[0], 1) : external_node(a[0]);
        dist::Distribution* d = dist::of(p->vm);
        // A connection being set up takes the message (OTP queues it there).
        if (!d || d->connection_id(node) < 0) return am_noconnect;
    }
    switch (p->vm.send(p, a[0], a[1], nosuspend)) {
    case Vm::SendResult::Badarg: return p->badarg();
    case Vm::SendResult::NoSuspend: return am_nosuspend;
    case Vm::SendResult::Suspend: return wait_for_busy_port(p, atoms::ok);
    case Vm::SendResult::Sent: break;
    }
    return atoms::ok;
}

// erlang:hibernate(M, F, A): the stack is discarded and the process waits for a message, then
// calls M:F(A) (returning from it ends the process).
// Asleep, the process keeps only what it needs to wake (the heap shrinks to its live data).
Term bif_hibernate(Process* p, Term* a) {
    if (!is_atom(a[0]) || !is_atom(a[1]) || !is_proper_list(a[2])) return p->badarg();
    Word arity = 0;
    for (Term l = a[2]; is_list(l); l = cdr(l)) ++arity;
    if (arity > 1024) return p->error(atoms::system_limit);  // OTP 25: more than 1024 arguments
    // One frame [no return address][M][F][A] stays, for beamlet:hibernate_wake/0.
    p->stop = p->hend - 4;
    p->stop[0] = 0;
    std::copy(a, a + 3, p->stop + 1);
    garbage_collect_hibernate(p, a, 0);
    p->discard_stack = true;
    p->ip = hibernate_code(p->vm);
    p->exception = PendingException{};
    return THE_NON_VALUE;
}

// The end of a hibernation: apply(M, F, A) from hibernate's frame, on an empty stack.
Term bif_beamlet_hibernate_wake(Process* p, Term* x) {
    std::copy(p->stop + 1, p->stop + 4, x);
    ensure_heap_block(p, x, 3, p->min_heap_words);
    p->stop = p->hend;
    p->discard_stack = true;
    p->ip = p->vm.exports.get(atoms::erlang, atoms::apply, 3)->address();
    p->exception = PendingException{};
    return THE_NON_VALUE;
}

// ---- suspend_process / resume_process ------------------------------------------------------

namespace {
// A synchronous suspend_process returns once the suspension is in effect, as OTP's: one
// running on another scheduler finishes its time slice first (it is parked when it is next
// scheduled), so the caller yields until then, and answers [result].
Term await_off_scheduler(Process* p, std::shared_ptr<Process> target, Term result) {
    {
        std::lock_guard guard(target->lock);
        auto& v = target->suspenders;
        auto it = std::find_if(v.begin(), v.end(), [&](const auto& s) { return s.by == p->id; });
        if (it == v.end() || it->active || target->state == ProcessState::Exited) return result;
    }
    p->continuation = [target = std::move(target), result](Process* q, Term*) mutable {
        return await_off_scheduler(q, std::move(target), result);
    };
    p->suspend_for = SuspendFor::Nothing;
    p->exception = PendingException{};
    return THE_NON_VALUE;
}
}  // namespace

// erlang:suspend_process(Pid, Opts): Opts are asynchronous, {asynchronous, ReplyTag} and
// unless_suspending. The suspension is recorded at once; the target's scheduler parks it
// when it next looks, and then the asynchronous reply is sent (Vm::suspend).
Term bif_suspend_process2(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_asynchronous, "asynchronous");
    BEAMLET_CACHED_ATOM(am_unless_suspending, "unless_suspending");
    bool asynchronous = false, unless_suspending = false;
    Term reply_tag = 0;
    Term l = a[1];
    for (; is_list(l); l = cdr(l)) {
        Term o = car(l);
        if (o == am_asynchronous) {
            asynchronous = true;
        } else if (o == am_unless_suspending) {
            unless_suspending = true;
        } else if (is_tuple(o) && tuple_arity(o) == 2 && tuple_element(o, 0) == am_asynchronous) {
            asynchronous = true;
            reply_tag = tuple_element(o, 1);
        } else {
            return p->badarg(atom("badopt"));
        }
    }
    if (!is_nil(l)) return p->badarg(atom("badopt"));
    if (!is_pid(a[0]) || a[0] == p->id) return p->badarg();
    std::shared_ptr<Process> target = p->vm.lookup_process(a[0]);
    if (!target) {
        if (!asynchronous) return p->badarg();
        if (reply_tag) p->vm.send_message(nullptr, p->id, make_tuple_on(p, {reply_tag, atoms::badarg}));
        return atoms::true_;
    }
    bool already = unless_suspending &&
                   std::find(p->suspending.begin(), p->suspending.end(), a[0]) != p->suspending.end() && [&] {
                       std::lock_guard guard(target->lock);
                       for (const auto& e : target->suspenders)
                           if (e.by == p->id) return true;
                       return false;
                   }();
    p->vm.suspend(p, target.get(), !already, reply_tag);
    if (asynchronous) return make_bool(!already);
    return await_off_scheduler(p, std::move(target), make_bool(!already));
}

Term bif_suspend_process1(Process* p, Term* a) {
    Term args[2] = {a[0], NIL};
    return bif_suspend_process2(p, args);
}

Term bif_resume_process1(Process* p, Term* a) {
    if (!is_pid(a[0])) return p->badarg();
    std::shared_ptr<Process> target = p->vm.lookup_process(a[0]);
    if (!target || !p->vm.unsuspend(p->id, target.get())) return p->badarg();
    return atoms::true_;
}

// ---- system_monitor -------------------------------------------------------------------------

namespace {

// The current setting, {Pid, Options} in OTP's order, or undefined.
Term system_monitor_setting(Process* p) {
    std::optional<SystemMonitors::Entry> m = p->vm.system_monitors.get(SystemMonitors::LEGACY);
    if (!m) return atoms::undefined;
    std::vector<Term> opts;
    if (m->limits.busy_dist_port) opts.push_back(atom("busy_dist_port"));
    if (m->limits.busy_port) opts.push_back(atom("busy_port"));
    auto limit = [&](const char* name, std::uint64_t v) {
        if (v) opts.push_back(make_tuple_on(p, {atom(name), make_integer(p, std::int64_t(v))}));
    };
    limit("large_heap", m->limits.large_heap_words);
    limit("long_schedule", m->limits.long_schedule_ms);
    limit("long_gc", m->limits.long_gc_ms);
    Term list = NIL;
    for (auto it = opts.rbegin(); it != opts.rend(); ++it) list = make_cons_on(p->alloc(2), *it, list);
    return make_tuple_on(p, {m->receiver, list});
}

// Sets the monitor to [pid] with [opts] (no options: off); the old setting, or badarg.
// OTP 25's options: long_message_queue came with OTP 27 (and is a session's here:
// trace:system/3).
Term set_system_monitor(Process* p, Term pid, Term opts) {
    // As OTP: undefined or [] switches monitoring off, whatever the other argument; otherwise
    // the monitor must be a live local process.
    if (pid == atoms::undefined || is_nil(opts)) {
        Term old = system_monitor_setting(p);
        p->vm.system_monitors.remove(SystemMonitors::LEGACY);
        return old;
    }
    if (!is_list(opts) || !is_pid(pid) || !p->vm.lookup_process(pid)) return p->badarg();
    if (!is_proper_list(opts)) return p->badarg();
    MonitorLimits limits;
    for (Term l = opts; is_list(l); l = cdr(l)) {
        Term o = car(l);
        if (o == atom("busy_port")) {
            limits.busy_port = true;
        } else if (o == atom("busy_dist_port")) {
            limits.busy_dist_port = true;
        } else if (is_tuple(o) && tuple_arity(o) == 2 && is_small(tuple_element(o, 1)) && small_value(tuple_element(o, 1)) >= 0) {
            auto v = std::max<std::uint64_t>(std::uint64_t(small_value(tuple_element(o, 1))), 1);
            Term k = tuple_element(o, 0);
            if (k == atom("long_gc")) limits.long_gc_ms = v;
            else if (k == atom("long_schedule")) limits.long_schedule_ms = v;
            else if (k == atom("large_heap")) limits.large_heap_words = std::max<std::uint64_t>(v, MIN_LARGE_HEAP_WORDS);
            else return p->badarg();
        } else {
            return p->badarg();
        }
    }
    Term old = system_monitor_setting(p);
    if (limits.any()) p->vm.system_monitors.set(SystemMonitors::LEGACY, pid, limits);
    else p->vm.system_monitors.remove(SystemMonitors::LEGACY);
    return old;
}

}  // namespace

Term bif_system_monitor0(Process* p, Term*) { return system_monitor_setting(p); }

Term bif_system_monitor1(Process* p, Term* a) {
    if (a[0] == atoms::undefined) return set_system_monitor(p, atoms::undefined, NIL);
    if (is_tuple(a[0]) && tuple_arity(a[0]) == 2) return set_system_monitor(p, tuple_element(a[0], 0), tuple_element(a[0], 1));
    return p->badarg();
}

Term bif_system_monitor2(Process* p, Term* a) { return set_system_monitor(p, a[0], a[1]); }

}  // namespace beamlet::bif
