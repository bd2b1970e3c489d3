// bif/erlang_process_info.cpp — process_info/1,2: asked of the process itself, answered at
// once; of another, as a signal that process answers on its own thread (answer_info_request).
#include <cctype>
#include <algorithm>

#include "bif/bifs.hpp"
#include "bif/process_bifs.hpp"
#include "vm/node.hpp"
#include "vm/port.hpp"
#include "vm/port_table.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/copy.hpp"
#include "vm/entry_code.hpp"
#include "vm/stack_trace.hpp"
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

Term list_of(Process* p, std::initializer_list<Term> elements) {
    Term l = NIL;
    for (auto it = std::rbegin(elements); it != std::rend(elements); ++it) l = make_cons_on(p->alloc(2), *it, l);
    return l;
}

// The value of [item] for [p], computed on [p]'s own thread (or for itself). [status] is what
// the status item reports. THE_NON_VALUE for an unknown item. [mbuf_words]: the words in
// [p]'s heap fragments before the answer was begun (its own terms are not [p]'s).
Term info_value(Process* p, Term item, Term status, bool in_list, Word mbuf_words) {
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
    } else if (item == am_current_function && p->ip == trap_resume_code() && p->trapped_in) {
        // Between two slices of a trapping BIF: that BIF, as OTP's shows.
        const Export* bif = p->trapped_in;
        v = make_tuple_on(p, {bif->module, bif->function, make_small(SWord(bif->arity))});
    } else if (item == am_current_function) {
        const Word* at = p->ip;
        const Module* m = p->vm.module_containing(at);
        if (!m) {
            // Asked through a BIF's export trampoline (the BIF is traced): the caller, past the
            // trace frames over its continuation.
            for (const Word* ret : return_addresses(p, 4))
                if ((m = p->vm.module_containing(ret))) {
                    at = ret - 1;
                    break;
                }
        }
        const FunctionInfo* f = m ? m->function_at(at) : nullptr;
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
        std::vector<Term> pids, names;  // a monitor by name: its name (else 0)
        {
            std::lock_guard guard(p->lock);
            if (item == am_links) {
                pids = p->links;
            } else if (item == am_monitors) {
                for (const MonitorEntry& m : p->monitors.in_order()) {
                    pids.push_back(m.other);
                    names.push_back(m.name);
                }
            } else {
                for (auto& m : p->monitored_by) pids.push_back(m.other);
            }
        }
        v = NIL;
        for (std::size_t i = pids.size(); i-- > 0;) {
            Term e = pids[i];
            // monitors: {process, Pid}, or {process, {Name, Node}} for one made by name.
            if (item == am_monitors && names[i]) e = make_tuple_on(p, {names[i], this_node().name});
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
        v = make_small(SWord(p->heap_size_words + Word(p->old_hend - p->old_heap) + mbuf_words +
                             p->on_heap_message_words()));
    } else if (item == am_stack_size) {
        v = make_small(SWord(p->stack_used_words()));
    } else if (item == atom("max_heap_size")) {
        v = max_heap_size_term(p, p->max_heap);
    } else if (item == am_reductions) {
        // Asked by the process itself: with its time slice so far.
        BEAMLET_CACHED_ATOM(am_running, "running");
        SWord slice = status == am_running ? CONTEXT_REDS - p->slice_reds : 0;
        v = make_small(p->reductions + std::max<SWord>(slice, 0));
    } else if (item == am_memory) {
        v = make_small(SWord(p->heap_size_words * 8 + 1000));
    } else if (item == atom("sequential_trace_token")) {
        v = seq_token_copy(p);
    } else if (item == am_priority) {
        v = priority_atom(p->priority.load(std::memory_order_relaxed));
    } else if (item == am_error_handler) {
        v = atoms::error_handler;
        for (auto& [f, value] : p->kept_flags)
            if (f == item) v = value;
    } else if (item == am_group_leader) {
        Term gl = p->group_leader.load();
        v = gl ? gl : p->id;
    } else if (item == am_current_stacktrace) {
        v = current_stacktrace(p);
    } else if (item == am_garbage_collection) {
        v = list_of(p, {make_tuple_on(p, {atom("max_heap_size"), max_heap_size_term(p, p->max_heap)}),
                        make_tuple_on(p, {atom("min_bin_vheap_size"), make_small(SWord(p->min_bin_vheap_size))}),
                        make_tuple_on(p, {atom("min_heap_size"), make_small(SWord(p->min_heap_words))}),
                        make_tuple_on(p, {atom("fullsweep_after"), make_small(SWord(p->fullsweep_after))}),
                        make_tuple_on(p, {atom("minor_gcs"), make_small(SWord(p->minor_gcs))})});
    } else if (item == atom("garbage_collection_info")) {
        // OTP's figures, in words; beamlet has no virtual binary heaps (their sizes are the
        // defaults, the young binaries' words as the used part).
        auto words = [&](const char* name, Word n) { return make_tuple_on(p, {atom(name), make_small(SWord(n))}); };
        v = list_of(p, {words("old_heap_block_size", Word(p->old_hend - p->old_heap)),
                        words("heap_block_size", p->heap_size_words), words("mbuf_size", mbuf_words),
                        words("recent_size", Word(p->htop - p->high_water)), words("stack_size", p->stack_used_words()),
                        words("old_heap_size", Word(p->old_htop - p->old_heap)), words("heap_size", Word(p->htop - p->heap)),
                        words("bin_vheap_size", p->young_binary_words), words("bin_vheap_block_size", p->min_bin_vheap_size),
                        words("bin_old_vheap_size", 0), words("bin_old_vheap_block_size", p->min_bin_vheap_size)});
    } else if (item == atom("min_heap_size")) {
        v = make_small(SWord(p->min_heap_words));
    } else if (item == atom("min_bin_vheap_size")) {
        v = make_small(SWord(p->min_bin_vheap_size));
    } else if (item == atom("fullsweep_after")) {
        v = make_small(SWord(p->fullsweep_after));
    } else if (item == atom("current_location")) {
        Term st = current_stacktrace(p);
        v = is_list(st) ? car(st) : make_tuple_on(p, {atoms::undefined, atoms::undefined, make_small(0), NIL});
    } else if (item == atom("catchlevel")) {
        SWord n = 0;
        for (const Term* s = p->stop; s < p->hend; ++s)
            if (is_catch(*s)) ++n;
        v = make_small(n);
    } else if (item == atom("binary") || item == atom("magic_ref")) {
        // {Address, Size, RefCount} for each off-heap binary (magic ref) the heap holds.
        bool bins = item == atom("binary");
        v = NIL;
        for (Term* obj = p->off_heap_first; obj; obj = reinterpret_cast<Term*>(obj[4])) {
            bool is_bin = header_subtag(obj[0]) == Subtag::RefcBin;
            if (is_bin != bins) continue;
            Term entry;
            if (is_bin) {
                auto* buf = reinterpret_cast<BinaryBuf*>(obj[2]);
                entry = make_tuple_on(p, {make_integer_u64(p, reinterpret_cast<std::uintptr_t>(buf)),
                                          make_small(SWord(buf->size_bytes)), make_small(SWord(buf->refc.load()))});
            } else {
                auto* handle = reinterpret_cast<MagicHandle*>(obj[5]);
                entry = make_tuple_on(p, {make_integer_u64(p, reinterpret_cast<std::uintptr_t>(handle)), make_small(0),
                                          make_small(1)});
            }
            v = make_cons_on(p->alloc(2), entry, v);
        }
    } else if (item == atom("trace")) {
        v = make_small(SWord(p->all_trace_flags.load(std::memory_order_relaxed) & 0x7ffffff));
    } else if (item == atom("last_calls")) {
        v = atoms::false_;  // save_calls is kept, not acted on
    } else if (item == atom("backtrace")) {
        // Not OTP's raw stack dump: the call chain, one line per frame.
        std::string text;
        Term st = current_stacktrace(p);
        for (Term l = st; is_list(l); l = cdr(l))
            text += p->vm.services.show(car(l), 1) + "\n";
        v = make_binary(p, text);
    } else if (item == atom("message_queue_data") || item == atom("async_dist")) {
        v = item == atom("async_dist") ? atoms::false_ : atom("on_heap");
        for (auto& [f, value] : p->kept_flags)
            if (f == item) v = value;
    } else if (item == atom("parent")) {
        v = p->parent ? p->parent : atoms::undefined;
    } else if (item == am_suspending) {
        // {Suspendee, ActiveCount, OutstandingCount}: a suspension asked while the suspendee
        // ran is outstanding until its scheduler parks it.
        struct Count {
            Term pid;
            Word n;
            bool active;
        };
        std::vector<Count> counts;
        for (Term pid : p->suspending)
            if (std::shared_ptr<Process> target = p->vm.lookup_process(pid)) {
                std::lock_guard guard(target->lock);
                for (const auto& s : target->suspenders)
                    if (s.by == p->id && s.count > 0) counts.push_back({pid, s.count, s.active});
            }
        v = NIL;
        for (auto it = counts.rbegin(); it != counts.rend(); ++it) {
            Term n = make_small(SWord(it->n)), none = make_small(0);
            v = make_cons_on(p->alloc(2), make_tuple_on(p, {it->pid, it->active ? n : none, it->active ? none : n}), v);
        }
    } else {
        return THE_NON_VALUE;
    }
    return make_tuple_on(p, {item, v});
}

// The value for a list of items or a single item.
Term info_answer(Process* p, Term what, Term status, bool* bad) {
    *bad = false;
    Word mbuf_words = p->mbuf_words;
    if (is_atom(what)) {
        Term v = info_value(p, what, status, false, mbuf_words);
        if (v == THE_NON_VALUE) *bad = true;
        return v;
    }
    std::vector<Term> values;
    for (Term l = what; is_list(l); l = cdr(l)) {
        Term v = info_value(p, car(l), status, true, mbuf_words);
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

// process_info/1's answer: {registered_name, Name} first when [p] has a name (OTP leaves the
// item out otherwise), then the items of info_items().
Term info_all(Process* p, Term status) {
    BEAMLET_CACHED_ATOM(am_registered_name, "registered_name");
    Term l = NIL;
    for (auto it = info_items().rbegin(); it != info_items().rend(); ++it) l = make_cons_on(p->alloc(2), *it, l);
    bool named;
    {
        std::lock_guard guard(p->lock);
        named = p->registered_name != 0;
    }
    if (named) l = make_cons_on(p->alloc(2), am_registered_name, l);
    bool bad;
    return info_answer(p, l, status, &bad);
}

// The items process_info/2 knows (OTP 25's): any other is badarg, whoever is asked.
const std::vector<Term>& known_items() {
    static const std::vector<Term> known = [] {
        std::vector<Term> v;
        for (const char* name :
             {"registered_name", "current_function", "initial_call", "status", "messages", "message_queue_len", "links",
              "monitors", "monitored_by", "dictionary", "trap_exit", "error_handler", "heap_size", "stack_size", "memory",
              "garbage_collection", "group_leader", "reductions", "priority", "trace", "binary", "sequential_trace_token",
              "catchlevel", "backtrace", "last_calls", "total_heap_size", "suspending", "min_heap_size",
              "min_bin_vheap_size", "max_heap_size", "magic_ref", "fullsweep_after", "garbage_collection_info",
              "current_location", "current_stacktrace", "message_queue_data", "parent", "async_dist"})
            v.push_back(atom(name));
        return v;
    }();
    return known;
}

bool known_item(Term item) { return std::find(known_items().begin(), known_items().end(), item) != known_items().end(); }

bool valid_items(Term what) {
    if (is_atom(what)) return known_item(what);
    if (!is_proper_list(what)) return false;
    for (Term l = what; is_list(l); l = cdr(l))
        if (!is_atom(car(l)) || !known_item(car(l))) return false;
    return true;
}

}  // namespace

Term process_info_args(Process* p) {
    Term l = NIL;
    for (auto it = known_items().rbegin(); it != known_items().rend(); ++it) l = make_cons_on(p->alloc(2), *it, l);
    return l;
}

// Asks [target] for [what] with a signal; the caller continues in erts_internal:await_result/1 (OTP's).
Term request_process_info(Process* p, Term* a, Term target, Term what, Term if_dead, Priority priority) {
    Word id[3];
    new_ref_id(p, id);
    Term ref = make_ref_term(p, id);
    std::shared_ptr<Process> other = p->vm.lookup_process(target);
    if (!other) return if_dead;
    Term request = make_tuple_on(p, {ref, what});
    Message m;
    m.kind = SignalKind::InfoRequest;
    m.from = p->id;
    m.priority = priority;
    Word size = term_size_words(request);
    m.fragment = HeapFragment::create(size);
    Term* hp = m.fragment->data;
    m.term = copy_term(request, &hp, &m.fragment->off_heap_first);
    m.fragment->used_words = size;
    if (!p->vm.send_signal(other.get(), m)) return if_dead;
    const Export* await = p->vm.exports.get(atom("erts_internal"), atom("await_result"), 1);
    a[0] = ref;
    p->ip = await->address();
    p->exception = PendingException{};
    return THE_NON_VALUE;  // trap: continue in erts_internal:await_result(Ref)
}

namespace {
// Inside erts_debug:dirty_cpu/dirty_io's task (beamlet_internal:dirty_task/2): on erts the
// process is then on a dirty scheduler, and reported running, whether it waits or yields here.
bool in_dirty_task(Process* p) {
    BEAMLET_CACHED_ATOM(am_beamlet_internal, "beamlet_internal");
    BEAMLET_CACHED_ATOM(am_dirty_task, "dirty_task");
    const Module* m = p->vm.module_containing(p->ip);
    if (!m || m->name != am_beamlet_internal) return false;
    const FunctionInfo* f = m->function_at(p->ip);
    return f && f->name == am_dirty_task;
}

// The status of a process answering an info request on its own thread, between two runs.
Term target_status(Process* p) {
    BEAMLET_CACHED_ATOM(am_waiting, "waiting");
    BEAMLET_CACHED_ATOM(am_runnable, "runnable");
    BEAMLET_CACHED_ATOM(am_suspended, "suspended");
    BEAMLET_CACHED_ATOM(am_running, "running");
    bool suspended;
    {
        std::lock_guard guard(p->lock);
        suspended = !p->suspenders.empty() || p->signal_only_wait.load(std::memory_order_relaxed);
    }
    if (suspended) return am_suspended;
    if (in_dirty_task(p)) return am_running;
    return p->woken_from_wait ? am_waiting : am_runnable;
}
}  // namespace

// Answers an info request on the target's own thread ([p] null: the target is dead). The
// reply is the runtime's, as OTP's: [p] is not traced as sending it.
void answer_info_request(Process* p, Term from, Term request, Vm& vm) {
    Term ref = tuple_element(request, 0), what = tuple_element(request, 1);
    Term answer = atoms::undefined;
    BEAMLET_CACHED_ATOM(am_check_process_code, "$check_process_code");
    BEAMLET_CACHED_ATOM(am_is_alive, "$is_alive");
    BEAMLET_CACHED_ATOM(am_all, "$all");
    if (what == am_is_alive) {
        answer = make_bool(p != nullptr);  // erlang:is_process_alive/1
    } else if (is_tuple(what) && tuple_element(what, 0) == atom("$save_calls")) {
        // erlang:process_flag(Pid, save_calls, N) (bif/erlang_process.cpp): the old value.
        answer = atoms::badarg;
        if (p) {
            Term args[2] = {atom("save_calls"), tuple_element(what, 1)};
            answer = bif_process_flag(p, args);
        }
    } else if (what == am_all && p) {
        // process_info/1 of another process.
        Process::AllocMark mark = p->alloc_mark();
        vm.reply_to(from, ref, info_all(p, target_status(p)));
        p->release_to(mark);
        return;
    } else if (is_tuple(what) && tuple_element(what, 0) == am_check_process_code) {
        // erlang:check_process_code/2 (bif/code_bifs.cpp), answered on the target's thread.
        Module* old = vm.find_old_module(tuple_element(what, 1));
        answer = make_bool(p && runs_code_of(p, old));
    } else if (p) {
        bool bad;
        Term status = target_status(p);
        // The answer is built on [p]'s heap and copied into the reply: it is not [p]'s data
        // (OTP builds it apart), and a hibernating process's heap stays its live size.
        Process::AllocMark mark = p->alloc_mark();
        Term value = info_answer(p, what, status, &bad);
        vm.reply_to(from, ref, bad ? atoms::undefined : value);
        p->release_to(mark);
        return;
    }
    vm.reply_to(from, ref, answer);
}

// process_info about oneself first handles the signals that have arrived (as OTP does), so
// that a link whose exit signal is in is already gone; an exit it decides takes effect as the
// BIF returns.
namespace {
void handle_own_signals(Process* p) {
    p->vm.process_signals(p, true);
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
    if (a[0] == p->id) {
        BEAMLET_CACHED_ATOM(am_running, "running");
        handle_own_signals(p);
        return info_all(p, am_running);
    }
    BEAMLET_CACHED_ATOM(am_all, "$all");
    return request_process_info(p, a, a[0], am_all, atoms::undefined);
}

}  // namespace beamlet::bif
