// tracing/breakpoints.cpp — staging, install, commit, uninstall, consolidate, free.
#include "tracing/breakpoints.hpp"

#include "vm/assert.hpp"
#include "vm/interpreter.hpp"
#include "vm/vm.hpp"

namespace beamlet::tracing {

namespace {

std::atomic<unsigned> g_active_bp_ix{0};

Word breakpoint_word() { return vm::op_word(vm::Op::i_generic_breakpoint); }

// Freed GenericBps, reused by the next change: pattern changes over whole modules allocate
// and free one per function. Only touched with the code modification permission held.
std::vector<GenericBp*> g_bp_pool;

GenericBp* allocate_bp() {
    if (g_bp_pool.empty()) return new GenericBp();
    GenericBp* bp = g_bp_pool.back();
    g_bp_pool.pop_back();
    return bp;
}

void recycle_bp(GenericBp* bp) {
    bp->orig_instr = 0;
    bp->call_count.store(0, std::memory_order_relaxed);
    bp->data[0].flags.store(0, std::memory_order_relaxed);
    bp->data[1].flags.store(0, std::memory_order_relaxed);
    bp->session = nullptr;
    bp->next.store(nullptr, std::memory_order_relaxed);
    bp->to_insert = nullptr;
    if (g_bp_pool.size() < 100000) g_bp_pool.push_back(bp);
    else delete bp;
}

Word* first_instruction(const CodeInfo* ci) { return const_cast<Word*>(ci->code()); }

// The one write running code can observe in a function's code: an aligned word store, as in
// OTP ("assume aligned word-size writes are atomic"). Readers execute the word with plain
// loads, so TSan is told nothing about this store (it is the designed race).
[[gnu::no_sanitize("thread")]] void patch_word(Word* at, Word value) {
    __atomic_store_n(at, value, __ATOMIC_RELEASE);
}

[[gnu::no_sanitize("thread")]] Word read_word(const Word* at) { return __atomic_load_n(at, __ATOMIC_ACQUIRE); }

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

void set_staging(GenericBp* bp, std::uint32_t set, std::uint32_t clear) {
    auto& f = bp->data[staging_bp_index()].flags;
    f.store((f.load(std::memory_order_relaxed) | set) & ~clear, std::memory_order_relaxed);
}

std::uint32_t chain_active_flags(const std::atomic<GenericBp*>& head) {
    std::uint32_t all = 0;
    unsigned ix = active_bp_index();
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

// Copies active over staging on every GenericBp of the chain and unlinks those left empty.
void consolidate_chain(std::atomic<GenericBp*>& head_slot, std::vector<GenericBp*>& to_free) {
    unsigned active = active_bp_index(), staging = staging_bp_index();
    std::atomic<GenericBp*>* link = &head_slot;
    while (GenericBp* bp = link->load(std::memory_order_acquire)) {
        std::uint32_t flags = bp->data[active].flags.load(std::memory_order_relaxed);
        bp->data[staging].flags.store(flags, std::memory_order_relaxed);
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

bool has_breakpoint(const CodeInfo* ci) { return read_word(ci->code()) == breakpoint_word(); }

namespace {
// Stages a call_count change (a local kind: starting it clears global call tracing).
bool stage_count(BreakpointChange& c) {
    constexpr std::uint32_t both = BPF_COUNT | BPF_COUNT_ACTIVE;
    for (const CodeInfo* ci : c.functions) {
        auto& slot = const_cast<CodeInfo*>(ci)->gen_bp;
        GenericBp* bp = find_bp(slot, c.session);
        switch (c.count) {
        case CountAction::Start: {
            Word orig = has_breakpoint(ci) ? slot.load()->orig_instr : read_word(ci->code());
            bp = ensure_bp(slot, c.session, orig);
            // Restarting resets the counter in place, shared with the active generation (as OTP).
            bp->call_count.store(0, std::memory_order_relaxed);
            set_staging(bp, both, 0);
            break;
        }
        case CountAction::Pause:
            if (bp) set_staging(bp, 0, BPF_COUNT_ACTIVE);
            break;
        case CountAction::Stop:
            if (bp) set_staging(bp, 0, both);
            break;
        case CountAction::None:
            break;
        }
    }
    if (c.count == CountAction::Start)
        for (Export* e : c.exports)
            if (GenericBp* bp = find_bp(e->gen_bp, c.session)) set_staging(bp, 0, BPF_GLOBAL_TRACE);
    return !c.functions.empty() || !c.exports.empty();
}
}  // namespace

bool stage(BreakpointChange& c) {
    if (c.count != CountAction::None) return stage_count(c);
    // Mirrors erts_set_trace_pattern: local and global exclude each other in one session.
    // Turning one kind on clears the other; turning a kind off leaves the other alone. A
    // session destroy (c.clear_all) clears both.
    bool clear_local = (c.enable && !c.local) || (!c.enable && (c.local || c.clear_all));
    bool clear_global = (c.enable && c.local) || (!c.enable && (!c.local || c.clear_all));
    for (const CodeInfo* ci : c.functions) {
        auto& slot = const_cast<CodeInfo*>(ci)->gen_bp;
        if (c.enable && c.local) {
            Word orig = has_breakpoint(ci) ? slot.load()->orig_instr : read_word(ci->code());
            set_staging(ensure_bp(slot, c.session, orig), BPF_LOCAL_TRACE, 0);
        } else if (GenericBp* bp = find_bp(slot, c.session); bp && clear_local) {
            // Global call tracing clears every local kind, call_count included.
            std::uint32_t kinds = (c.enable && !c.local) ? BPF_LOCAL_TRACE | BPF_COUNT | BPF_COUNT_ACTIVE : BPF_LOCAL_TRACE;
            set_staging(bp, 0, kinds);
        }
    }
    for (Export* e : c.exports) {
        if (c.enable && !c.local) {
            if (!e->gen_bp.load(std::memory_order_acquire)) e->bp_original.store(e->address(), std::memory_order_relaxed);
            set_staging(ensure_bp(e->gen_bp, c.session, 0), BPF_GLOBAL_TRACE, 0);
        } else if (GenericBp* bp = find_bp(e->gen_bp, c.session); bp && clear_global) {
            set_staging(bp, 0, BPF_GLOBAL_TRACE);
        }
    }
    return !c.functions.empty() || !c.exports.empty();
}

void install(BreakpointChange& c) {
    bool local_kind = c.count == CountAction::Start || (c.count == CountAction::None && c.enable && c.local);
    if (!local_kind && !(c.enable && c.count == CountAction::None)) return;
    if (local_kind) for (const CodeInfo* ci : c.functions) {
        auto& slot = const_cast<CodeInfo*>(ci)->gen_bp;
        link_prepared(slot);
        GenericBp* head = slot.load(std::memory_order_acquire);
        if (head && !has_breakpoint(ci)) patch_word(first_instruction(ci), breakpoint_word());
    }
    if (!local_kind) for (Export* e : c.exports) {
        link_prepared(e->gen_bp);
        if (!e->gen_bp.load(std::memory_order_acquire)) continue;
        const Word* trampoline = e->bp_trampoline;
        if (e->addresses[0].load(std::memory_order_acquire) != trampoline) {
            e->addresses[0].store(trampoline, std::memory_order_release);
            e->addresses[1].store(trampoline, std::memory_order_release);
        }
        if (e->bif) e->bif_traced.store(true, std::memory_order_release);
    }
}

void commit() {
    // Mirrors erts_commit_staged_bp(): the staging generation becomes the active one.
    g_active_bp_ix.store(1 - g_active_bp_ix.load(std::memory_order_relaxed), std::memory_order_release);
}

void uninstall(BreakpointChange& c) {
    for (const CodeInfo* ci : c.functions) {
        auto& slot = const_cast<CodeInfo*>(ci)->gen_bp;
        GenericBp* head = slot.load(std::memory_order_acquire);
        if (head && has_breakpoint(ci) && chain_active_flags(slot) == 0)
            patch_word(first_instruction(ci), head->orig_instr);
    }
    for (Export* e : c.exports) {
        if (!e->gen_bp.load(std::memory_order_acquire) || chain_active_flags(e->gen_bp) != 0) continue;
        if (e->addresses[0].load(std::memory_order_acquire) == e->bp_trampoline) {
            const Word* original = e->bp_original.load(std::memory_order_relaxed);
            e->addresses[0].store(original, std::memory_order_release);
            e->addresses[1].store(original, std::memory_order_release);
        }
        e->bif_traced.store(false, std::memory_order_release);
    }
}

void consolidate(BreakpointChange& c) {
    for (const CodeInfo* ci : c.functions) consolidate_chain(const_cast<CodeInfo*>(ci)->gen_bp, c.to_free);
    for (Export* e : c.exports) consolidate_chain(e->gen_bp, c.to_free);
}

void apply_on_load(vm::Module& module, TraceSession* session, std::uint32_t flags) {
    auto add = [&](std::atomic<GenericBp*>& slot, Word orig, std::uint32_t kind) {
        GenericBp* bp = find_bp(slot, session);
        if (!bp) {
            bp = allocate_bp();
            bp->session = session;
            bp->orig_instr = slot.load() ? slot.load()->orig_instr : orig;
            bp->next.store(slot.load(), std::memory_order_relaxed);
            slot.store(bp, std::memory_order_release);
        }
        bp->data[0].flags.fetch_or(kind, std::memory_order_relaxed);
        bp->data[1].flags.fetch_or(kind, std::memory_order_relaxed);
    };
    for (vm::FunctionInfo& f : module.functions) {
        auto* ci = const_cast<CodeInfo*>(module.code_info(f));
        if (flags & BPF_LOCAL_TRACE) {
            Word orig = has_breakpoint(ci) ? ci->gen_bp.load()->orig_instr : read_word(ci->code());
            add(ci->gen_bp, orig, BPF_LOCAL_TRACE);
            if (!has_breakpoint(ci)) patch_word(first_instruction(ci), breakpoint_word());
        } else if ((flags & BPF_GLOBAL_TRACE) && f.export_entry && !f.export_entry->is_bif()) {
            add(f.export_entry->gen_bp, 0, BPF_GLOBAL_TRACE);  // vm publishes the trampoline
        }
    }
}

void release_all(vm::Vm& vm) {
    auto release_chain = [](std::atomic<GenericBp*>& head) {
        GenericBp* bp = head.exchange(nullptr);
        while (bp) {
            GenericBp* next = bp->next.load();
            delete bp->to_insert;
            delete bp;
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
}

}  // namespace beamlet::tracing
