// bif/erlang_process.cpp — spawn, links, monitors, exit/2, registry, process_info and timers.
#include <cctype>
#include <algorithm>

#include "bif/bifs.hpp"
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


Term make_ref_term(Process* p, const Word id[3]) {
    Term* hp = p->alloc(REF_WORDS);
    hp[0] = make_header(REF_WORDS - 1, Subtag::Ref);
    hp[1] = id[0];
    hp[2] = id[1];
    hp[3] = id[2];
    return make_boxed(hp);
}

void new_ref_id(Process* p, Word id[3]) {
    Word n = p->vm.next_ref.fetch_add(1, std::memory_order_relaxed) + 1;
    id[0] = n & 0x3FFFF;
    id[1] = n >> 18;
    id[2] = 0;
}

bool ref_id_of(Term ref, Word id[3]) {
    if (!is_ref(ref)) return false;
    const Term* obj = boxed_ptr(ref);
    id[0] = obj[1];
    id[1] = obj[2];
    id[2] = obj[3];
    return true;
}

bool is_proper_list(Term l) {
    while (is_list(l)) l = cdr(l);
    return is_nil(l);
}

// Spawns with [opts]; returns the pid, or {Pid, Ref} with a monitor.
Term do_spawn(Process* p, const Export* entry, Term fun, Term args, const Vm::SpawnOptions& opts) {
    Word ref_id[3];
    auto child = p->vm.spawn(p, entry, fun, args, opts, ref_id);
    if (!opts.monitor) return child->id;
    return make_tuple_on(p, {child->id, make_ref_term(p, ref_id)});
}

bool is_fun0(Term fun) {
    if (!is_fun(fun)) return false;
    Word arity = is_local_fun(fun) ? reinterpret_cast<const FunEntry*>(boxed_ptr(fun)[1])->user_arity()
                                   : reinterpret_cast<const Export*>(boxed_ptr(fun)[1])->arity;
    return arity == 0;
}

bool is_mfa_call(Term m, Term f, Term args) { return is_atom(m) && is_atom(f) && is_proper_list(args); }

Term spawn_fun(Process* p, Term fun, const Vm::SpawnOptions& opts) {
    if (!is_fun0(fun)) return p->badarg();
    return do_spawn(p, nullptr, fun, NIL, opts);
}

Term spawn_mfa(Process* p, Term m, Term f, Term args, const Vm::SpawnOptions& opts) {
    if (!is_mfa_call(m, f, args)) return p->badarg();
    Word n = 0;
    for (Term l = args; is_list(l); l = cdr(l)) ++n;
    return do_spawn(p, p->vm.exports.get(m, f, n), NIL, args, opts);
}

Vm::SpawnOptions spawn_options(bool link, bool monitor) {
    Vm::SpawnOptions o;
    o.link = link;
    o.monitor = monitor;
    return o;
}

// spawn_request's own options, beyond spawn_opt's.
struct RequestOptions {
    Term reply_tag = atoms::spawn_reply;
    bool reply_success = true, reply_error = true;
};

}  // namespace

bool parse_max_heap_size(Term value, const MaxHeapSize& current, MaxHeapSize* out) {
    constexpr SWord MIN_HEAP_SIZE = 233;  // OTP's minimum heap size, in words
    auto valid_size = [](Term v) {
        return is_small(v) && (small_value(v) == 0 || small_value(v) >= MIN_HEAP_SIZE);
    };
    *out = current;
    if (is_small(value)) {
        if (!valid_size(value)) return false;
        out->size = Word(small_value(value));
        return true;
    }
    if (!is_map(value)) return false;
    BEAMLET_CACHED_ATOM(am_size, "size");
    BEAMLET_CACHED_ATOM(am_kill, "kill");
    BEAMLET_CACHED_ATOM(am_error_logger, "error_logger");
    const Term* size = map_lookup(value, am_size);
    if (!size || !valid_size(*size)) return false;
    out->size = Word(small_value(*size));
    Word known = 1;
    for (auto [key, flag] : {std::pair{am_kill, &out->kill}, std::pair{am_error_logger, &out->error_logger}}) {
        const Term* v = map_lookup(value, key);
        if (!v) continue;
        if (*v != atoms::true_ && *v != atoms::false_) return false;
        *flag = *v == atoms::true_;
        ++known;
    }
    return map_size(value) == known;  // no other keys
}

Term max_heap_size_term(Process* p, const MaxHeapSize& limit) {
    return map_from_pairs(p, {{atom("error_logger"), make_bool(limit.error_logger)},
                              {atom("kill"), make_bool(limit.kill)},
                              {atom("size"), make_small(SWord(limit.size))}});
}

namespace {

enum class OptsError { None, NotAList, BadOption };

// spawn_opt options: link, monitor, {monitor, MonitorOpts}, {fullsweep_after, N}; other
// tuning options are accepted and ignored ({priority, _}, {min_heap_size, _}, ...).
// spawn_request's {reply_tag, T} and {reply, R} go to [request] when it is given.
OptsError parse_spawn_opts(Term opts, Vm::SpawnOptions* out, RequestOptions* request = nullptr) {
    BEAMLET_CACHED_ATOM(am_link, "link");
    BEAMLET_CACHED_ATOM(am_monitor, "monitor");
    BEAMLET_CACHED_ATOM(am_fullsweep_after, "fullsweep_after");
    BEAMLET_CACHED_ATOM(am_max_heap_size, "max_heap_size");
    BEAMLET_CACHED_ATOM(am_reply_tag, "reply_tag");
    BEAMLET_CACHED_ATOM(am_reply, "reply");
    BEAMLET_CACHED_ATOM(am_tag, "tag");
    if (!is_proper_list(opts)) return OptsError::NotAList;
    OptsError result = OptsError::None;
    for (Term l = opts; !is_nil(l); l = cdr(l)) {
        Term o = car(l);
        Term key = is_tuple(o) && tuple_arity(o) == 2 ? tuple_element(o, 0) : 0;
        Term value = key ? tuple_element(o, 1) : 0;
        if (o == am_link) {
            out->link = true;
        } else if (o == am_monitor) {
            out->monitor = true;
        } else if (key == am_monitor && is_proper_list(value)) {
            out->monitor = true;
            for (Term m = value; is_list(m); m = cdr(m)) {
                Term mo = car(m);
                if (is_tuple(mo) && tuple_arity(mo) == 2 && tuple_element(mo, 0) == am_tag)
                    out->monitor_tag = tuple_element(mo, 1);
                else
                    result = OptsError::BadOption;
            }
        } else if (key == am_fullsweep_after) {
            if (!is_small(value) || small_value(value) < 0) result = OptsError::BadOption;
            else out->fullsweep_after = Word(small_value(value));
        } else if (key == am_max_heap_size) {
            MaxHeapSize limit;
            if (!parse_max_heap_size(value, MaxHeapSize{}, &limit)) result = OptsError::BadOption;
            else out->max_heap = limit;
        } else if (request && key == am_reply_tag) {
            request->reply_tag = value;
        } else if (request && key == am_reply) {
            if (value == atoms::yes) *request = {request->reply_tag, true, true};
            else if (value == atoms::no) *request = {request->reply_tag, false, false};
            else if (value == atom("error_only")) *request = {request->reply_tag, false, true};
            else if (value == atom("success_only")) *request = {request->reply_tag, true, false};
            else result = OptsError::BadOption;
        } else if (!key || !is_atom(key) || key == am_monitor || key == am_reply_tag || key == am_reply) {
            result = OptsError::BadOption;
        }
    }
    return result;
}

Term spawn_opt(Process* p, Term fun, Term m, Term f, Term args, Term opts) {
    Vm::SpawnOptions o;
    if (parse_spawn_opts(opts, &o) != OptsError::None) return p->badarg();
    return fun ? spawn_fun(p, fun, o) : spawn_mfa(p, m, f, args, o);
}

// erlang:spawn_request on node [node] (this node or, as OTP when not distributed, none
// reachable): the request id, with the reply and the monitor's 'DOWN' as messages.
Term spawn_request(Process* p, Term node, Term m, Term f, Term args, Term opts) {
    if (!is_atom(node) || !is_mfa_call(m, f, args)) return p->badarg();
    if (!is_proper_list(opts)) return p->badarg(atom("badopt"));
    Word id[3];
    new_ref_id(p, id);
    Term req = make_ref_term(p, id);
    Vm::SpawnOptions o;
    RequestOptions r;
    Term error = 0;
    if (parse_spawn_opts(opts, &o, &r) != OptsError::None) error = atom("badopt");
    else if (node != atoms::nonode_at_nohost) error = atoms::noconnection;
    if (error) {
        if (r.reply_error) p->vm.send_message(p, p->id, make_tuple_on(p, {r.reply_tag, req, atoms::error, error}));
        return req;
    }
    o.request_ref = id;
    if (r.reply_success) o.reply_tag = r.reply_tag;
    Word n = 0;
    for (Term l = args; is_list(l); l = cdr(l)) ++n;
    p->vm.spawn(p, p->vm.exports.get(m, f, n), NIL, args, o);
    return req;
}

// spawn_request's {erlang, apply, [Fun, []]} for a fun.
Term apply_args(Process* p, Term fun) {
    Term* hp = p->alloc(4);
    return make_cons_on(hp, fun, make_cons_on(hp + 2, NIL, NIL));
}

}  // namespace

Term bif_spawn1(Process* p, Term* a) { return spawn_fun(p, a[0], spawn_options(false, false)); }
Term bif_spawn3(Process* p, Term* a) { return spawn_mfa(p, a[0], a[1], a[2], spawn_options(false, false)); }
Term bif_spawn_link1(Process* p, Term* a) { return spawn_fun(p, a[0], spawn_options(true, false)); }
Term bif_spawn_link3(Process* p, Term* a) { return spawn_mfa(p, a[0], a[1], a[2], spawn_options(true, false)); }
Term bif_spawn_monitor1(Process* p, Term* a) { return spawn_fun(p, a[0], spawn_options(false, true)); }
Term bif_spawn_monitor3(Process* p, Term* a) { return spawn_mfa(p, a[0], a[1], a[2], spawn_options(false, true)); }
Term bif_spawn_opt2(Process* p, Term* a) { return spawn_opt(p, a[0], 0, 0, 0, a[1]); }
Term bif_spawn_opt4(Process* p, Term* a) { return spawn_opt(p, 0, a[0], a[1], a[2], a[3]); }

Term bif_spawn_request1(Process* p, Term* a) {
    if (!is_fun0(a[0])) return p->badarg();
    return spawn_request(p, atoms::nonode_at_nohost, atoms::erlang, atoms::apply, apply_args(p, a[0]), NIL);
}
Term bif_spawn_request2(Process* p, Term* a) {  // (Fun, Opts) or (Node, Fun)
    if (is_fun0(a[0])) return spawn_request(p, atoms::nonode_at_nohost, atoms::erlang, atoms::apply, apply_args(p, a[0]), a[1]);
    if (is_fun0(a[1])) return spawn_request(p, a[0], atoms::erlang, atoms::apply, apply_args(p, a[1]), NIL);
    return p->badarg();
}
Term bif_spawn_request3(Process* p, Term* a) {  // (Node, Fun, Opts) or (M, F, A)
    if (is_fun0(a[1])) return spawn_request(p, a[0], atoms::erlang, atoms::apply, apply_args(p, a[1]), a[2]);
    return spawn_request(p, atoms::nonode_at_nohost, a[0], a[1], a[2], NIL);
}
Term bif_spawn_request4(Process* p, Term* a) {  // (Node, M, F, A) or (M, F, A, Opts)
    if (is_atom(a[2])) return spawn_request(p, a[0], a[1], a[2], a[3], NIL);
    return spawn_request(p, atoms::nonode_at_nohost, a[0], a[1], a[2], a[3]);
}
Term bif_spawn_request5(Process* p, Term* a) { return spawn_request(p, a[0], a[1], a[2], a[3], a[4]); }

// A local request's reply is sent as it is made: nothing is ever left to abandon.
Term bif_spawn_request_abandon(Process* p, Term* a) {
    if (!is_ref(a[0])) return p->badarg();
    return atoms::false_;
}

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

namespace {

// monitor/2,3: [alias] and [tag] come from monitor/3's options.
// monitor(port, PortOrName): the port keeps the watcher's entry; a closed port answers with
// an immediate {'DOWN', Ref, port, Item, noproc}.
Term monitor_port(Process* p, Term target, const AliasMode* alias, Term tag) {
    Term name = 0, id = target;
    if (is_atom(target)) {
        name = target;
        id = p->vm.whereis_id(target);
    } else if (is_tuple(target) && tuple_arity(target) == 2 && is_atom(tuple_element(target, 0)) &&
               tuple_element(target, 1) == atoms::nonode_at_nohost) {
        name = tuple_element(target, 0);
        id = p->vm.whereis_id(name);
    } else if (!is_port(target)) {
        return p->badarg();
    }
    Word ref_id[3];
    new_ref_id(p, ref_id);
    if (alias) {
        ref_id[2] = pid_number(p->id);
        std::lock_guard guard(p->lock);
        p->aliases.push_back(ProcessAlias{{ref_id[0], ref_id[1], ref_id[2]}, *alias});
    }
    Term ref = make_ref_term(p, ref_id);
    std::shared_ptr<Port> port = is_port(id) ? p->vm.port_table->lookup(id) : nullptr;
    if (port) {
        std::shared_ptr<HeapFragment> tag_heap;
        Term kept_tag = keep_monitor_tag(tag, &tag_heap);
        MonitorEntry watcher{{ref_id[0], ref_id[1], ref_id[2]}, port->id, name, kept_tag, tag_heap};
        {
            std::lock_guard guard(p->lock);
            p->monitors.add(watcher);
        }
        MonitorEntry watched = watcher;
        watched.other = p->id;
        if (port->add_monitor(watched)) return ref;
        std::lock_guard guard(p->lock);
        p->monitors.take(ref_id);
    }
    Term item = name ? make_tuple_on(p, {name, atoms::nonode_at_nohost}) : target;
    Term msg = make_tuple_on(p, {tag ? tag : atoms::DOWN, ref, atom("port"), item, atoms::noproc});
    p->vm.send_message(nullptr, p->id, msg);
    return ref;
}

Term monitor(Process* p, Term* a, const AliasMode* alias, Term tag) {
    BEAMLET_CACHED_ATOM(am_port, "port");
    if (a[0] == am_port) return monitor_port(p, a[1], alias, tag);
    if (a[0] != atoms::process) return p->badarg();
    Term target = a[1], name = 0;
    std::shared_ptr<Process> other;
    if (is_pid(target)) {
        other = p->vm.lookup_process(target);
    } else if (is_atom(target)) {
        name = target;
        other = p->vm.whereis(target);
    } else if (is_tuple(target) && tuple_arity(target) == 2 && is_atom(tuple_element(target, 0)) &&
               tuple_element(target, 1) == atoms::nonode_at_nohost) {
        name = tuple_element(target, 0);
        other = p->vm.whereis(name);
    } else {
        return p->badarg();
    }
    Word id[3];
    new_ref_id(p, id);
    if (alias) {
        id[2] = pid_number(p->id);
        std::lock_guard guard(p->lock);
        p->aliases.push_back(ProcessAlias{{id[0], id[1], id[2]}, *alias});
    }
    Term ref = make_ref_term(p, id);
    if (other.get() == p) return ref;  // monitoring oneself: the monitor can never fire
    bool added = false;
    if (other) {
        std::shared_ptr<HeapFragment> tag_heap;
        Term kept_tag = keep_monitor_tag(tag, &tag_heap);
        // Ours first: the target's exit delivers 'DOWN' only for a monitor its watcher holds.
        {
            std::lock_guard guard(p->lock);
            p->monitors.add(MonitorEntry{{id[0], id[1], id[2]}, other->id, name, kept_tag, tag_heap});
        }
        {
            std::lock_guard guard(other->lock);
            if (!other->exiting) {
                other->monitored_by.push_back(MonitorEntry{{id[0], id[1], id[2]}, p->id, name, kept_tag, tag_heap});
                added = true;
            }
        }
        if (added) return ref;
        std::lock_guard guard(p->lock);
        p->monitors.take(id);
    }
    // No such process: an immediate {'DOWN', Ref, process, Item, noproc}.
    Term item = name ? make_tuple_on(p, {name, atoms::nonode_at_nohost}) : target;
    Term msg = make_tuple_on(p, {tag ? tag : atoms::DOWN, ref, atoms::process, item, atoms::noproc});
    p->vm.send_message(p, p->id, msg);
    return ref;
}

bool alias_mode(Term t, AliasMode* out) {
    if (t == atom("explicit_unalias")) *out = AliasMode::ExplicitUnalias;
    else if (t == atom("demonitor")) *out = AliasMode::Demonitor;
    else if (t == atom("reply_demonitor")) *out = AliasMode::ReplyDemonitor;
    else return false;
    return true;
}

// Deactivates alias [id] of [p] (with [only_demonitor]: only one made by monitor/3 with
// {alias, demonitor} or reply_demonitor); true if it was active.
bool remove_alias(Process* p, const Word id[3], bool only_demonitor) {
    std::lock_guard guard(p->lock);
    for (auto it = p->aliases.begin(); it != p->aliases.end(); ++it)
        if (std::equal(it->ref_id, it->ref_id + 3, id)) {
            if (only_demonitor && it->mode == AliasMode::ExplicitUnalias) return false;
            p->aliases.erase(it);
            return true;
        }
    return false;
}

}  // namespace

Term bif_monitor(Process* p, Term* a) { return monitor(p, a, nullptr, 0); }

Term bif_monitor3(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_alias, "alias");
    BEAMLET_CACHED_ATOM(am_tag, "tag");
    AliasMode mode;
    bool alias = false;
    Term tag = 0;
    Term l = a[2];
    for (; is_list(l); l = cdr(l)) {
        Term o = car(l);
        if (!is_tuple(o) || tuple_arity(o) != 2) return p->badarg();
        if (tuple_element(o, 0) == am_alias) {
            if (!alias_mode(tuple_element(o, 1), &mode)) return p->badarg();
            alias = true;
        } else if (tuple_element(o, 0) == am_tag) {
            tag = tuple_element(o, 1);
        } else {
            return p->badarg();
        }
    }
    if (!is_nil(l)) return p->badarg();
    return monitor(p, a, alias ? &mode : nullptr, tag);
}

// erlang:hibernate(M, F, A): the stack is discarded and the process waits for a message, then
// calls M:F(A) (returning from it ends the process).
Term bif_hibernate(Process* p, Term* a) {
    if (!is_atom(a[0]) || !is_atom(a[1]) || !is_proper_list(a[2])) return p->badarg();
    // One frame [no return address][M][F][A] stays, for beamlet:hibernate_wake/0.
    p->stop = p->hend - 4;
    p->stop[0] = 0;
    std::copy(a, a + 3, p->stop + 1);
    p->discard_stack = true;
    p->ip = hibernate_code(p->vm);
    p->exception = PendingException{};
    return THE_NON_VALUE;
}

// The end of a hibernation: apply(M, F, A) from hibernate's frame, on an empty stack.
Term bif_beamlet_hibernate_wake(Process* p, Term* x) {
    std::copy(p->stop + 1, p->stop + 4, x);
    p->stop = p->hend;
    p->discard_stack = true;
    p->ip = p->vm.exports.get(atoms::erlang, atoms::apply, 3)->address();
    p->exception = PendingException{};
    return THE_NON_VALUE;
}

Term bif_alias0(Process* p, Term*) {
    Word id[3];
    new_ref_id(p, id);
    id[2] = pid_number(p->id);
    std::lock_guard guard(p->lock);
    p->aliases.push_back(ProcessAlias{{id[0], id[1], id[2]}, AliasMode::ExplicitUnalias});
    return make_ref_term(p, id);
}

Term bif_alias1(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_reply, "reply");
    AliasMode mode = AliasMode::ExplicitUnalias;
    Term l = a[0];
    for (; is_list(l); l = cdr(l)) {
        if (car(l) == am_reply) mode = AliasMode::ReplyDemonitor;
        else if (car(l) != atom("explicit_unalias")) return p->badarg();
    }
    if (!is_nil(l)) return p->badarg();
    Word id[3];
    new_ref_id(p, id);
    id[2] = pid_number(p->id);
    std::lock_guard guard(p->lock);
    p->aliases.push_back(ProcessAlias{{id[0], id[1], id[2]}, mode});
    return make_ref_term(p, id);
}

Term bif_unalias(Process* p, Term* a) {
    Word id[3];
    if (!ref_id_of(a[0], id)) return p->badarg();
    return make_bool(remove_alias(p, id, false));
}

namespace {
// Removes monitor [id] held by [p]; true if it was active.
bool remove_monitor(Process* p, const Word id[3]) {
    MonitorEntry found{};
    bool have = false;
    {
        std::lock_guard guard(p->lock);
        have = p->monitors.take(id, &found);
    }
    if (!have) return false;
    if (is_port(found.other)) {
        std::shared_ptr<Port> port = p->vm.port_table->lookup(found.other);
        return port && port->remove_monitor(id);
    }
    bool active = false;
    if (std::shared_ptr<Process> target = p->vm.lookup_process(found.other)) {
        std::lock_guard guard(target->lock);
        auto& v = target->monitored_by;
        for (auto it = v.begin(); it != v.end(); ++it)
            if (std::equal(it->ref_id, it->ref_id + 3, id)) {
                v.erase(it);
                active = true;
                break;
            }
    }
    return active;
}

// Drops a queued {'DOWN', Ref, ...} for [ref]; true if one was there.
bool flush_down(Process* p, Term ref) {
    p->fetch_inbox();
    Message removed;
    bool found = p->queue.remove_first_if(
        [ref](const Message& msg) {
            Term m = msg.term;
            return is_tuple(m) && tuple_arity(m) == 5 && tuple_element(m, 0) == atoms::DOWN &&
                   terms_exact_equal(tuple_element(m, 1), ref);
        },
        &removed);
    if (found) {
        p->message_count.fetch_sub(1, std::memory_order_relaxed);
        p->adopt_fragment(removed);
    }
    return found;
}
}  // namespace

Term bif_demonitor1(Process* p, Term* a) {
    Word id[3];
    if (!ref_id_of(a[0], id)) return p->badarg();
    remove_alias(p, id, true);
    remove_monitor(p, id);
    return atoms::true_;
}

Term bif_demonitor2(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_flush, "flush");
    BEAMLET_CACHED_ATOM(am_info, "info");
    Word id[3];
    if (!ref_id_of(a[0], id)) return p->badarg();
    bool flush = false, info = false;
    for (Term l = a[1]; !is_nil(l); l = cdr(l)) {
        if (!is_list(l)) return p->badarg();
        if (car(l) == am_flush) flush = true;
        else if (car(l) == am_info) info = true;
        else return p->badarg();
    }
    remove_alias(p, id, true);
    bool active = remove_monitor(p, id);
    bool flushed = flush && flush_down(p, a[0]);
    if (!info) return atoms::true_;
    if (flush) return make_bool(active || !flushed ? active : false);
    return make_bool(active);
}

Term bif_exit2(Process* p, Term* a) {
    Term pid = a[0], reason = a[1];
    if (is_port(pid)) {
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
    // Flags whose values are kept (and reported back) without changing how the process runs.
    struct Kept {
        const char* name;
        const char* initial;  // an atom, or digits for an integer
        bool (*valid)(Term);
    };
    static const Kept kept[] = {
        {"priority", "normal", [](Term v) { return v == atom("low") || v == atom("normal") || v == atom("high") || v == atom("max"); }},
        {"message_queue_data", "on_heap", [](Term v) { return v == atom("on_heap") || v == atom("off_heap"); }},
        {"sensitive", "false", [](Term v) { return v == atoms::true_ || v == atoms::false_; }},
        {"save_calls", "0", [](Term v) { return is_small(v) && small_value(v) >= 0 && small_value(v) <= 10000; }},
        {"min_heap_size", "233", [](Term v) { return is_small(v) && small_value(v) >= 0; }},
        {"min_bin_vheap_size", "46422", [](Term v) { return is_small(v) && small_value(v) >= 0; }},
        {"fullsweep_after", "65535", [](Term v) { return is_small(v) && small_value(v) >= 0; }},
        {"error_handler", "error_handler", [](Term v) { return is_atom(v); }},
        {"async_dist", "false", [](Term v) { return v == atoms::true_ || v == atoms::false_; }},
    };
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
    std::lock_guard guard(target->lock);
    return make_bool(!target->exiting);
}

Term bif_processes(Process* p, Term*) {
    std::vector<Term> ids = p->vm.process_ids();
    std::sort(ids.begin(), ids.end());
    Term l = NIL;
    for (auto it = ids.rbegin(); it != ids.rend(); ++it) l = make_cons_on(p->alloc(2), *it, l);
    return l;
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
Term bif_group_leader2(Process* p, Term* a) {
    if (!is_pid(a[0]) || !is_pid(a[1])) return p->badarg();
    auto target = p->vm.lookup_process(a[1]);
    if (!target) return p->badarg();
    target->group_leader.store(a[0], std::memory_order_relaxed);
    return atoms::true_;
}

Term bif_send3(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_nosuspend, "nosuspend");
    BEAMLET_CACHED_ATOM(am_noconnect, "noconnect");
    bool nosuspend = false;
    Term l = a[2];
    for (; is_list(l); l = cdr(l)) {
        if (car(l) == am_nosuspend) nosuspend = true;
        else if (car(l) != am_noconnect) return p->badarg();
    }
    if (!is_nil(l)) return p->badarg();
    switch (p->vm.send(p, a[0], a[1], nosuspend)) {
    case Vm::SendResult::Badarg: return p->badarg();
    case Vm::SendResult::NoSuspend: return am_nosuspend;
    case Vm::SendResult::Suspend: return wait_for_busy_port(p, atoms::ok);
    case Vm::SendResult::Sent: break;
    }
    return atoms::ok;
}

// ---- process_info ---------------------------------------------------------------------------

namespace {

const std::vector<Term>& info_items() {
    static const std::vector<Term> items = {
        atom("current_function"), atom("initial_call"), atom("status"), atom("message_queue_len"),
        atom("links"), atom("dictionary"), atom("trap_exit"), atom("error_handler"), atom("priority"),
        atom("group_leader"), atom("total_heap_size"), atom("heap_size"), atom("stack_size"),
        atom("reductions"), atom("garbage_collection"), atom("suspending")};
    return items;
}

// The value of [item] for [p], computed on [p]'s own thread (or for itself). [status] is what
// the status item reports. THE_NON_VALUE for an unknown item.
Term info_value(Process* p, Term item, Term status, bool in_list) {
    BEAMLET_CACHED_ATOM(am_current_function, "current_function");
    BEAMLET_CACHED_ATOM(am_initial_call, "initial_call");
    BEAMLET_CACHED_ATOM(am_status, "status");
    BEAMLET_CACHED_ATOM(am_message_queue_len, "message_queue_len");
    BEAMLET_CACHED_ATOM(am_messages, "messages");
    BEAMLET_CACHED_ATOM(am_links, "links");
    BEAMLET_CACHED_ATOM(am_monitors, "monitors");
    BEAMLET_CACHED_ATOM(am_monitored_by, "monitored_by");
    BEAMLET_CACHED_ATOM(am_dictionary, "dictionary");
    BEAMLET_CACHED_ATOM(am_trap_exit, "trap_exit");
    BEAMLET_CACHED_ATOM(am_registered_name, "registered_name");
    BEAMLET_CACHED_ATOM(am_heap_size, "heap_size");
    BEAMLET_CACHED_ATOM(am_total_heap_size, "total_heap_size");
    BEAMLET_CACHED_ATOM(am_stack_size, "stack_size");
    BEAMLET_CACHED_ATOM(am_reductions, "reductions");
    BEAMLET_CACHED_ATOM(am_error_handler, "error_handler");
    BEAMLET_CACHED_ATOM(am_priority, "priority");
    BEAMLET_CACHED_ATOM(am_group_leader, "group_leader");
    BEAMLET_CACHED_ATOM(am_memory, "memory");
    BEAMLET_CACHED_ATOM(am_garbage_collection, "garbage_collection");
    BEAMLET_CACHED_ATOM(am_suspending, "suspending");
    BEAMLET_CACHED_ATOM(am_current_stacktrace, "current_stacktrace");
    p->fetch_inbox();
    Term v;
    if (item == am_current_function && in_hibernate_code(p->ip)) {
        v = make_tuple_on(p, {atoms::erlang, atom("hibernate"), make_small(3)});
    } else if (item == am_current_function) {
        const Module* m = p->vm.module_containing(p->ip);
        const FunctionInfo* f = m ? m->function_at(p->ip) : nullptr;
        v = f ? make_tuple_on(p, {m->name, f->name, make_small(SWord(f->arity))}) : atoms::undefined;
    } else if (item == am_initial_call) {
        v = p->initial_call[0] ? make_tuple_on(p, {p->initial_call[0], p->initial_call[1], p->initial_call[2]})
                               : atoms::undefined;
    } else if (item == am_status) {
        v = status;
    } else if (item == am_message_queue_len) {
        v = make_small(SWord(p->queue.size()));
    } else if (item == am_messages) {
        std::vector<Term> terms;
        p->queue.for_each([&](const Message& m) { terms.push_back(m.term); });
        v = NIL;
        for (auto it = terms.rbegin(); it != terms.rend(); ++it) v = make_cons_on(p->alloc(2), *it, v);
    } else if (item == am_links || item == am_monitors || item == am_monitored_by) {
        std::vector<Term> pids;
        {
            std::lock_guard guard(p->lock);
            if (item == am_links) pids = p->links;
            else if (item == am_monitors)
                for (const MonitorEntry& m : p->monitors.in_order()) pids.push_back(m.other);
            else
                for (auto& m : p->monitored_by) pids.push_back(m.other);
        }
        v = NIL;
        for (auto it = pids.rbegin(); it != pids.rend(); ++it) {
            Term e = *it;
            if (item == am_monitors) e = make_tuple_on(p, {atoms::process, e});
            v = make_cons_on(p->alloc(2), e, v);
        }
    } else if (item == am_dictionary) {
        v = NIL;
        for (auto it = p->dictionary.rbegin(); it != p->dictionary.rend(); ++it)
            v = make_cons_on(p->alloc(2), make_tuple_on(p, {it->first, it->second}), v);
    } else if (item == am_trap_exit) {
        std::lock_guard guard(p->lock);
        v = make_bool(p->trap_exit);
    } else if (item == am_registered_name) {
        Term name;
        {
            std::lock_guard guard(p->lock);
            name = p->registered_name;
        }
        if (!name && !in_list) return NIL;  // OTP: [] alone, or {registered_name, []} in a list
        v = name ? name : NIL;
    } else if (item == am_heap_size) {
        v = make_small(SWord(p->heap_size_words));
    } else if (item == am_total_heap_size) {
        v = make_small(SWord(p->heap_size_words + Word(p->old_hend - p->old_heap) + p->mbuf_words));
    } else if (item == am_stack_size) {
        v = make_small(SWord(p->stack_used_words()));
    } else if (item == atom("max_heap_size")) {
        v = max_heap_size_term(p, p->max_heap);
    } else if (item == am_reductions) {
        v = make_small(p->reductions);
    } else if (item == am_memory) {
        v = make_small(SWord(p->heap_size_words * 8 + 1000));
    } else if (item == atom("sequential_trace_token")) {
        v = seq_token_copy(p);
    } else if (item == am_error_handler || item == am_priority) {
        v = item == am_priority ? atom("normal") : atoms::error_handler;
        for (auto& [f, value] : p->kept_flags)
            if (f == item) v = value;
    } else if (item == am_group_leader) {
        Term gl = p->group_leader.load();
        v = gl ? gl : p->id;
    } else if (item == am_current_stacktrace) {
        v = current_stacktrace(p);
    } else if (item == am_garbage_collection) {
        v = NIL;
    } else if (item == am_suspending) {
        v = NIL;
    } else {
        return THE_NON_VALUE;
    }
    return make_tuple_on(p, {item, v});
}

// The value for a list of items or a single item.
Term info_answer(Process* p, Term what, Term status, bool* bad) {
    *bad = false;
    if (is_atom(what)) {
        Term v = info_value(p, what, status, false);
        if (v == THE_NON_VALUE) *bad = true;
        return v;
    }
    std::vector<Term> values;
    for (Term l = what; is_list(l); l = cdr(l)) {
        Term v = info_value(p, car(l), status, true);
        if (v == THE_NON_VALUE) {
            *bad = true;
            return NIL;
        }
        values.push_back(v);
    }
    Term list = NIL;
    for (auto it = values.rbegin(); it != values.rend(); ++it) list = make_cons_on(p->alloc(2), *it, list);
    return list;
}

Term info_all_items(Process* p) {
    Term l = NIL;
    for (auto it = info_items().rbegin(); it != info_items().rend(); ++it) l = make_cons_on(p->alloc(2), *it, l);
    return l;
}

bool valid_items(Term what) {
    if (is_atom(what)) return true;
    if (!is_proper_list(what)) return false;
    for (Term l = what; is_list(l); l = cdr(l))
        if (!is_atom(car(l))) return false;
    return true;
}

}  // namespace

// Asks [target] for [what] with a signal; the caller continues in beamlet_internal:await_reply/1.
Term request_process_info(Process* p, Term* a, Term target, Term what, Term if_dead) {
    Word id[3];
    new_ref_id(p, id);
    Term ref = make_ref_term(p, id);
    std::shared_ptr<Process> other = p->vm.lookup_process(target);
    if (!other) return if_dead;
    Term request = make_tuple_on(p, {ref, what});
    Message m;
    m.kind = SignalKind::InfoRequest;
    m.from = p->id;
    Word size = term_size_words(request);
    m.fragment = HeapFragment::create(size);
    Term* hp = m.fragment->data;
    m.term = copy_term(request, &hp, &m.fragment->off_heap_first);
    m.fragment->used_words = size;
    if (!p->vm.send_signal(other.get(), m)) return if_dead;
    static const Export* await = nullptr;
    if (!await) await = p->vm.exports.get(atom("beamlet_internal"), atom("await_reply"), 1);
    a[0] = ref;
    p->ip = await->address();
    p->exception = PendingException{};
    return THE_NON_VALUE;  // trap: continue in await_reply(Ref)
}

// Answers an info request on the target's own thread ([p] null: the target is dead).
void answer_info_request(Process* p, Term from, Term request, Vm& vm) {
    Term ref = tuple_element(request, 0), what = tuple_element(request, 1);
    Term reply_words[3] = {make_arityval(2), ref, atoms::undefined};
    BEAMLET_CACHED_ATOM(am_check_process_code, "$check_process_code");
    if (is_tuple(what) && tuple_element(what, 0) == am_check_process_code) {
        // erlang:check_process_code/2 (bif/code_bifs.cpp), answered on the target's thread.
        Module* old = vm.find_old_module(tuple_element(what, 1));
        reply_words[2] = make_bool(p && executes_code_of(p, old));
    } else if (p) {
        BEAMLET_CACHED_ATOM(am_waiting, "waiting");
        BEAMLET_CACHED_ATOM(am_runnable, "runnable");
        bool bad;
        BEAMLET_CACHED_ATOM(am_suspended, "suspended");
        bool suspended;
        {
            std::lock_guard guard(p->lock);
            suspended = !p->suspenders.empty() || p->busy_port_wait.load(std::memory_order_relaxed);
        }
        Term status = suspended ? am_suspended : p->woken_from_wait ? am_waiting : am_runnable;
        Term value = info_answer(p, what, status, &bad);
        if (!bad) reply_words[2] = value;
    }
    vm.send_message(p, from, make_boxed(reply_words));
}

// process_info about oneself first handles the signals that have arrived (as OTP does), so
// that a link whose exit signal is in is already gone; an exit it decides takes effect as the
// BIF returns.
namespace {
void handle_own_signals(Process* p) {
    p->vm.process_signals(p);
    if (p->pending_exit) p->yield_requested = true;
}
}  // namespace

Term bif_process_info2(Process* p, Term* a) {
    if (!is_pid(a[0]) || !valid_items(a[1])) return p->badarg();
    if (a[0] == p->id) {
        BEAMLET_CACHED_ATOM(am_running, "running");
        handle_own_signals(p);
        bool bad;
        Term v = info_answer(p, a[1], am_running, &bad);
        return bad ? p->badarg() : v;
    }
    return request_process_info(p, a, a[0], a[1], atoms::undefined);
}

Term bif_process_info1(Process* p, Term* a) {
    if (!is_pid(a[0])) return p->badarg();
    Term items = info_all_items(p);
    if (a[0] == p->id) {
        BEAMLET_CACHED_ATOM(am_running, "running");
        handle_own_signals(p);
        bool bad;
        return info_answer(p, items, am_running, &bad);
    }
    return request_process_info(p, a, a[0], items, atoms::undefined);
}

// ---- suspend_process / resume_process ------------------------------------------------------

// erlang:suspend_process(Pid, Opts): Opts are asynchronous, {asynchronous, ReplyTag} and
// unless_suspending. Suspending takes effect at once here (the target's scheduler parks it
// when it next looks), so the asynchronous reply is sent as the call returns.
Term bif_suspend_process2(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_asynchronous, "asynchronous");
    BEAMLET_CACHED_ATOM(am_unless_suspending, "unless_suspending");
    BEAMLET_CACHED_ATOM(am_suspended, "suspended");
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
    auto reply = [&](Term what) {
        if (reply_tag) p->vm.send_message(p, p->id, make_tuple_on(p, {reply_tag, what}));
    };
    if (!target) {
        if (!asynchronous) return p->badarg();
        reply(atoms::badarg);
        return atoms::true_;
    }
    bool already = unless_suspending &&
                   std::find(p->suspending.begin(), p->suspending.end(), a[0]) != p->suspending.end() && [&] {
                       std::lock_guard guard(target->lock);
                       for (const auto& e : target->suspenders)
                           if (e.first == p->id) return true;
                       return false;
                   }();
    if (!already) p->vm.suspend(p, target.get());
    reply(am_suspended);
    return make_bool(!already);
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
    Vm::SystemMonitor& m = p->vm.system_monitor;
    Term pid = m.pid.load();
    if (!pid) return atoms::undefined;
    std::vector<Term> opts;
    if (m.busy_dist_port) opts.push_back(atom("busy_dist_port"));
    if (m.busy_port) opts.push_back(atom("busy_port"));
    auto limit = [&](const char* name, std::uint64_t v) {
        if (v) opts.push_back(make_tuple_on(p, {atom(name), make_integer(p, std::int64_t(v))}));
    };
    limit("large_heap", m.large_heap_words.load());
    limit("long_schedule", m.long_schedule_ms.load());
    limit("long_gc", m.long_gc_ms.load());
    Term list = NIL;
    for (auto it = opts.rbegin(); it != opts.rend(); ++it) list = make_cons_on(p->alloc(2), *it, list);
    return make_tuple_on(p, {pid, list});
}

// Sets the monitor to [pid] with [opts] (no options: off); the old setting, or badarg.
Term set_system_monitor(Process* p, Term pid, Term opts) {
    // As OTP: undefined or [] switches monitoring off, whatever the other argument; otherwise
    // the monitor must be a live local process.
    if (pid == atoms::undefined || is_nil(opts)) {
        Term old = system_monitor_setting(p);
        Vm::SystemMonitor& m = p->vm.system_monitor;
        std::lock_guard guard(m.mutex);
        m.busy_port = m.busy_dist_port = false;
        m.long_gc_ms.store(0);
        m.long_schedule_ms.store(0);
        m.large_heap_words.store(0);
        m.pid.store(0);
        return old;
    }
    if (!is_list(opts) || !is_pid(pid) || !p->vm.lookup_process(pid)) return p->badarg();
    if (!is_proper_list(opts)) return p->badarg();
    bool busy_port = false, busy_dist_port = false;
    std::uint64_t long_gc = 0, long_schedule = 0, large_heap = 0;
    for (Term l = opts; is_list(l); l = cdr(l)) {
        Term o = car(l);
        if (o == atom("busy_port")) {
            busy_port = true;
        } else if (o == atom("busy_dist_port")) {
            busy_dist_port = true;
        } else if (is_tuple(o) && tuple_arity(o) == 2 && is_small(tuple_element(o, 1)) && small_value(tuple_element(o, 1)) >= 0) {
            auto v = std::uint64_t(small_value(tuple_element(o, 1)));
            Term k = tuple_element(o, 0);
            if (k == atom("long_gc")) long_gc = std::max<std::uint64_t>(v, 1);
            else if (k == atom("long_schedule")) long_schedule = std::max<std::uint64_t>(v, 1);
            else if (k == atom("large_heap")) large_heap = std::max<std::uint64_t>(v, 1);
            else return p->badarg();
        } else {
            return p->badarg();
        }
    }
    Term old = system_monitor_setting(p);
    Vm::SystemMonitor& m = p->vm.system_monitor;
    std::lock_guard guard(m.mutex);
    bool on = is_list(opts);
    m.busy_port = on && busy_port;
    m.busy_dist_port = on && busy_dist_port;
    m.long_gc_ms.store(on ? long_gc : 0);
    m.long_schedule_ms.store(on ? long_schedule : 0);
    m.large_heap_words.store(on ? large_heap : 0);
    m.pid.store(on ? pid : 0);
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

// ---- timers ---------------------------------------------------------------------------------

namespace {

Term start_timer(Process* p, Term time, Term dest, Term msg, Term opts, bool wrap_timeout) {
    if (!is_small(time) || small_value(time) < 0) return p->badarg();
    if (!is_pid(dest) && !is_atom(dest)) return p->badarg();
    if (!is_proper_list(opts)) return p->badarg();
    Word id[3];
    new_ref_id(p, id);
    Term ref = make_ref_term(p, id);
    Term payload = wrap_timeout ? make_tuple_on(p, {atom("timeout"), ref, msg}) : msg;
    Word size = term_size_words(payload);
    HeapFragment* frag = nullptr;
    Term copy = payload;
    if (size) {
        frag = HeapFragment::create(size);
        Term* hp = frag->data;
        copy = copy_term(payload, &hp, &frag->off_heap_first);
        frag->used_words = size;
    }
    p->vm.timers->arm_message(dest, copy, frag, std::uint64_t(small_value(time)), id);
    return ref;
}

Term timer_result(std::optional<std::int64_t> left) {
    if (!left) return atoms::false_;
    return make_small(*left);
}

}  // namespace

Term bif_send_after3(Process* p, Term* a) { return start_timer(p, a[0], a[1], a[2], NIL, false); }
Term bif_send_after4(Process* p, Term* a) { return start_timer(p, a[0], a[1], a[2], a[3], false); }
Term bif_start_timer3(Process* p, Term* a) { return start_timer(p, a[0], a[1], a[2], NIL, true); }
Term bif_start_timer4(Process* p, Term* a) { return start_timer(p, a[0], a[1], a[2], a[3], true); }

Term bif_cancel_timer1(Process* p, Term* a) {
    Word id[3];
    if (!ref_id_of(a[0], id)) return p->badarg();
    return timer_result(p->vm.timers->cancel(id));
}
Term bif_cancel_timer2(Process* p, Term* a) {
    Word id[3];
    if (!ref_id_of(a[0], id) || !is_proper_list(a[1])) return p->badarg();
    BEAMLET_CACHED_ATOM(am_info, "info");
    BEAMLET_CACHED_ATOM(am_async, "async");
    bool info = true, async = false;
    for (Term l = a[1]; is_list(l); l = cdr(l)) {
        Term o = car(l);
        if (is_tuple(o) && tuple_arity(o) == 2 && tuple_element(o, 0) == am_info) info = tuple_element(o, 1) == atoms::true_;
        else if (is_tuple(o) && tuple_arity(o) == 2 && tuple_element(o, 0) == am_async) async = tuple_element(o, 1) == atoms::true_;
    }
    Term r = timer_result(p->vm.timers->cancel(id));
    if (async) {
        if (info) p->vm.send_message(p, p->id, make_tuple_on(p, {atom("cancel_timer"), a[0], r}));
        return atoms::ok;
    }
    return info ? r : atoms::ok;
}
Term bif_read_timer1(Process* p, Term* a) {
    Word id[3];
    if (!ref_id_of(a[0], id)) return p->badarg();
    return timer_result(p->vm.timers->read(id));
}
Term bif_read_timer2(Process* p, Term* a) { return bif_read_timer1(p, a); }

}  // namespace beamlet::bif
