// bif/erts_debug_bifs.cpp — erts_debug's BIFs (kernel's erts_debug.beam has placeholder
// bodies for them): flat_size/1, size_shared/1, same/2, and the internal-state knobs OTP's own test suites turn on
// in their init_per_suite (erts_debug:set_internal_state(available_internal_state, true)).
// Only the knobs beamlet has a meaning for answer; the rest are badarg, as an unknown one is
// on erl, and all of them are undef until available_internal_state is set, as on erl.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include <fmt/format.h>

#include "bif/bifs.hpp"
#include "vm/map.hpp"
#include "vm/term_hash.hpp"
#include "vm/work_stack.hpp"
#include "bif/process_bifs.hpp"
#include "bif/term_format.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/copy.hpp"
#include "vm/map.hpp"
#include "vm/port.hpp"
#include "vm/port_table.hpp"
#include "vm/scheduler.hpp"

namespace beamlet::bif {

using namespace vm;

// erts_debug:flat_size(Term): its size in words, shared subterms counted each time.
Term bif_erts_debug_flat_size(Process*, Term* a) { return make_small(SWord(term_size_words(a[0]))); }

// erts_debug:size_shared(Term): its size in words, a subterm reached twice counted once.
Term bif_erts_debug_size_shared(Process*, Term* a) { return make_small(SWord(term_size_shared_words(a[0]))); }

// erts_debug:map_info(Map): a hashmap's trie, as erts describes it: [{depth, D}, {leafs, L},
// {bitmaps, B}, {arrays, A}] (nodes of fewer than 16 children are bitmaps, of 16 arrays; a
// collision tuple counts as a bitmap). badarg for a flatmap or anything else.
Term bif_erts_debug_map_info(Process* p, Term* a) {
    if (!is_map(a[0]) || is_flatmap(a[0])) return p->badarg();
    Word depth = 0, leafs = 0, bitmaps = 0, arrays = 0;
    WorkStack<std::pair<Term, Word>> pending(std::pair<Term, Word>{hashmap_root(a[0]), 0});
    while (!pending.empty()) {
        auto [node, level] = pending.back();
        pending.pop_back();
        depth = std::max(depth, level);
        if (is_list(node)) {
            ++leafs;
            continue;
        }
        const Term* obj = boxed_ptr(node);
        bool collision = header_subtag(obj[0]) == Subtag::Tuple;
        Word n = collision ? tuple_arity(node) : hash_node_children(obj);
        ++(n == 16 && !collision ? arrays : bitmaps);
        for (Word i = 0; i < n; ++i) pending.push_back({obj[(collision ? 1 : 2) + i], level + 1});
    }
    std::pair<const char*, Word> info[] = {{"depth", depth}, {"leafs", leafs}, {"bitmaps", bitmaps}, {"arrays", arrays}};
    Term list = NIL;
    for (auto it = std::rbegin(info); it != std::rend(info); ++it)
        list = make_cons_on(p->alloc(2), make_tuple_on(p, {atom(it->first), make_small(SWord(it->second))}), list);
    return list;
}

// erts_debug:same(A, B): the same term, not an equal copy (erts_debug:size/1 is OTP's Erlang
// over it).
Term bif_erts_debug_same(Process*, Term* a) { return make_bool(a[0] == a[1]); }

// erts_debug:set_internal_state(Knob, Value)
Term bif_erts_debug_set_internal_state(Process* p, Term* a) {
    static const Term am_available = atom("available_internal_state"), am_wait = atom("wait"),
                      am_sleep = atom("sleep"), am_block = atom("block");
    Vm& vm = p->vm;
    if (a[0] == am_available) {
        if (a[1] != atoms::true_ && a[1] != atoms::false_) return p->badarg();
        const bool on = a[1] == atoms::true_;
        if (on)  // as erts: a warning to the logger
            vm.log_warning(p,
                           "Process ~p enabled access to the emulator internal state.~n"
                           "NOTE: This is an erts internal test feature and should *only* be used by OTP "
                           "test-suites.~n~n",
                           make_cons_on(p->alloc(2), p->id, NIL));
        return make_bool(vm.internal_state_available.exchange(on));
    }
    if (!vm.internal_state_available.load()) return p->error(atoms::undef);
    // wait(deallocations | thread_progress | ...): beamlet frees memory as it goes; what is
    // left is the trace sessions whose handles were dropped, destroyed by the trace cleaner
    // process: the caller waits until it has caught up (OTP's erts_internal:await_result/1).
    if (a[0] == am_wait) {
        Term cleaner = vm.trace_cleaner.load();
        if (!cleaner || !vm.find_process(cleaner)) return atoms::ok;
        Term ref = p->new_ref();
        vm.send_message(nullptr, cleaner, make_tuple_on(p, {atom("sync"), p->id, ref}));
        a[0] = ref;
        p->ip = vm.exports.get(atom("erts_internal"), atom("await_result"), 1)->address();
        p->exception = PendingException{};
        return THE_NON_VALUE;  // trap: continue in erts_internal:await_result(Ref)
    }
    // sleep(Ms) and block(Ms): this scheduler thread stops for a while (block stops the whole
    // system on erl; here the other schedulers go on).
    // reds_left(N): the caller has N reductions left in its slice (taken into 1..4000, as
    // OTP's); its next calls count down from there.
    if (a[0] == atom("reds_left")) {
        if (!is_small(a[1])) return p->badarg();
        p->slice_reds = std::clamp<SWord>(small_value(a[1]), 1, CONTEXT_REDS);
        return atoms::true_;
    }
    // gc_state(Bool): the caller's collections on (true) or off; answers the previous state.
    // Collections asked for meanwhile (garbage_collect/1,2, system tasks) wait, and run once
    // it is back on (OTP's delayed GC requests).
    if (a[0] == atom("gc_state")) {
        if (a[1] != atoms::true_ && a[1] != atoms::false_) return p->badarg();
        bool was_enabled = !p->gc_disabled;
        p->gc_disabled = a[1] == atoms::false_;
        if (!p->gc_disabled) {
            // Back to its own inbox: handled (collected, answered) at its next signals.
            std::vector<Message> delayed = std::move(p->delayed_gc);
            p->delayed_gc.clear();
            for (Message& m : delayed) vm.send_signal(p, m);
        }
        return make_bool(was_enabled);
    }
    // A debug build's knob (ETS_DBG_FORCE_TRAP): not supported, as on a release build of erts.
    if (a[0] == atom("ets_force_trap")) return atom("notsup");
    if (a[0] == atom("colliding_names") && is_tuple(a[1]) && tuple_arity(a[1]) == 2 &&
        is_atom(tuple_element(a[1], 0)) && is_small(tuple_element(a[1], 1)) && small_value(tuple_element(a[1], 1)) >= 0)
        return ets_colliding_names(p, tuple_element(a[1], 0), Word(small_value(tuple_element(a[1], 1))));
    // mbuf(Term): a copy of Term in a heap fragment of the caller's (ets_SUITE makes one so
    // that a BIF meets a process with fragments).
    if (a[0] == atom("mbuf")) {
        Term* hp = p->alloc_fragment(std::max<Word>(term_size_words(a[1]), 1));
        return copy_term(a[1], &hp, &p->off_heap_first);
    }
    // next_pid: the number the next process gets (OTP's node_container and ets suites set it
    // back to have a dead process's pid again); badarg unless a non-negative integer.
    if (a[0] == atom("next_pid")) {
        if (!is_small(a[1]) || small_value(a[1]) < 0) return p->badarg();
        p->vm.reuse_pid_numbers(Word(small_value(a[1])));
        return a[1];
    }
    // The loop limits of the trapping binary, re and unicode BIFs: the previous value is
    // returned (default: the initial one); beamlet's BIFs do not trap on them.
    for (const char* knob : {"binary_loop_limit", "re_loop_limit", "unicode_loop_limit"}) {
        if (a[0] != atom(knob)) continue;
        static std::atomic<SWord> limits[3] = {4000, 4000, 4000};
        std::atomic<SWord>& limit = limits[knob[0] == 'b' ? 0 : knob[0] == 'r' ? 1 : 2];
        if (a[1] == atom("default")) return make_small(limit.exchange(4000));
        if (!is_small(a[1]) || small_value(a[1]) < 0) return p->badarg();
        return make_small(limit.exchange(small_value(a[1])));
    }
    if (a[0] == atom("test_long_gc_sleep")) {
        if (!is_small(a[1]) || small_value(a[1]) < 0) return p->badarg();
        vm.test_long_gc_sleep_ms.store(int(small_value(a[1])));
        return atoms::true_;
    }
    // inconsistent_heap: erts hands out a tuple with a broken arity and stops collecting the
    // caller's heap until it is given back mended (code_SUITE: literals purged meanwhile).
    // beamlet's collector cannot walk a broken heap object, so the tuple handed out is whole
    // ({ok}); the protocol is OTP's: start, then the term back.
    if (a[0] == atom("inconsistent_heap")) {
        if (a[1] == atom("start")) return make_tuple_on(p, {atoms::ok});
        if (!is_tuple(a[1])) return p->badarg();
        return atoms::ok;
    }
    // process_uniq_counter(Int): erts sets the caller's counter that its receive markers are
    // numbered from (recv_marker_reserve made a bignum once it passed MAX_SMALL, ERIERL-905).
    // beamlet's markers are slots of the inbox, never numbered from a counter: nothing to set.
    if (a[0] == atom("process_uniq_counter")) {
        if (!integer_to_int64(a[1])) return p->badarg();  // erts takes a signed 64-bit integer
        return atoms::ok;
    }
    // proc_sig_buffers: erts makes the caller's signal queue take signals through per-sender
    // buffers (fewer lock conflicts), keeping the order per sender; beamlet's inbox keeps
    // that order with or without, so there is nothing to switch.
    if (a[0] == atom("proc_sig_buffers")) {
        if (a[1] != atoms::true_ && a[1] != atoms::false_) return p->badarg();
        return atoms::true_;
    }
    // multizero_timeout_in_timeout(Ms): erts's test of its timer wheel, which sets zero-time
    // timers from inside a timer's timeout and tells the caller multizero_timeout_in_timeout_done
    // once they have all run. Continued in beamlet_internal:internal_state/2, which does the
    // same through beamlet's timer service.
    if (a[0] == atom("multizero_timeout_in_timeout")) {
        std::optional<std::int64_t> ms = integer_to_int64(a[1]);
        if (!ms) return p->badarg();
        a[1] = make_small(std::clamp<std::int64_t>(*ms, 0, 1 << 30));
        p->ip = p->vm.exports.get(atom("beamlet_internal"), atom("internal_state"), 2)->address();
        p->exception = PendingException{};
        return THE_NON_VALUE;
    }
    if (a[0] == am_sleep || a[0] == am_block) {
        if (!is_small(a[1])) return p->badarg();
        if (small_value(a[1]) > 0) std::this_thread::sleep_for(std::chrono::milliseconds(small_value(a[1])));
        return atoms::true_;
    }
    return p->badarg();
}

namespace {
// get_internal_state({binary_info, Bin}), as erts answers it: heap_binary, or {refc_binary,
// Size, {binary, Capacity}, Flags} for the reference-counted binary under Bin, Flags being
// OTP's PB_IS_WRITABLE (1) | PB_ACTIVE_WRITER (2) for an append's writable binary.
Term binary_info(Process* p, Term bin) {
    if (!is_binary(bin)) return p->badarg();
    const Term* obj = boxed_ptr(bin);
    if (header_subtag(obj[0]) == Subtag::SubBin) obj = boxed_ptr(obj[4]);
    if (header_subtag(obj[0]) != Subtag::RefcBin) return atom("heap_binary");
    const auto* buf = reinterpret_cast<const BinaryBuf*>(obj[2]);
    SWord flags = 0;
    if (buf->refc.load(std::memory_order_acquire) == 1 && buf->append_end_bits != BinaryBuf::NOT_WRITABLE)
        flags = 1 | (buf->append_active ? 2 : 0);
    Term capacity = make_tuple_on(p, {atoms::binary, make_integer(p, SWord(buf->size_bytes))});
    return make_tuple_on(p, {atom("refc_binary"), make_integer(p, SWord(obj[1])), capacity, make_small(flags)});
}
}  // namespace

// erts_debug:get_internal_state(Knob)
namespace {
// {process_status, Pid}: where the process is in its life, or undefined once it is gone from
// the process table (OTP's test suites wait for that after an exit).
Term process_status(Process* p, Term pid) {
    if (!is_pid(pid)) return p->badarg();
    std::shared_ptr<Process> target = p->vm.lookup_process(pid);
    if (!target) return atoms::undefined;
    std::lock_guard guard(target->lock);
    if (target->exiting) return atom("exiting");
    switch (target->state) {
    case ProcessState::Running: return atom("running");
    case ProcessState::Runnable: return atom("runnable");
    case ProcessState::Waiting: return atom("waiting");
    case ProcessState::Suspended: return atom("suspended");
    case ProcessState::Exited: return atom("exiting");
    }
    return atoms::undefined;
}

// {link_list, PidOrPort}: the links of a local process or port as erts lists them,
// [{erl_link, process | port, Other, linked, Id}], Id telling links apart (erts: the link's
// address). beamlet's unlink takes effect at once: no link is ever in state unlinking.
Term link_list(Process* p, Term of) {
    std::vector<Term> links;
    std::vector<Word> ids;
    auto take = [&](const std::vector<Term>& from) {
        links = from;
        for (const Term& l : from) ids.push_back(reinterpret_cast<Word>(&l));
    };
    if (is_pid(of)) {
        std::shared_ptr<Process> target = p->vm.lookup_process(of);
        if (!target) return p->badarg();
        std::lock_guard guard(target->lock);
        take(target->links);
    } else if (is_port(of)) {
        std::shared_ptr<Port> port = p->vm.port_table->lookup(of);
        if (!port) return p->badarg();
        std::lock_guard guard(port->lock);
        take(port->links);
    } else {
        return p->badarg();
    }
    static const Term am_erl_link = atom("erl_link"), am_linked = atom("linked");
    Term list = NIL;
    for (std::size_t i = links.size(); i-- > 0;) {
        Term type = is_port(links[i]) ? atom("port") : atoms::process;
        Term e = make_tuple_on(p, {am_erl_link, type, links[i], am_linked, make_integer(p, SWord(ids[i] >> 3))});
        list = make_cons_on(p->alloc(2), e, list);
    }
    return list;
}

// {monitor_list, Pid}: the monitors a local process holds (origin) and those held on it
// (target), as erts lists them: [{erl_monitor, process | port, origin | target, Ref, Other,
// Name | []}], the name for a monitor made by registered name.
Term monitor_list(Process* p, Term of) {
    if (!is_pid(of)) return p->badarg();
    std::shared_ptr<Process> target = p->vm.lookup_process(of);
    if (!target) return p->badarg();
    std::vector<MonitorEntry> origin, targets;
    {
        std::lock_guard guard(target->lock);
        origin = target->monitors.in_order();
        targets = target->monitored_by;
    }
    static const Term am_erl_monitor = atom("erl_monitor"), am_origin = atom("origin"), am_target = atom("target");
    Term list = NIL;
    auto add = [&](const MonitorEntry& m, Term dir) {
        Term type = is_port(m.other) ? atom("port") : atoms::process;
        Term extra = m.name ? m.name : NIL;
        Term e = make_tuple_on(p, {am_erl_monitor, type, dir, make_ref_term(p, m.ref_id), m.other, extra});
        list = make_cons_on(p->alloc(2), e, list);
    };
    for (auto it = targets.rbegin(); it != targets.rend(); ++it) add(*it, am_target);
    for (auto it = origin.rbegin(); it != origin.rend(); ++it) add(*it, am_origin);
    return list;
}

// {make_unique_integer, ThreadNo, Value}: the integer erts's unique_integer/0 makes from a
// thread's counter value, ((Value bsl SchedBits) bor ThreadNo) + MinSmall, SchedBits being
// the bits that number every scheduler (normal, dirty CPU and dirty I/O, as system_info
// reports them) (unique_SUITE checks the layout over its limits).
Term make_unique_integer(Process* p, Term thread, Term value) {
    if (!is_small(thread) || small_value(thread) < 0 || !is_integer(value)) return p->badarg();
    int schedulers = p->vm.schedulers ? p->vm.schedulers->count() : 1;
    SWord all = 2 * SWord(schedulers) + 10;  // + dirty CPU (as many) + dirty I/O (10)
    unsigned bits = 0;
    while ((SWord(1) << bits) <= all) ++bits;
    mpz_t v, min_small;
    mpz_init(v);
    integer_to_mpz(value, v);
    if (mpz_sgn(v) < 0 || mpz_sizeinbase(v, 2) > 64) {
        mpz_clear(v);
        return p->badarg();
    }
    mpz_mul_2exp(v, v, bits);
    mpz_add_ui(v, v, static_cast<unsigned long>(small_value(thread)));
    mpz_init_set_si(min_small, MIN_SMALL);
    mpz_add(v, v, min_small);
    Term r = mpz_to_integer(p, v);
    mpz_clear(v);
    mpz_clear(min_small);
    return r;
}
}  // namespace

// erts_debug:dirty_cpu/2 and dirty_io/2, OTP's test BIFs that run on a dirty scheduler:
// continue in beamlet_internal:dirty_task/2 (bif/lib/beamlet_internal.erl) with the checks
// erts makes first: wait(Ms) on either kind, reschedule(N >= 0) on dirty CPU only,
// alive_waitexiting(Pid) on either. Anything else is badarg.
Term bif_erts_debug_dirty_task(Process* p, Term* a, bool cpu) {
    if (a[0] == atom("wait")) {
        if (!is_small(a[1])) return p->badarg();
        if (small_value(a[1]) < 0) a[1] = make_small(0);  // erts does not wait for a negative time
    } else if (a[0] == atom("reschedule")) {
        if (!cpu || !is_small(a[1]) || small_value(a[1]) < 0) return p->badarg();
    } else if (a[0] != atom("alive_waitexiting")) {
        return p->badarg();
    }
    p->ip = p->vm.exports.get(atom("beamlet_internal"), atom("dirty_task"), 2)->address();
    p->exception = PendingException{};
    return THE_NON_VALUE;
}
Term bif_erts_debug_dirty_cpu(Process* p, Term* a) { return bif_erts_debug_dirty_task(p, a, true); }
Term bif_erts_debug_dirty_io(Process* p, Term* a) { return bif_erts_debug_dirty_task(p, a, false); }

Term bif_erts_debug_get_internal_state(Process* p, Term* a) {
    static const Term am_available = atom("available_internal_state");
    if (!p->vm.internal_state_available.load()) return p->error(atoms::undef);
    if (a[0] == am_available) return atoms::true_;
    // beamlet has no FORCE_HEAP_FRAGS debug build.
    if (a[0] == atom("force_heap_frags")) return atoms::false_;
    if (a[0] == atom("next_pid")) return make_small(SWord(p->vm.next_pid.load(std::memory_order_relaxed) + 1));
    // The caller's reductions left in its slice.
    if (a[0] == atom("reds_left")) return make_small(std::max<SWord>(p->slice_reds, 0));
    // OTP's processes/0 parameters ({ptab_list_bif_info, MinStartReds, TabChunks, ChunkSize,
    // IndicesPerRed, FreeDeletedReds, DeletedPerRed, DeletedMaxReds, ConsesPerRed,
    // DebugLevel}): erl 25's values; the table of 262144 processes in chunks of 1000.
    if (a[0] == atom("processes_bif_info"))
        return make_tuple_on(p, {atom("ptab_list_bif_info"), make_small(40), make_small((262144 + 999) / 1000),
                                 make_small(1000), make_small(25), make_small(1), make_small(10), make_small(40),
                                 make_small(75), make_small(0)});
    if (a[0] == atom("persistent_term")) return persistent_term_internal_state(p);
    // memory: the figures a crash dump's =memory section gives (erts computes them apart
    // from erlang:memory/0; beamlet's dump takes them from the same accounting).
    if (a[0] == atom("memory")) return bif_memory0(p, nullptr);
    if (a[0] == atom("process_info_args")) return process_info_args(p);
    if (is_tuple(a[0]) && tuple_arity(a[0]) == 2 && tuple_element(a[0], 0) == atom("binary_info"))
        return binary_info(p, tuple_element(a[0], 1));
    if (is_tuple(a[0]) && tuple_arity(a[0]) == 2 && tuple_element(a[0], 0) == atom("process_status"))
        return process_status(p, tuple_element(a[0], 1));
    if (is_tuple(a[0]) && tuple_arity(a[0]) == 3 && tuple_element(a[0], 0) == atom("make_unique_integer"))
        return make_unique_integer(p, tuple_element(a[0], 1), tuple_element(a[0], 2));
    if (is_tuple(a[0]) && tuple_arity(a[0]) == 2 && tuple_element(a[0], 0) == atom("internal_hash"))
        return make_small(SWord(make_internal_hash(tuple_element(a[0], 1))));
    if (is_tuple(a[0]) && tuple_arity(a[0]) == 2 && tuple_element(a[0], 0) == atom("atom")) {
        // {atom, Index}: the atom with that index in the atom table. As erts, a table not yet
        // that long is filled up to it with atoms named am<index in hex> (badarg where erts
        // would stop the emulator, at the table's limit).
        Term index = tuple_element(a[0], 1);
        if (!is_small(index) || small_value(index) < 0) return p->badarg();
        Word wanted = Word(small_value(index));
        AtomTable& table = AtomTable::global();
        for (std::string name; table.count() <= wanted;) {
            Word before = table.count();
            name = fmt::format("am{:x}", before);
            while (table.find(name)) name += '_';  // the name is taken: a new atom all the same
            if (!table.intern(name)) return p->badarg();
        }
        return make_atom(wanted);
    }
    if (is_tuple(a[0]) && tuple_arity(a[0]) == 2 && tuple_element(a[0], 0) == atom("link_list"))
        return link_list(p, tuple_element(a[0], 1));
    if (is_tuple(a[0]) && tuple_arity(a[0]) == 2 && tuple_element(a[0], 0) == atom("monitor_list"))
        return monitor_list(p, tuple_element(a[0], 1));
    return p->badarg();
}

}  // namespace beamlet::bif
