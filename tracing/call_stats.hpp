// tracing/call_stats.hpp — call_time and call_memory accounting: which function a process is
// being charged for in each session, and adding what it used to that function's table when it
// moves on (a call, a return, a schedule out). The tables themselves (CallTimeData) belong to
// the breakpoint generations (tracing/breakpoints.hpp). Mirrors the accounting half of beam_bp.c.
#pragma once

#include <atomic>
#include <chrono>

#include "tracing/breakpoints.hpp"
#include "vm/process.hpp"

namespace beamlet::tracing {

// A traced function is named by its breakpoint chain: a function header's, or a BIF export's.
using BpChain = std::atomic<vm::GenericBp*>;

// [p]'s accounting in [session], created empty if missing (owner thread only).
inline vm::CallAccounting& accounting_of(vm::Process* p, vm::TraceSession* session);

// Charges what [p] used since the last event to the function it was in (with the calls to it
// not yet counted), then starts charging [next] (null: nothing), counting one call to it if
// [call]; returns the chain charged before. [memory]: call_memory, else call_time. Inline: it
// runs at every breakpoint hit with call_time or call_memory.
inline const BpChain* charge(vm::Process* p, vm::CallAccounting& a, bool memory, const BpChain* next, bool call);

// [p] is scheduled out ([out]) or in: time spent scheduled out is not charged.
void schedule_break(vm::Process* p, bool out);

// ---- implementation ----

namespace detail {

// call_time's clock, in nanoseconds (only differences matter): on x86-64 with an invariant
// time-stamp counter, the counter scaled by a factor measured once (a few cycles, where
// clock_gettime costs ~15 ns and call_time reads the clock twice per call); steady_clock
// elsewhere.
struct TscClock {
    std::uint64_t mult = 0;  // nanoseconds per tick, << 32; 0: use steady_clock
};
extern const TscClock& tsc_clock();

inline std::int64_t steady_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

inline std::int64_t now_ns() {
#if defined(__x86_64__)
    if (std::uint64_t mult = tsc_clock().mult)
        return std::int64_t((static_cast<unsigned __int128>(__builtin_ia32_rdtsc()) * mult) >> 32);
#endif
    return steady_ns();
}

// The call_time or call_memory table of [chain] for [session] now, or null.
inline CallTimeData* table_of(const BpChain* chain, const vm::TraceSession* session, bool memory) {
    if (!chain) return nullptr;
    const GenericBpData* d = active_data(*chain, session);
    if (!d) return nullptr;
    std::uint32_t flags = d->flags.load(std::memory_order_relaxed);
    if (memory) return (flags & BPF_MEM_TRACE_ACTIVE) ? d->memory : nullptr;
    return (flags & BPF_TIME_TRACE_ACTIVE) ? d->time : nullptr;
}

}  // namespace detail

inline vm::CallAccounting& accounting_of(vm::Process* p, vm::TraceSession* session) {
    for (vm::CallAccounting& a : p->call_accounting)
        if (a.session == session) return a;
    p->call_accounting.push_back(vm::CallAccounting{session, nullptr, 0, 0, nullptr, 0, 0});
    return p->call_accounting.back();
}

inline const BpChain* charge(vm::Process* p, vm::CallAccounting& a, bool memory, const BpChain* next, bool call) {
    std::int64_t now = memory ? std::int64_t(p->allocated_words()) : detail::now_ns();
    const void*& current = memory ? a.memory_site : a.time_site;
    std::int64_t& since = memory ? a.memory_since : a.time_since;
    std::int64_t& pending = memory ? a.memory_calls : a.time_calls;
    const auto* previous = static_cast<const BpChain*>(current);
    if (CallTimeData* t = detail::table_of(previous, a.session, memory)) t->add(p->id, pending, now - since);
    current = next;
    since = now;
    pending = call ? 1 : 0;
    return previous;
}

}  // namespace beamlet::tracing
