// vm/signals.cpp — spawning, messages and signals between processes: exits, links, monitors.
//
// Every signal travels through the receiver's inbox, so that signals and messages from one
// sender stay in order (OTP's signal queue). Senders only touch the receiver under its lock;
// the receiver handles signals on its own scheduler thread (process_signals), before it runs.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>

#include <unistd.h>

#include "vm/atom_table.hpp"
#include "vm/block_cache.hpp"
#include "vm/heap_blocks.hpp"
#include "vm/code_permission.hpp"
#include "vm/copy.hpp"
#include "vm/literal_area.hpp"
#include "vm/magic.hpp"
#include "vm/entry_code.hpp"
#include "vm/interpreter.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"
#include "vm/node.hpp"
#include "vm/port.hpp"
#include "vm/port_table.hpp"
#include "vm/process.hpp"
#include "vm/scheduler.hpp"
#include "vm/seq_trace.hpp"
#include "vm/system_logger.hpp"
#include "vm/timer_service.hpp"
#include "vm/trace_hooks.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

// A copy of [t] in a new fragment: the fragment (null for immediates) and the copy.
HeapFragment* copy_to_fragment(Term t, Term* out, const Literals& literals) {
    Word size = term_size_words(t, literals);
    if (!size) {
        *out = t;
        return nullptr;
    }
    HeapFragment* frag = HeapFragment::create(size);
    Term* hp = frag->data;
    *out = copy_term(t, &hp, &frag->off_heap_first, literals);
    frag->used_words = size;
    return frag;
}

void free_fragment(HeapFragment* f) {
    if (!f) return;
    release_off_heap_list(f->off_heap_first);
    HeapFragment::destroy(f);
}

namespace {

// [m] carries a copy of [term] and, when it is a token tuple, a copy of the seq_trace [token]
// (of reset epoch [epoch]) in the same fragment; NIL and 0 tokens are kept as they are.
void fill_with_token(Message& m, Term term, Term token, Word epoch,
                     const Literals& literals = Literals::copied()) {
    m.seq_token = token;
    if (token == 0 || token == NIL) {
        m.fragment = copy_to_fragment(term, &m.term, literals);
        return;
    }
    Word term_words = term_size_words(term, literals), token_words = term_size_words(token, literals);
    m.fragment = HeapFragment::create(term_words + token_words);
    Term* hp = m.fragment->data;
    m.term = copy_term(term, &hp, &m.fragment->off_heap_first, literals);
    m.seq_token = copy_term(token, &hp, &m.fragment->off_heap_first, literals);
    m.fragment->used_words = term_words + token_words;
    m.seq_epoch = epoch;
}

// Drops the monitor entry with reference [ref_id] from [v], if there is one.
void erase_monitor(std::vector<MonitorEntry>& v, const Word ref_id[3]) {
    for (auto it = v.begin(); it != v.end(); ++it)
        if (std::equal(it->ref_id, it->ref_id + 3, ref_id)) {
            v.erase(it);
            return;
        }
}

// A term built in its own fragment from a small tuple of [elements] (copied).
HeapFragment* make_tuple_fragment(std::initializer_list<Term> elements, Term* out) {
    Word size = 1 + elements.size();
    for (Term e : elements) size += term_size_words(e);
    HeapFragment* frag = HeapFragment::create(size);
    Term* hp = frag->data;
    Term* tuple = hp;
    hp += 1 + elements.size();
    tuple[0] = make_arityval(elements.size());
    Word i = 1;
    for (Term e : elements) tuple[i++] = copy_term(e, &hp, &frag->off_heap_first);
    frag->used_words = size;
    *out = make_boxed(tuple);
    return frag;
}

Term ref_on(Term* hp, const Word id[3]) {
    hp[0] = make_header(REF_WORDS - 1, Subtag::Ref);
    hp[1] = id[0];
    hp[2] = id[1];
    hp[3] = id[2];
    return make_boxed(hp);
}

}  // namespace

bool runs_code_of(const Process* p, const Module* m) {
    if (!m) return false;
    if (m->contains(p->ip) || m->contains(p->cp)) return true;
    for (const Term* s = p->stop; s < p->hend; ++s) {
        Term w = *s;
        if ((w & TAG_PRIMARY_MASK) == TAG_PRIMARY_HEADER && m->contains(reinterpret_cast<const Word*>(w))) return true;
        if (is_catch(w) && m->contains(catch_handler(w))) return true;
    }
    return false;
}

void Vm::run_system_task(Process* p, Message& s) {
    static const Term am_garbage_collect = atom("garbage_collect");
    static const Term am_check_process_code = atom("check_process_code");
    static const Term am_copy_literals = atom("copy_literals");
    static const Term am_minor = atom("minor");
    static const Term am_system_task_test = atom("system_task_test");
    Term task = tuple_element(s.term, 0), req_id = tuple_element(s.term, 1);
    Term arg = tuple_arity(s.term) > 2 ? tuple_element(s.term, 2) : NIL;
    // A dead process answers false (copy_literals: ok), as OTP's does; so does one that a
    // signal of the same batch decided to end (OTP answers the tasks of an exiting process so).
    Term result = task == am_copy_literals ? atoms::ok : atoms::false_;
    if (p && p->pending_exit) p = nullptr;
    if (p && p->gc_disabled && task == am_garbage_collect) {
        p->delayed_gc.push_back(s);  // answered when collections are back on
        return;
    }
    if (p && task == am_system_task_test) {
        result = atoms::true_;  // OTP's test task: done when the process handles it
    } else if (p && task == am_garbage_collect) {
        // Signals are handled before the process runs: its live registers are saved.
        garbage_collect(p, p->saved_x.data(), p->arity, 0, arg != am_minor);
        result = atoms::true_;
    } else if (p && task == am_check_process_code) {
        result = make_bool(runs_code_of(p, find_old_module(arg)));
    } else if (p && task == am_copy_literals) {
        // From the literal area collector (erts_literal_area_collector:send_copy_request/3):
        // whatever the process holds of the area being released comes onto its heap.
        if (LiteralRelease* area = literal_area_being_released()) {
            garbage_collect_literals(p, p->saved_x.data(), p->arity, *area);
            copy_released_literals_in_queue(p, *area);
        }
    }
    std::shared_ptr<Process> to = lookup_process(s.from);
    if (to) {
        Message m;
        m.fragment = make_tuple_fragment({task, req_id, result}, &m.term);
        send_signal(to.get(), m);
    }
    free_fragment(s.fragment);
}

void Vm::run_system_tasks(Process* p, std::vector<Message>& tasks) {
    if (tasks.empty()) return;
    // OTP's order: max tasks, then high ones, then normal ones with a low one after every
    // eight (and the low ones once no normal one is left); each priority in arrival order.
    constexpr std::uint8_t LOW_TASK_SKIPS = 8;
    std::size_t next[4] = {0, 0, 0, 0};
    auto pending = [&](Priority prio) {
        for (std::size_t& i = next[int(prio)]; i < tasks.size(); ++i)
            if (tasks[i].priority == prio) return true;
        return false;
    };
    for (std::size_t left = tasks.size(); left > 0; --left) {
        // Each pending() moves its priority's index to its next task (all four, every time).
        bool max = pending(Priority::Max), high = pending(Priority::High);
        bool normal = pending(Priority::Normal), low = pending(Priority::Low);
        Priority prio;
        if (max) {
            prio = Priority::Max;
        } else if (high) {
            prio = Priority::High;
        } else if (normal && (p->low_task_skips < LOW_TASK_SKIPS || !low)) {
            prio = Priority::Normal;
            if (low) ++p->low_task_skips;
        } else {
            prio = Priority::Low;
            p->low_task_skips = 0;
        }
        run_system_task(p, tasks[next[int(prio)]++]);
    }
    tasks.clear();
}

Term Vm::multi_scheduling_change(Process* p, bool block, bool normal_only) {
    std::lock_guard guard(multi_scheduling.mutex);
    std::vector<Term>& list = normal_only ? multi_scheduling.normal : multi_scheduling.all;
    if (p && block) {
        list.push_back(p->id);
        p->blocks_scheduling.store(true, std::memory_order_relaxed);
    } else if (p) {
        auto it = std::find(list.begin(), list.end(), p->id);
        if (it == list.end()) return multi_scheduling_state_locked();
        list.erase(it);
    }
    using Blocking = Schedulers::Blocking;
    Blocking now = !multi_scheduling.all.empty()      ? Blocking::All
                   : !multi_scheduling.normal.empty() ? Blocking::Normal
                                                      : Blocking::None;
    if (schedulers) schedulers->block(now);
    return multi_scheduling_state_locked();
}

Term Vm::multi_scheduling_state_locked() {
    return !multi_scheduling.all.empty()      ? atom("blocked")
           : !multi_scheduling.normal.empty() ? atom("blocked_normal")
                                              : atom("enabled");
}

Term Vm::multi_scheduling_state() {
    std::lock_guard guard(multi_scheduling.mutex);
    return multi_scheduling_state_locked();
}

std::vector<Term> Vm::multi_scheduling_blockers(bool normal_only) {
    std::lock_guard guard(multi_scheduling.mutex);
    std::vector<Term> pids;
    for (Term pid : normal_only ? multi_scheduling.normal : multi_scheduling.all)
        if (std::find(pids.begin(), pids.end(), pid) == pids.end()) pids.push_back(pid);
    return pids;
}

void Vm::reply_to(Term to, Term ref, Term value) {
    std::shared_ptr<Process> p = lookup_process(to);
    if (!p) return;
    Message m;
    m.fragment = make_tuple_fragment({ref, value}, &m.term);
    send_signal(p.get(), m);
}

namespace {

bool remove_pid(std::vector<Term>& v, Term pid) {
    for (auto it = v.begin(); it != v.end(); ++it)
        if (*it == pid) {
            v.erase(it);
            return true;
        }
    return false;
}

}  // namespace

std::string timestamp_now() {
    auto now = std::chrono::system_clock::now();
    std::time_t t = std::chrono::system_clock::to_time_t(now);
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() % 1000000;
    std::tm tm{};
    localtime_r(&t, &tm);
    static const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    char buf[64];
    std::snprintf(buf, sizeof buf, "%d-%s-%04d::%02d:%02d:%02d.%06lld", tm.tm_mday, months[tm.tm_mon], tm.tm_year + 1900,
                  tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<long long>(us));
    return buf;
}

bool Vm::wake_locked(Process* p) {
    if (p->state != ProcessState::Waiting) return false;
    p->state = ProcessState::Runnable;
    // A parked process keeps what it was doing when suspended: running, or in a receive.
    if (!p->parked) p->woken_from_wait = true;
    p->parked = false;
    return true;
}

Word Vm::take_pid_number() {
    Word n = next_pid.fetch_add(1, std::memory_order_relaxed) + 1;
    if (!m_pid_numbers_reused.load(std::memory_order_relaxed)) return n;
    while (lookup_process(make_pid(n))) n = next_pid.fetch_add(1, std::memory_order_relaxed) + 1;
    return n;
}

void Vm::reuse_pid_numbers(Word next) {
    m_pid_numbers_reused.store(true, std::memory_order_relaxed);
    next_pid.store(next ? next - 1 : 0, std::memory_order_relaxed);
}

std::shared_ptr<Process> Vm::spawn(Process* parent, const Export* entry, Term fun, Term args,
                                   const SpawnOptions& opts, Word monitor_ref[3]) {
    auto child = std::allocate_shared<Process>(CachedAllocator<Process>(), *this, take_pid_number());
    Process* c = child.get();
    c->fullsweep_after = opts.fullsweep_after;
    c->min_bin_vheap_size = opts.min_bin_vheap_size;
    c->priority.store(opts.priority, std::memory_order_relaxed);
    if (opts.off_heap_messages) c->kept_flags.emplace_back(atom("message_queue_data"), atom("off_heap"));
    c->parent = parent ? parent->id : 0;
    if (opts.min_heap_size > c->heap_size_words) {
        // The fresh, empty heap is replaced by one of at least the size asked for.
        c->min_heap_words = next_heap_size_words(opts.min_heap_size);
        c->free_heap_block();
        c->heap = static_cast<Term*>(heap_block_alloc(c->min_heap_words * sizeof(Term)));
        c->heap_size_words = c->heap_block_words = c->min_heap_words;
        c->htop = c->high_water = c->heap;
        c->hend = c->stop = c->heap + c->heap_size_words;
    }
    c->max_heap = opts.max_heap ? *opts.max_heap : max_heap_default();
    c->group_leader.store(parent ? parent->group_leader.load(std::memory_order_relaxed) : default_group_leader.load(),
                          std::memory_order_relaxed);
    // Arguments (and the fun) are copied into the child's fresh heap.
    std::vector<Term> argv;
    Term fun_copy = NIL;
    {
        Literals literals = parent ? Literals::shared() : Literals::copied();
        Word size = term_size_words(args, literals) + term_size_words(fun, literals);
        Term* hp = c->alloc(size);
        Term args_copy = copy_term(args, &hp, &c->off_heap_first, literals);
        if (fun != NIL) fun_copy = copy_term(fun, &hp, &c->off_heap_first, literals);
        for (Term l = args_copy; is_list(l); l = cdr(l)) argv.push_back(car(l));
    }
    if (entry) {
        c->initial_call[0] = entry->module;
        c->initial_call[1] = entry->function;
        c->initial_call[2] = make_small(SWord(entry->arity));
    } else {
        c->initial_call[0] = atoms::erlang;
        c->initial_call[1] = atoms::apply;
        c->initial_call[2] = make_small(2);
    }
    if (entry) {
        prepare_call(c, entry, argv);
    } else if (is_local_fun(fun_copy)) {
        const Term* obj = boxed_ptr(fun_copy);
        const FunEntry* fe = reinterpret_cast<const FunEntry*>(obj[1]);
        for (Word i = 0; i < fe->num_free; ++i) argv.push_back(obj[3 + i]);
        prepare_call_address(c, fe->address(), argv);
    } else {
        const Export* e = reinterpret_cast<const Export*>(boxed_ptr(fun_copy)[1]);
        prepare_call(c, e, argv);
    }
    if (parent && opts.link) {
        c->links.push_back(parent->id);
        std::lock_guard guard(parent->lock);
        parent->links.push_back(c->id);
    }
    if (parent && opts.monitor) {
        Word n = next_ref.fetch_add(1, std::memory_order_relaxed) + 1;
        MonitorEntry watcher{{n & 0x3FFFF, n >> 18, 0}, c->id, 0, 0, nullptr};
        if (opts.request_ref) std::copy(opts.request_ref, opts.request_ref + 3, watcher.ref_id);
        if (opts.monitor_tag) watcher.tag = keep_monitor_tag(opts.monitor_tag, &watcher.tag_heap);
        MonitorEntry watched = watcher;
        watched.other = parent->id;
        c->monitored_by.push_back(watched);
        {
            std::lock_guard guard(parent->lock);
            parent->monitors.add(watcher);
        }
        if (monitor_ref) std::copy(watcher.ref_id, watcher.ref_id + 3, monitor_ref);
    }
    if (services.trace) {
        // The initial call as trace messages show it: {M, F, Args}, or {erlang, apply,
        // [Fun, []]} for a fun (OTP starts funs through apply/2).
        Term apply_cells[4];
        Term mfa_words[4] = {make_arityval(3), c->initial_call[0], c->initial_call[1], args};
        if (!entry) mfa_words[3] = make_cons_on(apply_cells, fun, make_cons_on(apply_cells + 2, NIL, NIL));
        services.trace->process_spawned(parent, c, make_boxed(mfa_words), parent && opts.link);
    }
    if (parent && parent->seq_token != NIL && current_seq_token(parent) != NIL) {
        // {spawn_request, Ref, Parent, GroupLeader, MFA, Opts, ReplyTag, Args} and
        // {ReplyTag, Ref, ok, Child}, as OTP 25 spawns and seq_trace reports it.
        Word n = next_ref.fetch_add(1, std::memory_order_relaxed) + 1;
        Word fresh[3] = {n & 0x3FFFF, n >> 18, 0};
        const Word* ref_id = opts.request_ref ? opts.request_ref : fresh;
        Term ref_words[REF_WORDS];
        Term ref = ref_on(ref_words, ref_id);
        Term mfa[4] = {make_arityval(3), c->initial_call[0], c->initial_call[1], c->initial_call[2]};
        Term opt_cells[4];
        Term opt_list = NIL;
        if (opts.monitor) opt_list = make_cons_on(opt_cells, atom("monitor"), opt_list);
        if (opts.link) opt_list = make_cons_on(opt_cells + 2, atom("link"), opt_list);
        Term apply_cells[4];
        Term call_args = entry ? args : make_cons_on(apply_cells, fun, make_cons_on(apply_cells + 2, NIL, NIL));
        Term tag = opts.reply_tag ? opts.reply_tag : atom("spawn_reply");
        Term request[9] = {make_arityval(8), atom("spawn_request"), ref, parent->id, c->group_leader.load(),
                           make_boxed(mfa), opt_list, tag, call_args};
        Term reply[5] = {make_arityval(4), tag, ref, atoms::ok, c->id};
        seq_trace_spawn(parent, c, make_boxed(request), make_boxed(reply));
    }
    if (parent && opts.reply_tag) {
        // spawn_request's success reply, queued before the child can send anything.
        Term ref_words[REF_WORDS];
        Term reply[5] = {make_arityval(4), opts.reply_tag, ref_on(ref_words, opts.request_ref), atoms::ok, c->id};
        send_message(nullptr, parent->id, make_boxed(reply));  // the runtime's, as in OTP: no send event
    }
    if (opts.prepare) opts.prepare(c);
    c->state = ProcessState::Runnable;
    add_process(child);
    schedulers->enqueue(c);
    return child;
}

bool Vm::send_signal(Process* to, Message signal, bool lazy_wake) {
    bool enqueue = false, promote = false, starts_input = false;
    {
        std::lock_guard guard(to->lock);
        if (to->state == ProcessState::Exited) {
            free_fragment(signal.fragment);
            return false;
        }
        // Read under the lock: open_fd_port stores the server, then looks through its inbox
        // under the same lock, so a request is either seen there or seen here.
        starts_input = signal.kind == SignalKind::Message &&
                       to->id == stdin_on_demand.server.load(std::memory_order_relaxed) &&
                       is_input_request(signal.term);
        if (signal.kind == SignalKind::Message) to->message_count.fetch_add(1, std::memory_order_relaxed);
        else to->inbox_signals.fetch_add(1, std::memory_order_relaxed);
        if (signal.kind == SignalKind::Exit && !signal.linked && signal.term == atoms::kill) to->kill_pending = true;
        to->inbox.push_back(signal);
        // A system task more urgent than the process runs at its own priority, and an exit,
        // link or info request from a more urgent process is handled at the sender's (OTP's
        // no-priority-inversion; a system task keeps the priority it was asked at): a process
        // already queued moves up.
        Priority urgency = signal.priority;
        if (signal.kind == SignalKind::Exit || signal.kind == SignalKind::Link || signal.kind == SignalKind::Unlink ||
            signal.kind == SignalKind::InfoRequest)
            urgency = std::min(urgency, Schedulers::running_priority());
        if (urgency < to->run_priority()) {
            to->task_priority.store(urgency, std::memory_order_relaxed);
            promote = to->state == ProcessState::Runnable;
        }
        enqueue = wake_locked(to);
        if (!enqueue && signal.kind != SignalKind::Message && to->signal_only_wait.load(std::memory_order_relaxed) &&
            to->state == ProcessState::Suspended) {
            // In a signal-only wait: it handles the signal, then waits on (Schedulers::run_one).
            to->state = ProcessState::Runnable;
            enqueue = true;
        }
    }
    if (starts_input) start_stdin_input();
    if (enqueue && lazy_wake && schedulers) schedulers->wake_later(to);
    else if (enqueue) schedulers->enqueue(to);
    else if (promote) schedulers->promote(to);
    return true;
}

std::shared_ptr<Process> Vm::alias_target(Term alias) {
    // Delivered only while the owner keeps the alias active.
    const Term* r = boxed_ptr(alias);
    Word owner = r[3];
    if (!owner) return nullptr;
    std::shared_ptr<Process> target = lookup_process(make_pid(owner));
    if (!target) return nullptr;
    MonitorEntry demonitored{};
    {
        std::lock_guard guard(target->lock);
        auto& v = target->aliases;
        auto it = std::find_if(v.begin(), v.end(), [&](const ProcessAlias& a) {
            return a.ref_id[0] == r[1] && a.ref_id[1] == r[2] && a.ref_id[2] == r[3];
        });
        if (it == v.end()) return nullptr;
        if (it->mode == AliasMode::ReplyDemonitor) {
            // The first reply ends the alias and its monitor.
            v.erase(it);
            const Word ref_id[3] = {r[1], r[2], r[3]};
            target->monitors.take(ref_id, &demonitored);
        }
    }
    if (demonitored.other)
        if (std::shared_ptr<Process> watched = lookup_process(demonitored.other)) {
            std::lock_guard guard(watched->lock);
            erase_monitor(watched->monitored_by, demonitored.ref_id);
        }
    return target;
}

Vm::SendResult Vm::route(Process* sender, Term dest, Term msg, PortCommandMode port_mode) {
    // 1. The destination, resolved once: a local process (null when it is gone: the message
    // is dropped), or a local port, or nothing (badarg).
    Process* to = nullptr;
    std::shared_ptr<Process> held;  // a process found by name or alias, kept alive while sending
    Term port = 0;
    bool exists = true;             // false: a pid that names no process
    bool badarg = false;
    bool remote = false;            // another node's: the distribution delivers it
    if (is_pid(dest)) {
        to = find_process(dest);
        exists = to != nullptr;
    } else if (is_port(dest)) {
        port = dest;
    } else if (is_atom(dest)) {
        held = whereis(dest);
        to = held.get();
        if (!to) {
            port = whereis_id(dest);
            port_mode = PortCommandMode::Force;  // a port by name never makes its sender wait
            if (!is_port(port)) port = 0, badarg = true;  // traced, then badarg (OTP)
        }
    } else if (is_tuple(dest) && tuple_arity(dest) == 2 && is_atom(tuple_element(dest, 0)) &&
               is_atom(tuple_element(dest, 1))) {
        // {Name, Node}: another node's name goes to the distribution (below); one on a node
        // that is not distributed is dropped, untraced (OTP). On this node an unregistered
        // name drops it silently.
        if (tuple_element(dest, 1) != this_node().name) {
            if (!services.dist || this_node().name == atoms::nonode_at_nohost) return SendResult::Sent;
            remote = true;
        } else {
            held = whereis(tuple_element(dest, 0));
            to = held.get();
        }
        if (!to && !remote) {
            port = whereis_id(tuple_element(dest, 0));
            port_mode = PortCommandMode::Force;
            if (!is_port(port)) port = 0;
        }
    } else if (is_ref(dest)) {
        held = alias_target(dest);
        to = held.get();
    } else if (is_external_pid(dest) || is_external_ref(dest)) {
        // Another node's process or alias: as {Name, Node} above. One of an earlier
        // incarnation of this node is gone: the message is lost.
        if (!services.dist || this_node().name == atoms::nonode_at_nohost || external_node(dest) == this_node().name)
            return SendResult::Sent;
        remote = true;
    } else {
        return SendResult::Badarg;  // not a destination: nothing is traced
    }

    // 2. The send event: the destination as written, before the message is enqueued (OTP).
    if (sender && (sender->all_trace_flags.load(std::memory_order_relaxed) & TRACE_SEND) && services.trace)
        services.trace->message_sent(sender, dest, msg, exists);
    if (badarg) return SendResult::Badarg;

    // 3. Delivery.
    if (port) return send_to_port(sender, port, msg, port_mode);
    // seq_trace: a sender with a token ticks its clock and the message carries the token. The
    // event names a registered name's process, but an alias as the alias (OTP).
    Term seq_to = to && !is_ref(dest) ? to->id : dest;
    Term token = sender ? (sender->seq_token != NIL ? seq_trace_send(sender, seq_to, msg) : NIL) : 0;
    if (remote) {
        // A busy connection makes its sender wait, as a busy port does (OTP's busy_dist_port).
        bool may_wait = sender && port_mode == PortCommandMode::Normal;
        bool wait = is_tuple(dest) ? services.dist->send(sender, tuple_element(dest, 0), tuple_element(dest, 1), msg, token, may_wait)
                                   : services.dist->send(sender, dest, 0, msg, token, may_wait);
        return wait ? SendResult::Suspend : SendResult::Sent;
    }
    if (!to) return SendResult::Sent;  // sending to a dead process succeeds silently
    Message m;
    // Between processes (a scheduler thread, so that a literal release's thread-progress step
    // covers the copy) literals are shared, as on OTP.
    Literals literals = sender ? Literals::shared() : Literals::copied();
    fill_with_token(m, msg, token, sender ? sender->seq_epoch : 0, literals);
    m.from = sender ? sender->id : 0;
    send_signal(to, m);
    return SendResult::Sent;
}

void Vm::deliver_from_node(Term dest, Message m) {
    std::shared_ptr<Process> to;
    if (is_pid(dest)) to = lookup_process(dest);
    else if (is_atom(dest)) to = whereis(dest);
    else if (is_ref(dest)) to = alias_target(dest);
    if (!to) {
        free_fragment(m.fragment);
        return;
    }
    send_signal(to.get(), m);
}

void Vm::send_link_event(Term from, Process* to, bool linked) {
    if (!(to->all_trace_flags.load(std::memory_order_relaxed) & TRACE_PROCS)) return;
    Message m;
    m.kind = linked ? SignalKind::Link : SignalKind::Unlink;
    m.from = from;
    m.term = NIL;
    m.fragment = nullptr;
    send_signal(to, m);
}

namespace {

// An io request that reads: get_chars, get_line, get_until, get_password, or {requests, [...]}
// holding one of them.
bool reads_input(Term request) {
    static const Term am_requests = atom("requests"), am_get_chars = atom("get_chars"),
                      am_get_line = atom("get_line"), am_get_until = atom("get_until"),
                      am_get_password = atom("get_password");
    if (is_atom(request)) return request == am_get_password;
    if (!is_tuple(request) || tuple_arity(request) == 0) return false;
    Term op = tuple_element(request, 0);
    if (op == am_requests && tuple_arity(request) == 2) {
        for (Term l = tuple_element(request, 1); is_list(l); l = cdr(l))
            if (reads_input(car(l))) return true;
        return false;
    }
    return op == am_get_chars || op == am_get_line || op == am_get_until || op == am_get_password;
}

}  // namespace

bool is_input_request(Term msg) {
    static const Term am_io_request = atom("io_request");
    return is_tuple(msg) && tuple_arity(msg) == 4 && tuple_element(msg, 0) == am_io_request &&
           reads_input(tuple_element(msg, 3));
}

void Vm::start_stdin_input() {
    std::shared_ptr<Port> port;
    {
        std::lock_guard guard(stdin_on_demand.mutex);
        if (stdin_on_demand.server.exchange(0, std::memory_order_relaxed) == 0) return;
        port = stdin_on_demand.port.lock();
        stdin_on_demand.port.reset();
    }
    if (port) port->io_ready(IO_START_INPUT);
}

void Vm::send_exit(Term from, Term to_pid, Term reason, bool linked, Term seq_token, Word seq_epoch) {
    if (is_port(to_pid)) {
        // A port acts on the signal at once, in this thread (vm/port.hpp).
        if (std::shared_ptr<Port> port = port_table->lookup(to_pid)) port->exit_signal(from, reason, linked);
        return;
    }
    if (is_external_pid(to_pid)) {
        if (services.dist) services.dist->exit_signal(from, to_pid, reason, linked, seq_token);
        return;
    }
    std::shared_ptr<Process> to = lookup_process(to_pid);
    if (!to) return;
    Message m;
    m.kind = SignalKind::Exit;
    m.from = from;
    m.linked = linked;
    // The token travels with the signal, into the 'EXIT' message it may become.
    fill_with_token(m, reason, seq_token, seq_epoch);
    send_signal(to.get(), m);
}

void Vm::release_literals(LiteralRelease* job) {
    // From now on messages copy the area's literals; once every scheduler has passed a quiescent point,
    // no message that shares one is still being made, and every process is asked to copy
    // what it holds of the area: on its heap and in its message queue.
    literal_release_begin(job);
    after_thread_progress([this, job] {
        std::vector<Term> ids = process_ids();
        job->pending.store(ids.size() + 1, std::memory_order_relaxed);
        for (Term id : ids) {
            std::shared_ptr<Process> p = lookup_process(id);
            Message m;
            m.kind = SignalKind::CopyLiterals;
            m.term = reinterpret_cast<Word>(job);
            m.fragment = nullptr;
            if (!p || !send_signal(p.get(), m)) literal_release_done(job);
        }
        literal_release_done(job);
    });
}

void Vm::release_module_literals(Module& module) {
    if (module.literal_lo == module.literal_hi && !module.literal_off_heap) return;
    auto* job = new LiteralRelease;
    job->lo = module.literal_lo;
    job->hi = module.literal_hi;
    job->off_heap_first = module.literal_off_heap;
    module.literal_off_heap = nullptr;  // the release's now
    Term collector = literal_area_collector.load(std::memory_order_acquire);
    if (!collector || !lookup_process(collector)) {
        release_literals(job);
        return;
    }
    job->pending.store(1, std::memory_order_relaxed);  // done at the collector's next switch
    {
        std::lock_guard lock(m_literal_mutex);
        m_literal_queue.push_back(job);
    }
    static const Term am_copy_literals = atom("copy_literals");
    send_message(nullptr, collector, am_copy_literals);
}

bool Vm::switch_literal_area() {
    LiteralRelease* done;
    LiteralRelease* next = nullptr;
    {
        std::lock_guard lock(m_literal_mutex);
        done = m_literal_area;
        if (!m_literal_queue.empty()) {
            next = m_literal_queue.front();
            m_literal_queue.pop_front();
        }
        m_literal_area = next;
    }
    // Every process has copied what it held of the area: its off-heap objects go.
    if (done) literal_release_done(done);
    // From now on messages and spawns copy the area's literals (the caller waits for thread
    // progress before it asks anyone to copy: no message that shares one is still being made).
    if (next) literal_release_begin(next);
    return next != nullptr;
}

LiteralRelease* Vm::literal_area_being_released() {
    std::lock_guard lock(m_literal_mutex);
    return m_literal_area;
}

void Vm::copy_released_literals_in_queue(Process* p, const LiteralRelease& job) {
    auto in_area = [&](Term w) {
        if (!is_list(w) && !is_boxed(w)) return false;
        const Term* ptr = is_list(w) ? list_ptr(w) : boxed_ptr(w);
        return ptr >= job.lo && ptr < job.hi;
    };
    p->queue.for_each([&](Message& m) {
        bool holds = in_area(m.term) || in_area(m.seq_token);
        if (HeapFragment* f = m.fragment; f && !holds)
            holds = std::any_of(f->data, f->data + f->used_words, in_area);
        if (!holds) return;
        Message copy;
        fill_with_token(copy, m.term, m.seq_token, m.seq_epoch);
        free_fragment(m.fragment);
        m.term = copy.term;
        m.fragment = copy.fragment;
        m.seq_token = copy.seq_token;
    });
}

void Vm::process_signals(Process* p, bool in_bif) {
    // The inbox's buffer and a spare trade places, so that no signal costs an allocation.
    // A batch of messages only cannot end the process: then is_process_alive/1's fast answer
    // stays right and the lock is taken once.
    std::vector<Message> signals = std::move(p->inbox_spare);
    bool with_signals;
    {
        std::lock_guard guard(p->lock);
        signals.swap(p->inbox);
        p->task_priority.store(Priority::Low, std::memory_order_relaxed);
        with_signals = p->inbox_signals.load(std::memory_order_relaxed) != 0;
        p->inbox_signals.store(0, std::memory_order_relaxed);
        p->signals_in_hand = with_signals;
    }
    if (!signals.empty()) handle_signals(p, signals, in_bif);
    if (with_signals) {
        std::lock_guard guard(p->lock);
        p->signals_in_hand = false;
        p->exit_decided = p->pending_exit != 0;
    }
    signals.clear();
    p->inbox_spare = std::move(signals);
}

void Vm::handle_signals(Process* p, std::vector<Message>& signals, bool in_bif) {
    // Everything is handled in arrival order: messages join the queue, signals act; system
    // tasks run last, by priority (run_system_tasks).
    std::vector<Message> deferred, tasks;
    for (Message& s : signals) {
        if (s.kind == SignalKind::Message) {
            p->queue_message(s);
            continue;
        }
        bool collects = s.kind == SignalKind::GcRequest || s.kind == SignalKind::SystemTask || s.kind == SignalKind::CopyLiterals;
        if (in_bif && collects) {
            deferred.push_back(s);
            continue;
        }
        switch (s.kind) {
        case SignalKind::Exit: {
            if (s.linked) {
                bool had_link;
                {
                    std::lock_guard guard(p->lock);
                    had_link = remove_pid(p->links, s.from);
                }
                if (!had_link) {  // the link is gone: the signal is void
                    free_fragment(s.fragment);
                    continue;
                }
                // The link is gone; the event only if this process survives the signal (OTP).
                bool survives = p->trap_exit || (s.term == atoms::normal && s.from != p->id);
                if (survives && (p->all_trace_flags.load(std::memory_order_relaxed) & TRACE_PROCS) && services.trace)
                    services.trace->process_event(p, atoms::getting_unlinked, s.from);
            }
            Term reason = s.term;
            if (p->pending_exit) {
                free_fragment(s.fragment);
                continue;
            }
            if (reason == atoms::kill && !s.linked) {
                p->pending_exit = atoms::killed;
                free_fragment(s.fragment);
            } else if (p->trap_exit) {
                // {'EXIT', From, Reason} as a message, after the messages already queued; it
                // carries the signal's seq_trace token.
                Term msg;
                HeapFragment* frag;
                Term token = 0;
                if (s.seq_token == 0 || s.seq_token == NIL) {
                    frag = make_tuple_fragment({atoms::EXIT, s.from, reason}, &msg);
                    token = s.seq_token;
                } else {
                    Term exit_words[4] = {make_arityval(3), atoms::EXIT, s.from, reason};
                    Term both;
                    frag = make_tuple_fragment({make_boxed(exit_words), s.seq_token}, &both);
                    msg = tuple_element(both, 0);
                    token = tuple_element(both, 1);
                }
                free_fragment(s.fragment);
                Message exit_message{msg, frag};
                exit_message.from = s.from;
                exit_message.seq_token = token;
                exit_message.seq_epoch = s.seq_epoch;
                p->message_count.fetch_add(1, std::memory_order_relaxed);
                p->queue_message(exit_message);
            } else if (reason != atoms::normal || s.from == p->id) {
                // The reason must outlive the fragment: keep the fragment with the process.
                p->pending_exit = reason;
                if (s.fragment) {
                    s.fragment->next = p->mbuf;
                    p->mbuf = s.fragment;
                    p->mbuf_words += s.fragment->size_words;
                }
            } else {
                free_fragment(s.fragment);
            }
            break;
        }
        case SignalKind::Link:
            // The hook first gives the flags set_on_link passed on with the link (they may have
            // been turned off since: erts applies them only now), then traces getting_linked.
            if (services.trace) services.trace->process_event(p, atoms::getting_linked, s.from);
            break;
        case SignalKind::Unlink:
            if ((p->all_trace_flags.load(std::memory_order_relaxed) & TRACE_PROCS) && services.trace)
                services.trace->process_event(p, atoms::getting_unlinked, s.from);
            break;
        case SignalKind::GcRequest: {
            if (p->gc_disabled) {
                p->delayed_gc.push_back(s);
                break;
            }
            // Signals are handled before the process runs: its live registers are saved.
            garbage_collect(p, p->saved_x.data(), p->arity, 0, true);
            reply_to(s.from, s.term, atoms::true_);
            free_fragment(s.fragment);
            break;
        }
        case SignalKind::SystemTask:
            tasks.push_back(s);  // run after the batch, by priority
            break;
        case SignalKind::CopyLiterals: {
            auto* job = reinterpret_cast<LiteralRelease*>(s.term);
            if (!p->pending_exit) {
                garbage_collect_literals(p, p->saved_x.data(), p->arity, *job);
                copy_released_literals_in_queue(p, *job);
            }
            literal_release_done(job);
            break;
        }
        case SignalKind::InfoRequest: {
            // {Ref, Item}: answered by the info hook (bif/erlang_process.cpp) in this thread;
            // behind an exit signal that ends the process, as by a process that is gone.
            if (services.answer_info_request)
                services.answer_info_request(*this, p->pending_exit ? nullptr : p, s.from, s.term);
            free_fragment(s.fragment);
            break;
        }
        case SignalKind::Message:
            break;
        }
    }
    run_system_tasks(p, tasks);
    if (!deferred.empty()) {
        std::lock_guard guard(p->lock);
        p->inbox.insert(p->inbox.begin(), deferred.begin(), deferred.end());
        p->inbox_signals.fetch_add(std::uint32_t(deferred.size()), std::memory_order_relaxed);
        for (const Message& s : deferred)
            if (s.priority < p->task_priority.load(std::memory_order_relaxed))
                p->task_priority.store(s.priority, std::memory_order_relaxed);
    }
}

void Vm::report_crash(Process* p, Term reason) {
    if (system_logger() == atoms::logger && !whereis(atoms::logger)) {
        if (!services.print_term) return;
        std::string text = "=ERROR REPORT==== " + timestamp_now() + " ===\nError in process " +
                           services.print_term(p->id, 1) + " with exit value:\n" + services.print_term(reason, 1) + "\n\n";
        std::fputs(text.c_str(), stderr);
        return;
    }
    Term args = make_cons_on(p->alloc(2), reason, NIL);
    args = make_cons_on(p->alloc(2), p->id, args);
    log_error(p, "Error in process ~p with exit value:~n~p~n", args);
}

void Vm::report_max_heap_size(Process* p) {
    Word total = p->max_heap_reached;
    p->max_heap_reached = 0;
    if (!p->max_heap.error_logger) return;
    // OTP's report, with beamlet's own collector figures as the GC info.
    auto pair = [p](const char* key, Word value) {
        Term* hp = p->alloc(3);
        hp[0] = make_arityval(2);
        hp[1] = atom(key);
        hp[2] = make_small(SWord(value));
        return make_boxed(hp);
    };
    Term gc_info = NIL;
    Term items[] = {pair("old_heap_block_size", Word(p->old_hend - p->old_heap)),
                    pair("heap_block_size", p->heap_size_words),
                    pair("mbuf_size", p->mbuf_words),
                    pair("stack_size", Word(p->hend - p->stop)),
                    pair("old_heap_size", Word(p->old_htop - p->old_heap)),
                    pair("heap_size", Word(p->htop - p->heap))};
    for (std::size_t i = std::size(items); i-- > 0;) gc_info = make_cons_on(p->alloc(2), items[i], gc_info);
    Term values[] = {p->id,
                     make_small(SWord(p->max_heap.size)),
                     make_small(SWord(total)),
                     p->max_heap.kill ? atoms::true_ : atoms::false_,
                     atoms::true_,
                     make_small(SWord(p->message_count.load(std::memory_order_relaxed))),
                     gc_info};
    Term args = NIL;
    for (std::size_t i = std::size(values); i-- > 0;) args = make_cons_on(p->alloc(2), values[i], args);
    log_error(p,
              "     Process:            ~p ~n"
              "     Context:            maximum heap size reached~n"
              "     Max Heap Size:      ~p~n"
              "     Total Heap Size:    ~p~n"
              "     Kill:               ~p~n"
              "     Error Logger:       ~p~n"
              "     Message Queue Len:  ~p~n"
              "     GC Info:            ~p~n",
              args);
}

namespace {
std::atomic<Term> g_system_logger{0};  // 0: the atom logger
}  // namespace

Term system_logger() {
    Term logger = g_system_logger.load(std::memory_order_acquire);
    return logger ? logger : atoms::logger;
}

Term set_system_logger(Term logger) {
    if (logger != atoms::logger && logger != atoms::undefined && !is_pid(logger)) return THE_NON_VALUE;
    Term previous = g_system_logger.exchange(logger == atoms::logger ? 0 : logger, std::memory_order_acq_rel);
    return previous ? previous : atoms::logger;
}

void Vm::log_report(Process* p, bool warning, std::string_view format, Term args) {
    // {log, error | warning, Format, Args, Meta} to the system logger (the logger process unless
    // erlang:system_flag(system_logger, _) said otherwise), as erts sends it; built on [p]'s
    // heap (a BIF's caller, or a dying process: still ours) and copied by the send.
    Term to = system_logger();
    if (to == atoms::undefined) return;
    std::shared_ptr<Process> logger = is_pid(to) ? lookup_process(to) : nullptr;
    if (is_pid(to) && !logger) g_system_logger.compare_exchange_strong(to, 0);  // gone: back to logger
    if (!logger) logger = whereis(atoms::logger);
    if (!logger) {
        std::fprintf(stderr, "=%s REPORT==== %s ===\n%.*s\n", warning ? "WARNING" : "ERROR", timestamp_now().c_str(),
                     int(format.size()), format.data());
        return;
    }
    Term fmt = NIL;
    for (std::size_t i = format.size(); i-- > 0;) fmt = make_cons_on(p->alloc(2), make_small(format[i]), fmt);
    auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
    Term level = warning ? atom("warning") : atoms::error;
    Term el = map_from_pairs(p, {{atom("tag"), warning ? atom("warning_msg") : atoms::error}, {atom("emulator"), atoms::true_}});
    Term gl = p->group_leader.load();
    Term meta = map_from_pairs(p, {{atom("error_logger"), el},
                                   {atom("pid"), p->id},
                                   {atom("gl"), gl ? gl : p->id},
                                   {atom("time"), make_small(micros)}});
    Term* hp = p->alloc(6);
    hp[0] = make_arityval(5);
    hp[1] = atom("log");
    hp[2] = level;
    hp[3] = fmt;
    hp[4] = args;
    hp[5] = meta;
    send_message(nullptr, logger->id, make_boxed(hp));
}

void Vm::suspend(Process* by, Process* target, bool add, Term reply_tag) {
    static const Term am_suspended = atom("suspended");
    bool active;
    {
        std::lock_guard guard(target->lock);
        auto& v = target->suspenders;
        auto it = std::find_if(v.begin(), v.end(), [&](const auto& e) { return e.by == by->id; });
        if (add) {
            if (it != v.end()) ++it->count;
            else it = v.insert(v.end(), Process::Suspension{by->id, 1, false});
        }
        // Off its scheduler with nothing in its inbox, the process is suspended at once (OTP
        // suspends a signal-free process under its locks); otherwise when its scheduler next
        // looks (Schedulers::run_one), after the signals before the suspension.
        if (target->state != ProcessState::Running && target->inbox.empty())
            for (auto& s : v) s.active = true;
        active = it != v.end() && it->active;
        if (reply_tag && !active) {
            Term tag;
            HeapFragment* frag = copy_to_fragment(reply_tag, &tag);
            target->suspend_replies.push_back({by->id, tag, frag});
        }
    }
    if (reply_tag && active) {
        Term words[3] = {make_arityval(2), reply_tag, am_suspended};
        send_message(nullptr, by->id, make_boxed(words));
    }
    if (add && std::find(by->suspending.begin(), by->suspending.end(), target->id) == by->suspending.end())
        by->suspending.push_back(target->id);
}

void Vm::send_suspend_replies(const std::vector<Process::SuspendReply>& replies, Term result) {
    for (const Process::SuspendReply& r : replies) {
        Term words[3] = {make_arityval(2), r.tag, result};
        send_message(nullptr, r.to, make_boxed(words));
        free_fragment(r.fragment);
    }
}

bool Vm::unsuspend(Term by, Process* target, bool all) {
    bool enqueue = false;
    {
        std::lock_guard guard(target->lock);
        auto& v = target->suspenders;
        auto it = std::find_if(v.begin(), v.end(), [&](const auto& e) { return e.by == by; });
        if (it == v.end()) return false;
        if (all || --it->count == 0) v.erase(it);
        if (v.empty() && target->parked) {
            target->parked = false;
            target->state = ProcessState::Runnable;
            enqueue = true;
        }
    }
    if (enqueue) schedulers->enqueue(target);
    return true;
}

void Vm::send_down(const MonitorEntry& m, Term type, Term who, Term reason) {
    if (m.remote_ref) {  // a remote process's monitor: the 'DOWN' goes back over the wire
        if (services.dist) services.dist->monitor_exit(m, who, reason);
        return;
    }
    std::shared_ptr<Process> watcher = lookup_process(m.other);
    if (!watcher) return;
    Term ref_words[REF_WORDS];
    Term ref = ref_on(ref_words, m.ref_id);
    Term from = who;
    Term name_tuple[3] = {make_arityval(2), m.name, m.node ? m.node : this_node().name};
    if (m.name) who = make_boxed(name_tuple);
    Message msg;
    msg.fragment = make_tuple_fragment({m.tag ? m.tag : atoms::DOWN, ref, type, who, reason}, &msg.term);
    msg.from = from;
    bool enqueue = false, delivered = false;
    {
        std::lock_guard guard(watcher->lock);
        if (watcher->state != ProcessState::Exited && watcher->monitors.take(m.ref_id)) {
            watcher->message_count.fetch_add(1, std::memory_order_relaxed);
            watcher->inbox.push_back(msg);
            enqueue = wake_locked(watcher.get());
            delivered = true;
        }
    }
    if (!delivered) free_fragment(msg.fragment);
    if (enqueue) schedulers->enqueue(watcher.get());
}

void Vm::do_exit(Process* p, Term reason) {
    // The table holds the last reference: keep the process alive until this function is done.
    std::shared_ptr<Process> keep = lookup_process(p->id);
    if (p->max_heap_reached) report_max_heap_size(p);  // killed for it before its slice ended
    std::vector<Term> links;
    std::vector<MonitorEntry> monitored_by, monitors;
    Term name;
    bool has_bif_timers;
    {
        std::lock_guard guard(p->lock);
        p->exiting = true;
        p->state = ProcessState::Exited;
        links.swap(p->links);
        monitored_by.swap(p->monitored_by);
        monitors = p->monitors.take_all();
        name = p->registered_name;
        has_bif_timers = p->has_bif_timers;
    }
    if (has_bif_timers) timers->cancel_for_process(p->id);  // as OTP: they die with the process
    p->exited = true;
    p->exit_reason = reason;
    if (code_permission->held_by(p)) code_permission->release(p);
    remove_process(p);
    if ((p->all_trace_flags.load(std::memory_order_relaxed) & TRACE_PROCS) && services.trace) {
        services.trace->process_event(p, atoms::exit, reason);
        if (name) services.trace->process_event(p, atoms::unregister, name);
    }

    // The crash report of an uncaught error, which OTP's emulator hands to the logger.
    if ((p->exception.cls == atoms::error || p->exception.cls == atoms::throw_) && !p->is_main)
        report_crash(p, reason);

    // (Its ETS tables have gone to their heirs, whose 'ETS-TRANSFER' arrives before any
    // 'EXIT' or 'DOWN' as in OTP, or been deleted: Schedulers::finish, a slice at a time.)

    if (p->blocks_scheduling.load(std::memory_order_relaxed)) {
        std::unique_lock guard(multi_scheduling.mutex);
        std::erase(multi_scheduling.all, p->id);
        std::erase(multi_scheduling.normal, p->id);
        guard.unlock();
        multi_scheduling_change(nullptr, false, false);
    }

    // A system monitor ends with its process.
    if (system_monitors.active()) system_monitors.remove_if_receiver(SystemMonitors::LEGACY, p->id);
    // Its suspensions of other processes end with it (OTP).
    for (Term pid : p->suspending)
        if (std::shared_ptr<Process> target = lookup_process(pid)) unsuspend(p->id, target.get(), true);
    p->suspending.clear();
    // Suspensions of it asked while it ran and never in effect.
    static const Term am_exited = atom("exited");
    std::vector<Process::SuspendReply> suspend_replies;
    {
        std::lock_guard guard(p->lock);
        suspend_replies.swap(p->suspend_replies);
    }
    send_suspend_replies(suspend_replies, am_exited);
    // The native objects that monitor it hear of its exit (prim_file closes the files it owns).
    std::vector<MagicHandle*> resources;
    {
        std::lock_guard guard(p->lock);
        resources.swap(p->resource_monitors);
    }
    for (MagicHandle* h : resources) {
        if (h->down) h->down(h, p->id);
        h->release();
    }

    for (Term pid : links) {
        if (is_port(pid)) {
            send_exit(p->id, pid, reason, true);
            continue;
        }
        // With a seq_trace token, each exit signal is a traced send of {'EXIT', Pid, Reason}.
        Term token = 0;
        if (p->seq_token != NIL) {
            Term exit_words[4] = {make_arityval(3), atoms::EXIT, p->id, reason};
            token = seq_trace_send(p, pid, make_boxed(exit_words));
        }
        send_exit(p->id, pid, reason, true, token, p->seq_epoch);
    }
    for (const MonitorEntry& m : monitored_by)
        send_down(m, atoms::process, p->id, m.after_kill ? atoms::noproc : reason);
    // Monitors this process held are dropped from their targets.
    for (const MonitorEntry& m : monitors) {
        if (m.node) {  // on another node: the monitor is dropped there
            if (services.dist) services.dist->demonitor(p->id, m);
            continue;
        }
        if (is_port(m.other)) {
            if (std::shared_ptr<Port> port = port_table->lookup(m.other)) port->remove_monitor(m.ref_id, true);
            continue;
        }
        std::shared_ptr<Process> target = lookup_process(m.other);
        if (!target) continue;
        std::lock_guard guard(target->lock);
        erase_monitor(target->monitored_by, m.ref_id);
    }
    // Pending info requests get 'undefined', as if the process had been dead already; so do
    // the collections it delayed.
    std::vector<Message> rest = std::move(p->delayed_gc);
    {
        std::lock_guard guard(p->lock);
        rest.insert(rest.end(), p->inbox.begin(), p->inbox.end());
        p->inbox.clear();
        p->inbox_signals.store(0, std::memory_order_relaxed);
    }
    for (Message& m : rest) {
        if (m.kind == SignalKind::InfoRequest && services.answer_info_request)
            services.answer_info_request(*this, nullptr, m.from, m.term);
        if (m.kind == SignalKind::GcRequest) reply_to(m.from, m.term, atoms::false_);
        if (m.kind == SignalKind::CopyLiterals) literal_release_done(reinterpret_cast<LiteralRelease*>(m.term));
        if (m.kind == SignalKind::SystemTask) run_system_task(nullptr, m);
        else free_fragment(m.fragment);
    }
}

void Vm::start_receive_timer(Process* p, std::uint64_t timeout_ms) {
    std::uint64_t seq;
    {
        std::lock_guard guard(p->lock);
        seq = ++p->timer_seq;
    }
    if (timeout_ms != NO_TIMEOUT) timers->arm_receive_timeout(p->id, seq, timeout_ms);
}

}  // namespace beamlet::vm
