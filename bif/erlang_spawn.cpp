// bif/erlang_spawn.cpp — spawn, spawn_link, spawn_monitor, spawn_opt and spawn_request (with
// their options: link, monitor, max_heap_size, fullsweep_after, reply tags).
#include <algorithm>
#include <cctype>
#include <optional>

#include "bif/bifs.hpp"
#include "dist/distribution.hpp"
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

// spawn_opt options: link, monitor, {monitor, MonitorOpts}, {fullsweep_after, N},
// {min_heap_size, N}, {max_heap_size, _}, {priority, P}, {message_queue_data, _}; other
// tuning options are accepted and ignored ({min_bin_vheap_size, _}, ...).
// spawn_request's {reply_tag, T} and {reply, R} go to [request] when it is given.
// {monitor, [{alias, Mode}]} goes to [alias].
OptsError parse_spawn_opts(Term opts, Vm::SpawnOptions* out, std::optional<AliasMode>* alias,
                           RequestOptions* request = nullptr) {
    BEAMLET_CACHED_ATOM(am_link, "link");
    BEAMLET_CACHED_ATOM(am_monitor, "monitor");
    BEAMLET_CACHED_ATOM(am_fullsweep_after, "fullsweep_after");
    BEAMLET_CACHED_ATOM(am_max_heap_size, "max_heap_size");
    BEAMLET_CACHED_ATOM(am_reply_tag, "reply_tag");
    BEAMLET_CACHED_ATOM(am_reply, "reply");
    BEAMLET_CACHED_ATOM(am_tag, "tag");
    BEAMLET_CACHED_ATOM(am_alias, "alias");
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
                AliasMode mode;
                if (is_tuple(mo) && tuple_arity(mo) == 2 && tuple_element(mo, 0) == am_tag)
                    out->monitor_tag = tuple_element(mo, 1);
                else if (is_tuple(mo) && tuple_arity(mo) == 2 && tuple_element(mo, 0) == am_alias &&
                         alias_mode_of(tuple_element(mo, 1), &mode))
                    *alias = mode;
                else
                    result = OptsError::BadOption;
            }
        } else if (key == atom("min_heap_size")) {
            if (!is_small(value) || small_value(value) < 0) result = OptsError::BadOption;
            else out->min_heap_size = Word(small_value(value));
        } else if (key == atom("priority")) {
            std::optional<Priority> prio = priority_of(value);
            if (!prio) result = OptsError::BadOption;
            else out->priority = *prio;
        } else if (key == atom("min_bin_vheap_size")) {
            if (!is_small(value) || small_value(value) < 0) result = OptsError::BadOption;
            else out->min_bin_vheap_size = Word(small_value(value));
        } else if (key == atom("message_queue_data")) {
            if (value != atom("on_heap") && value != atom("off_heap")) result = OptsError::BadOption;
            else out->off_heap_messages = value == atom("off_heap");
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

// A monitor reference that is also an alias of [p] (monitor/3's {alias, Mode}).
void new_alias_ref_id(Process* p, AliasMode mode, Word id[3]) {
    new_ref_id(p, id);
    id[2] = pid_number(p->id);
    std::lock_guard guard(p->lock);
    p->aliases.push_back(ProcessAlias{{id[0], id[1], id[2]}, mode});
}

Term spawn_opt(Process* p, Term fun, Term m, Term f, Term args, Term opts) {
    Vm::SpawnOptions o;
    std::optional<AliasMode> alias;
    if (parse_spawn_opts(opts, &o, &alias) != OptsError::None) return p->badarg(atom("badopt"));
    if (fun ? !is_fun0(fun) : !is_mfa_call(m, f, args)) return p->badarg();
    Word id[3];
    if (alias) {
        new_alias_ref_id(p, *alias, id);
        o.request_ref = id;
    }
    return fun ? spawn_fun(p, fun, o) : spawn_mfa(p, m, f, args, o);
}

// erlang:spawn_request on node [node] (this node or, as OTP when not distributed, none
// reachable): the request id, with the reply and the monitor's 'DOWN' as messages.
Term spawn_request(Process* p, Term node, Term m, Term f, Term args, Term opts) {
    if (!is_atom(node) || !is_mfa_call(m, f, args)) return p->badarg();
    if (!is_proper_list(opts)) return p->badarg(atom("badopt"));
    if (node != this_node().name && this_node().name != atoms::nonode_at_nohost) {
        if (dist::Distribution* d = dist::of(p->vm)) {
            Term req = d->spawn_request(p, node, m, f, args, opts, false);
            return req == atoms::badarg ? p->badarg() : req;
        }
    }
    Vm::SpawnOptions o;
    RequestOptions r;
    std::optional<AliasMode> alias;
    Term error = 0;
    // Another node (none reachable here) would judge the options itself: noconnection first
    // (the reply options are still this node's).
    bool bad_opts = parse_spawn_opts(opts, &o, &alias, &r) != OptsError::None;
    if (node != this_node().name) error = atoms::noconnection;
    else if (bad_opts) error = atom("badopt");
    // The request id is the monitor's reference: with {alias, Mode}, an alias as well.
    Word id[3];
    if (alias && !error) new_alias_ref_id(p, *alias, id);
    else new_ref_id(p, id);
    Term req = make_ref_term(p, id);
    if (error) {
        if (r.reply_error) p->vm.send_message(nullptr, p->id, make_tuple_on(p, {r.reply_tag, req, atoms::error, error}));
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

}  // namespace beamlet::bif
