// tracing/breakpoints.cpp — staging, install, commit, uninstall, consolidate, free.
#include "tracing/breakpoints.hpp"

#include "tracing/sessions.hpp"

#include "vm/assert.hpp"
#include "vm/breakpoint_site.hpp"
#include "vm/code_engine.hpp"
#include "vm/interpreter.hpp"
#include "vm/vm.hpp"

namespace beamlet::tracing {

namespace {
int g_counter_schedulers = 64;  // CallTimeData's limit, until boot says how many there are
}

void CallCounter::set_schedulers(int n) { g_counter_schedulers = n; }

CallCounter::CallCounter() : m_slots(new std::int64_t[std::size_t(g_counter_schedulers) + 1]()), m_own_slots(g_counter_schedulers) {}

CallCounter::~CallCounter() { delete[] m_slots; }

std::int64_t CallCounter::value() const {
    std::int64_t sum = 0;
    for (int i = 0; i <= m_own_slots; ++i) sum += std::atomic_ref<std::int64_t>(m_slots[i]).load(std::memory_order_relaxed);
    return sum - m_zero.load(std::memory_order_relaxed);
}

void CallCounter::restart() { m_zero.store(value() + m_zero.load(std::memory_order_relaxed), std::memory_order_relaxed); }

void CallCounter::reset() {
    for (int i = 0; i <= m_own_slots; ++i) std::atomic_ref<std::int64_t>(m_slots[i]).store(0, std::memory_order_relaxed);
    m_zero.store(0, std::memory_order_relaxed);
}

namespace {

std::atomic<unsigned> g_active_bp_ix{0};

// Freed GenericBps, reused by the next change: pattern changes over whole modules allocate
// and free one per function. Only touched with the code modification permission held.
std::vector<GenericBp*> g_bp_pool;

GenericBp* allocate_bp() {
    if (g_bp_pool.empty()) return new GenericBp();
    GenericBp* bp = g_bp_pool.back();
    g_bp_pool.pop_back();
    return bp;
}

// Drops the match spec and counter references of [d] (nothing can run it any more).
void release_data(GenericBpData& d) {
    for (MatchSpec** ms : {&d.ms, &d.meta_ms})
        if (*ms && (*ms)->release()) delete *ms;
    for (CallTimeData** t : {&d.time, &d.memory})
        if (*t && --(*t)->refs == 0) delete *t;
    d.ms = d.meta_ms = nullptr;
    d.time = d.memory = nullptr;
    d.meta_tracer.store(0, std::memory_order_relaxed);
    d.flags.store(0, std::memory_order_relaxed);
}

void recycle_bp(GenericBp* bp) {
    bp->orig_instr = 0;
    bp->call_count.reset();
    release_data(bp->data[0]);
    release_data(bp->data[1]);
    bp->session = nullptr;
    bp->next.store(nullptr, std::memory_order_relaxed);
    bp->to_insert = nullptr;
    if (g_bp_pool.size() < 100000) g_bp_pool.push_back(bp);
    else delete bp;
}

// Tells a native-code engine what [ci]'s breakpoint does for a process without the call flag,
// given the chain's flags in the two generations ([a] and [b]: staging and active while a
// change is staged, then the active one's twice): nothing, the handler, or, when the chain is
// one session's call_count and nothing else acts for every process in either generation,
// only that count.
void update_every_process(vm::CodeEngine* engine, const CodeInfo* ci, std::uint32_t a, std::uint32_t b) {
    if (!engine) return;
    constexpr std::uint32_t every = BPF_COUNT_ACTIVE | BPF_META_TRACE;
    std::int64_t* count_slots = nullptr;
    GenericBp* head = ci->gen_bp.load(std::memory_order_acquire);
    if ((a & every) == BPF_COUNT_ACTIVE && (b & every) == BPF_COUNT_ACTIVE && head &&
        !head->next.load(std::memory_order_acquire) && !head->to_insert)
        count_slots = head->call_count.slots();
    engine->set_every_process(ci, (a | b) & every, count_slots);
}

// This session's GenericBp on the chain (linked or prepared), created with both generations
// disabled if missing. [orig] is the original instruction for function chains.
GenericBp* ensure_bp(std::atomic<GenericBp*>& head_slot, TraceSession* session, Word orig) {
    GenericBp* head = head_slot.load(std::memory_order_acquire);
    if (GenericBp* bp = find_bp(head_slot, session)) return bp;
    if (head && head->to_insert && head->to_insert->session == session) return head->to_insert;
    GenericBp* bp = allocate_bp();
    bp->session = session;
    if (!head) {
        // No breakpoint instruction leads here yet: publishing the pointer now is safe.
        bp->orig_instr = orig;
        head_slot.store(bp, std::memory_order_release);
    } else {
        // Readers may be walking the chain: link it at install, after a wait (OTP's to_insert).
        bp->orig_instr = head->orig_instr;
        bp->next.store(head, std::memory_order_relaxed);
        BEAMLET_ASSERT(!head->to_insert);
        head->to_insert = bp;
    }
    return bp;
}


std::uint32_t chain_flags(const std::atomic<GenericBp*>& head, unsigned ix) {
    std::uint32_t all = 0;
    for (GenericBp* bp = head.load(std::memory_order_acquire); bp; bp = bp->next.load(std::memory_order_acquire))
        all |= bp->data[ix].flags.load(std::memory_order_relaxed);
    return all;
}

void link_prepared(std::atomic<GenericBp*>& head_slot) {
    GenericBp* head = head_slot.load(std::memory_order_acquire);
    if (head && head->to_insert) {
        GenericBp* bp = head->to_insert;
        head->to_insert = nullptr;
        head_slot.store(bp, std::memory_order_release);  // bp->next is the old head
    }
}

// Makes [slot] (in a staging generation) refer to [value]; a released last reference is freed
// by [change] after the next thread-progress wait.
void assign(MatchSpec*& slot, MatchSpec* value, BreakpointChange& change) {
    if (slot == value) return;
    if (value) value->add_ref();
    if (slot && slot->release()) change.to_free_ms.push_back(slot);
    slot = value;
}

void assign(CallTimeData*& slot, CallTimeData* value, BreakpointChange& change) {
    if (slot == value) return;
    if (value) ++value->refs;
    if (slot && --slot->refs == 0) change.to_free_time.push_back(slot);
    slot = value;
}

// Copies generation [from] over [to].
void copy_data(const GenericBpData& from, GenericBpData& to, BreakpointChange& change) {
    to.flags.store(from.flags.load(std::memory_order_relaxed), std::memory_order_relaxed);
    assign(to.ms, from.ms, change);
    assign(to.meta_ms, from.meta_ms, change);
    to.meta_tracer.store(from.meta_tracer.load(std::memory_order_relaxed), std::memory_order_relaxed);
    assign(to.time, from.time, change);
    assign(to.memory, from.memory, change);
}

// Copies active over staging on every GenericBp of the chain and unlinks those left empty.
void consolidate_chain(std::atomic<GenericBp*>& head_slot, BreakpointChange& change) {
    unsigned active = active_bp_index(), staging = staging_bp_index();
    std::vector<GenericBp*>& to_free = change.to_free;
    std::atomic<GenericBp*>* link = &head_slot;
    while (GenericBp* bp = link->load(std::memory_order_acquire)) {
        copy_data(bp->data[active], bp->data[staging], change);
        std::uint32_t flags = bp->data[active].flags.load(std::memory_order_relaxed);
        if (flags == 0) {
            link->store(bp->next.load(std::memory_order_acquire), std::memory_order_release);
            to_free.push_back(bp);
            continue;
        }
        link = &bp->next;
    }
}

}  // namespace

unsigned active_bp_index() { return g_active_bp_ix.load(std::memory_order_acquire); }
unsigned staging_bp_index() { return 1 - active_bp_index(); }

GenericBp* find_bp(const std::atomic<GenericBp*>& head, const TraceSession* session) {
    for (GenericBp* bp = head.load(std::memory_order_acquire); bp; bp = bp->next.load(std::memory_order_acquire))
        if (bp->session == session) return bp;
    return nullptr;
}

std::uint32_t active_flags(const std::atomic<GenericBp*>& head, const TraceSession* session) {
    GenericBp* bp = find_bp(head, session);
    return bp ? bp->data[active_bp_index()].flags.load(std::memory_order_relaxed) : 0;
}

const GenericBpData* active_data(const std::atomic<GenericBp*>& head, const TraceSession* session) {
    GenericBp* bp = find_bp(head, session);
    return bp ? &bp->data[active_bp_index()] : nullptr;
}

void replace_first_word(const CodeInfo* ci, Word word) {
    if (!vm::threaded_breakpoint_set(ci)) {
        vm::patch_code_word(const_cast<Word*>(ci->code()), word);
        return;
    }
    // The breakpoint stays; what runs after it changes (a hit reads the head's original word).
    for (GenericBp* bp = ci->gen_bp.load(std::memory_order_acquire); bp; bp = bp->next.load(std::memory_order_acquire)) {
        std::atomic_ref<Word>(bp->orig_instr).store(word, std::memory_order_release);
        if (bp->to_insert) bp->to_insert->orig_instr = word;
    }
}

void adopt_native_entry(vm::CodeEngine* engine, const CodeInfo* ci) {
    if (!engine || !vm::threaded_breakpoint_set(ci)) return;
    // The filter's summary first, then the patch site (no native entry: the threaded
    // breakpoint simply stays).
    std::uint32_t active = chain_flags(ci->gen_bp, active_bp_index());
    update_every_process(engine, ci, active, active);
    engine->set_breakpoint(ci, true);
}

namespace {

// A counter kind's change on [d], the staging generation of [bp].
void stage_counter(CountAction action, std::uint32_t kind, std::uint32_t active_bit, CallTimeData* GenericBpData::*field,
                   GenericBp* bp, GenericBpData& d, BreakpointChange& c) {
    std::uint32_t flags = d.flags.load(std::memory_order_relaxed);
    if (action == CountAction::Pause && !(flags & kind)) action = CountAction::Start;
    switch (action) {
    case CountAction::Start:
    case CountAction::Restart:
        if (field) {
            // A fresh table: updaters of the old one (still active) never race with the reset.
            assign(d.*field, new CallTimeData(), c);
        } else {
            // call_count restarts in place, shared with the active generation (as OTP).
            bp->call_count.restart();
        }
        flags |= kind | active_bit;
        break;
    case CountAction::Pause:
        flags &= ~active_bit;
        break;
    case CountAction::Stop:
        flags &= ~(kind | active_bit);
        if (field) assign(d.*field, nullptr, c);
        break;
    case CountAction::None:
        break;
    }
    d.flags.store(flags, std::memory_order_relaxed);
}

bool sets_local_kind(const BreakpointChange& c) {
    return (c.trace == TraceAction::On && !c.global) || c.meta == TraceAction::On || c.count == CountAction::Start ||
           c.time == CountAction::Start || c.memory == CountAction::Start;
}

}  // namespace

namespace {

// The local kinds of [c] on one chain ([slot], whose original word is [orig]): a function's,
// or a BIF export's. Global tracing on the same chain (a BIF's) is cleared by a local kind.
void stage_local_kinds(BreakpointChange& c, std::atomic<GenericBp*>& slot, Word orig, bool bif) {
    bool global_on = c.trace == TraceAction::On && c.global;
    bool local_on = sets_local_kind(c);
    unsigned staging = staging_bp_index();
    GenericBp* bp = find_bp(slot, c.session);
    if (!bp && local_on) {
        // A chain that exists holds the original word, installed or not.
        GenericBp* head = slot.load(std::memory_order_acquire);
        bp = ensure_bp(slot, c.session, head ? head->orig_instr : orig);
    } else if (!bp && slot.load() && slot.load()->to_insert && slot.load()->to_insert->session == c.session) {
        bp = slot.load()->to_insert;
    }
    if (!bp) return;
    GenericBpData& d = bp->data[staging];
    std::uint32_t flags = d.flags.load(std::memory_order_relaxed);
    if (c.clear_all || global_on) {
        flags &= ~BPF_LOCAL_KINDS;
        d.flags.store(flags, std::memory_order_relaxed);
        if (!(flags & BPF_GLOBAL_TRACE)) assign(d.ms, nullptr, c);
        assign(d.meta_ms, nullptr, c);
        assign(d.time, nullptr, c);
        assign(d.memory, nullptr, c);
        return;
    }
    if (bif && local_on && (flags & BPF_GLOBAL_TRACE)) {
        flags &= ~BPF_GLOBAL_TRACE;
        assign(d.ms, nullptr, c);
    }
    if (c.trace == TraceAction::On && !c.global) {
        flags |= BPF_LOCAL_TRACE;
        assign(d.ms, c.ms, c);
    } else if (c.trace == TraceAction::Off && !c.global) {
        flags &= ~BPF_LOCAL_TRACE;
        assign(d.ms, nullptr, c);
    }
    if (c.meta == TraceAction::On) {
        flags |= BPF_META_TRACE;
        assign(d.meta_ms, c.meta_ms, c);
        d.meta_tracer.store(c.meta_tracer, std::memory_order_relaxed);
    } else if (c.meta == TraceAction::Off) {
        flags &= ~BPF_META_TRACE;
        assign(d.meta_ms, nullptr, c);
        d.meta_tracer.store(0, std::memory_order_relaxed);
    }
    d.flags.store(flags, std::memory_order_relaxed);
    stage_counter(c.count, BPF_COUNT, BPF_COUNT_ACTIVE, nullptr, bp, d, c);
    stage_counter(c.time, BPF_TIME_TRACE, BPF_TIME_TRACE_ACTIVE, &GenericBpData::time, bp, d, c);
    stage_counter(c.memory, BPF_MEM_TRACE, BPF_MEM_TRACE_ACTIVE, &GenericBpData::memory, bp, d, c);
}

// Writes [change] into the staging generation of a session's message pattern.
void stage_pattern(MessagePatternChange& change, MessagePattern& staging, BreakpointChange& c) {
    if (!change.set) return;
    staging.on = change.on;
    assign(staging.ms, change.on ? change.ms : nullptr, c);
}

void consolidate_pattern(const MessagePattern& active, MessagePattern& staging, BreakpointChange& c) {
    staging.on = active.on;
    assign(staging.ms, active.ms, c);
}

}  // namespace

bool stage(BreakpointChange& c) {
    // Mirrors erts_set_trace_pattern: in one session, global call tracing and the local kinds
    // (local call tracing, meta, counters) exclude each other. Turning one on clears the
    // other; turning a kind off leaves the rest alone. A session destroy clears everything.
    bool global_on = c.trace == TraceAction::On && c.global;
    bool local_on = sets_local_kind(c);
    unsigned staging = staging_bp_index();
    for (const CodeInfo* ci : c.functions)
        stage_local_kinds(c, const_cast<CodeInfo*>(ci)->gen_bp, vm::read_code_word(ci->code()), false);
    for (Export* e : c.bif_locals) {
        if (!e->gen_bp.load(std::memory_order_acquire)) e->bp_original.store(e->address(), std::memory_order_relaxed);
        stage_local_kinds(c, e->gen_bp, 0, true);
    }
    for (Export* e : c.exports) {
        GenericBp* bp = find_bp(e->gen_bp, c.session);
        if (global_on) {
            if (!e->gen_bp.load(std::memory_order_acquire)) e->bp_original.store(e->address(), std::memory_order_relaxed);
            bp = ensure_bp(e->gen_bp, c.session, 0);
            GenericBpData& d = bp->data[staging];
            if (e->is_bif()) {  // a BIF's local kinds share this chain
                d.flags.fetch_and(~BPF_LOCAL_KINDS, std::memory_order_relaxed);
                assign(d.meta_ms, nullptr, c);
                assign(d.time, nullptr, c);
                assign(d.memory, nullptr, c);
            }
            d.flags.fetch_or(BPF_GLOBAL_TRACE, std::memory_order_relaxed);
            assign(d.ms, c.ms, c);
        } else if (bp && (c.clear_all || local_on || (c.trace == TraceAction::Off && c.global))) {
            GenericBpData& d = bp->data[staging];
            std::uint32_t before = d.flags.fetch_and(~std::uint32_t(BPF_GLOBAL_TRACE), std::memory_order_relaxed);
            if (before & BPF_GLOBAL_TRACE) assign(d.ms, nullptr, c);
            if (c.clear_all) stage_local_kinds(c, e->gen_bp, 0, true);
        }
    }
    if (c.clear_all && !c.code_change) {  // a destroyed session traces no messages (OTP's clear_event_trace)
        c.send = MessagePatternChange{true, false, nullptr};
        c.receive = MessagePatternChange{true, false, nullptr};
    }
    stage_pattern(c.send, c.session->send_pattern[staging], c);
    stage_pattern(c.receive, c.session->receive_pattern[staging], c);
    return !c.functions.empty() || !c.exports.empty() || !c.bif_locals.empty() || c.send.set || c.receive.set;
}

void install(BreakpointChange& c) {
    // Everything the staging generation needs: the breakpoint instruction in functions and
    // the trampoline in exports (the active generation still decides what a hit does).
    unsigned staging = staging_bp_index();
    for (const CodeInfo* ci : c.functions) {
        auto& slot = const_cast<CodeInfo*>(ci)->gen_bp;
        link_prepared(slot);
        if (slot.load(std::memory_order_acquire))
            update_every_process(c.engine, ci, chain_flags(slot, staging), chain_flags(slot, active_bp_index()));
        if (slot.load(std::memory_order_acquire) && chain_flags(slot, staging)) vm::arm_entry_breakpoint(c.engine, ci);
    }
    auto install_export = [&](Export* e) {
        link_prepared(e->gen_bp);
        if (!e->gen_bp.load(std::memory_order_acquire) || !chain_flags(e->gen_bp, staging)) return;
        const Word* trampoline = e->bp_trampoline;
        if (e->addresses[0].load(std::memory_order_acquire) != trampoline) {
            e->addresses[0].store(trampoline, std::memory_order_release);
            e->addresses[1].store(trampoline, std::memory_order_release);
        }
        if (e->bif) e->bif_traced.store(true, std::memory_order_release);
    };
    for (Export* e : c.exports) install_export(e);
    for (Export* e : c.bif_locals) install_export(e);
}

void commit() {
    // Mirrors erts_commit_staged_bp(): the staging generation becomes the active one.
    g_active_bp_ix.store(1 - g_active_bp_ix.load(std::memory_order_relaxed), std::memory_order_release);
}

void uninstall(BreakpointChange& c) {
    for (const CodeInfo* ci : c.functions) {
        auto& slot = const_cast<CodeInfo*>(ci)->gen_bp;
        GenericBp* head = slot.load(std::memory_order_acquire);
        if (head && chain_flags(slot, active_bp_index()) == 0) vm::disarm_entry_breakpoint(c.engine, ci, head->orig_instr);
    }
    auto uninstall_export = [](Export* e) {
        if (!e->gen_bp.load(std::memory_order_acquire) || chain_flags(e->gen_bp, active_bp_index()) != 0) return;
        if (e->addresses[0].load(std::memory_order_acquire) == e->bp_trampoline) {
            const Word* original = e->bp_original.load(std::memory_order_relaxed);
            e->addresses[0].store(original, std::memory_order_release);
            e->addresses[1].store(original, std::memory_order_release);
        }
        e->bif_traced.store(false, std::memory_order_release);
    };
    for (Export* e : c.exports) uninstall_export(e);
    for (Export* e : c.bif_locals) uninstall_export(e);
}

void consolidate(BreakpointChange& c) {
    for (const CodeInfo* ci : c.functions) {
        consolidate_chain(const_cast<CodeInfo*>(ci)->gen_bp, c);
        std::uint32_t active = chain_flags(ci->gen_bp, active_bp_index());
        update_every_process(c.engine, ci, active, active);
    }
    for (Export* e : c.exports) consolidate_chain(e->gen_bp, c);
    for (Export* e : c.bif_locals) consolidate_chain(e->gen_bp, c);
    if (c.send.set || c.receive.set) {
        unsigned active = active_bp_index(), staging = staging_bp_index();
        consolidate_pattern(c.session->send_pattern[active], c.session->send_pattern[staging], c);
        consolidate_pattern(c.session->receive_pattern[active], c.session->receive_pattern[staging], c);
    }
}

void apply_on_load(vm::CodeEngine* engine, vm::Module& module, TraceSession* session, const OnLoadPattern& pattern) {
    // Sets [slot] to [value] in both generations (no process runs this module yet).
    auto set_ms = [](MatchSpec*& slot, MatchSpec* value) {
        if (slot == value) return;
        if (value) value->add_ref();
        if (slot && slot->release()) delete slot;
        slot = value;
    };
    auto add = [&](std::atomic<GenericBp*>& slot, Word orig, std::uint32_t kinds) {
        GenericBp* bp = find_bp(slot, session);
        if (!bp) {
            bp = allocate_bp();
            bp->session = session;
            bp->orig_instr = slot.load() ? slot.load()->orig_instr : orig;
            bp->next.store(slot.load(), std::memory_order_relaxed);
            slot.store(bp, std::memory_order_release);
        }
        CallTimeData* time = (kinds & BPF_TIME_TRACE) ? new CallTimeData() : nullptr;
        CallTimeData* memory = (kinds & BPF_MEM_TRACE) ? new CallTimeData() : nullptr;
        for (GenericBpData& d : bp->data) {
            d.flags.fetch_or(kinds, std::memory_order_relaxed);
            if (kinds & (BPF_LOCAL_TRACE | BPF_GLOBAL_TRACE)) set_ms(d.ms, pattern.ms);
            if (kinds & BPF_META_TRACE) {
                set_ms(d.meta_ms, pattern.meta_ms);
                d.meta_tracer.store(pattern.meta_tracer, std::memory_order_relaxed);
            }
            for (auto [slot, table] : {std::pair{&d.time, time}, std::pair{&d.memory, memory}}) {
                if (!table) continue;
                ++table->refs;
                if (*slot && --(*slot)->refs == 0) delete *slot;
                *slot = table;
            }
        }
    };
    std::uint32_t local_kinds = pattern.flags & BPF_LOCAL_KINDS;
    for (vm::FunctionInfo& f : module.functions) {
        auto* ci = const_cast<CodeInfo*>(module.code_info(f));
        if (local_kinds) {
            Word orig = vm::entry_breakpoint_set(engine, ci) ? ci->gen_bp.load()->orig_instr : vm::read_code_word(ci->code());
            add(ci->gen_bp, orig, local_kinds);
            std::uint32_t active = chain_flags(ci->gen_bp, active_bp_index());
            update_every_process(engine, ci, active, active);
            if (!vm::entry_breakpoint_set(engine, ci)) vm::arm_entry_breakpoint(engine, ci);
        } else if ((pattern.flags & BPF_GLOBAL_TRACE) && f.export_entry && !f.export_entry->is_bif()) {
            add(f.export_entry->gen_bp, 0, BPF_GLOBAL_TRACE);  // vm publishes the trampoline
        }
    }
}

void release_all(vm::Vm& vm) {
    auto release_chain = [](std::atomic<GenericBp*>& head) {
        GenericBp* bp = head.exchange(nullptr);
        while (bp) {
            GenericBp* next = bp->next.load();
            if (bp->to_insert) recycle_bp(bp->to_insert);
            recycle_bp(bp);
            bp = next;
        }
    };
    for (vm::Module* m : vm.loaded_modules())
        for (vm::FunctionInfo& f : m->functions) {
            release_chain(const_cast<CodeInfo*>(m->code_info(f))->gen_bp);
            if (f.export_entry) release_chain(f.export_entry->gen_bp);
        }
    for (vm::Export* e : vm.exports.all()) release_chain(e->gen_bp);
    for (GenericBp* bp : g_bp_pool) delete bp;
    g_bp_pool.clear();
}

void free_unlinked(BreakpointChange& c) {
    // No thread can still be inside these: a thread-progress wait has passed since unlinking.
    for (GenericBp* bp : c.to_free) recycle_bp(bp);
    c.to_free.clear();
    for (MatchSpec* ms : c.to_free_ms) delete ms;
    c.to_free_ms.clear();
    for (CallTimeData* t : c.to_free_time) delete t;
    c.to_free_time.clear();
}

BreakpointChange::~BreakpointChange() {
    // The change's own references (taken by the BIF that compiled them).
    for (MatchSpec* ms : {this->ms, meta_ms, send.ms, receive.ms})
        if (ms && ms->release()) delete ms;
    free_unlinked(*this);
}

}  // namespace beamlet::tracing
