// bif/erlang_monitors.cpp — monitor/2,3 (processes, names, ports; aliases and tags),
// demonitor/1,2, alias/0,1 and unalias/1.
#include <cctype>
#include <algorithm>

#include "bif/bifs.hpp"
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
               tuple_element(target, 1) == this_node().name) {
        name = tuple_element(target, 0);
        id = p->vm.whereis_id(name);
    } else if (is_external_port(target) && external_node(target) == this_node().name) {
        id = 0;  // a port of an earlier incarnation of this node: gone (noproc below)
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
    Term item = name ? make_tuple_on(p, {name, this_node().name}) : target;
    Term msg = make_tuple_on(p, {tag ? tag : atoms::DOWN, ref, atom("port"), item, atoms::noproc});
    p->vm.send_message(nullptr, p->id, msg);
    return ref;
}

Term monitor(Process* p, Term* a, const AliasMode* alias, Term tag) {
    BEAMLET_CACHED_ATOM(am_port, "port");
    if (a[0] == am_port) return monitor_port(p, a[1], alias, tag);
    // The time offset never changes here (no_time_warp, the only mode): a monitor of it is a
    // reference whose 'CHANGE' message never comes, as OTP's in that mode.
    if (a[0] == atom("time_offset") && a[1] == atom("clock_service")) return p->new_ref();
    if (a[0] != atoms::process) return p->badarg();
    Term target = a[1], name = 0;
    std::shared_ptr<Process> other;
    // No such process: an immediate 'DOWN' with noproc. Another node's process cannot be
    // reached until this node is distributed: noconnection (OTP); one of an earlier
    // incarnation of this node (its name, another creation) is gone: noproc. Another node's
    // name is badarg below, as OTP's on a node that is not alive.
    Term down_reason = atoms::noproc;
    Term remote_node = 0;  // a process on another node, by pid or name: the distribution's
    if (is_external_pid(target)) {
        if (external_node(target) != this_node().name) {
            down_reason = atoms::noconnection;
            remote_node = external_node(target);
        }
    } else if (is_tuple(target) && tuple_arity(target) == 2 && is_atom(tuple_element(target, 0)) &&
               is_atom(tuple_element(target, 1)) && tuple_element(target, 1) != this_node().name &&
               this_node().name != atoms::nonode_at_nohost) {
        name = tuple_element(target, 0);
        remote_node = tuple_element(target, 1);
        down_reason = atoms::noconnection;
    } else if (is_pid(target)) {
        other = p->vm.lookup_process(target);
    } else if (is_atom(target)) {
        name = target;
        other = p->vm.whereis(target);
    } else if (is_tuple(target) && tuple_arity(target) == 2 && is_atom(tuple_element(target, 0)) &&
               tuple_element(target, 1) == this_node().name) {
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
    if (remote_node && p->vm.services.dist) {
        std::shared_ptr<HeapFragment> tag_heap;
        Term kept_tag = keep_monitor_tag(tag, &tag_heap);
        MonitorEntry m{{id[0], id[1], id[2]}, name ? 0 : stable_external(target), name, kept_tag, tag_heap};
        m.node = remote_node;
        {
            std::lock_guard guard(p->lock);
            p->monitors.add(m);
        }
        if (p->vm.services.dist->monitor(p, m)) return ref;
        std::lock_guard guard(p->lock);
        p->monitors.take(id);
    }
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
                other->monitored_by.push_back(
                    MonitorEntry{{id[0], id[1], id[2]}, p->id, name, kept_tag, tag_heap, other->kill_pending});
                added = true;
            }
        }
        if (added) return ref;
        std::lock_guard guard(p->lock);
        p->monitors.take(id);
    }
    Term item = name ? make_tuple_on(p, {name, remote_node ? remote_node : this_node().name}) : target;
    Term msg = make_tuple_on(p, {tag ? tag : atoms::DOWN, ref, atoms::process, item, down_reason});
    p->vm.send_message(nullptr, p->id, msg);
    return ref;
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

bool alias_mode_of(Term t, AliasMode* out) {
    if (t == atom("explicit_unalias")) *out = AliasMode::ExplicitUnalias;
    else if (t == atom("demonitor")) *out = AliasMode::Demonitor;
    else if (t == atom("reply_demonitor")) *out = AliasMode::ReplyDemonitor;
    else return false;
    return true;
}

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
            if (!alias_mode_of(tuple_element(o, 1), &mode)) return p->badarg();
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

// Removes monitor [id] held by [p]; true if it was active. [held] (if given) tells whether
// [p] still held it: then no 'DOWN' for it was queued, nor ever will be (Vm::send_down takes
// the monitor from its holder before it delivers).
bool remove_monitor(Process* p, const Word id[3], bool* held = nullptr) {
    MonitorEntry found{};
    bool have = false;
    {
        std::lock_guard guard(p->lock);
        have = p->monitors.take(id, &found);
    }
    if (held) *held = have;
    if (!have) return false;
    if (found.node) {  // on another node
        if (p->vm.services.dist) p->vm.services.dist->demonitor(p->id, found);
        return true;
    }
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
    auto is_down = [ref](const Message& msg) {
        Term m = msg.term;
        return msg.kind == SignalKind::Message && is_tuple(m) && tuple_arity(m) == 5 &&
               tuple_element(m, 0) == atoms::DOWN && terms_exact_equal(tuple_element(m, 1), ref);
    };
    p->fetch_inbox();
    Message removed;
    bool found = p->queue.remove_first_if(is_down, &removed);
    if (!found) {
        // fetch_inbox stops at the first signal: a 'DOWN' may wait behind one (the exit signal
        // of a linked process that monitored and linked, as file_io_server's starter does).
        // OTP's flush receives past it; take it from the inbox.
        std::lock_guard guard(p->lock);
        auto it = std::find_if(p->inbox.begin(), p->inbox.end(), is_down);
        if (it != p->inbox.end()) {
            removed = *it;
            p->inbox.erase(it);
            found = true;
        }
    }
    if (found) {
        p->message_count.fetch_sub(1, std::memory_order_relaxed);
        p->queue_shrank();
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
    bool held = false;
    bool active = remove_monitor(p, id, &held);
    // Only a monitor that had already fired can have left a 'DOWN' to flush: a gen_server
    // call's demonitor(Ref, [flush]) does not scan a long message queue.
    bool flushed = flush && !held && flush_down(p, a[0]);
    if (!info) return atoms::true_;
    if (flush) return make_bool(active || !flushed ? active : false);
    return make_bool(active);
}

}  // namespace beamlet::bif
