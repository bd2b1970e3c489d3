// tracing/call_stats.cpp — call_time / call_memory tables and the per-process accounting.
#include "tracing/call_stats.hpp"

#include <fstream>
#include <string>
#include <thread>

#include "tracing/breakpoints.hpp"
#include "vm/scheduler.hpp"

namespace beamlet::tracing {

using namespace vm;

// ---- the clock -------------------------------------------------------------------------------

namespace detail {

namespace {

// The time-stamp counter's nanoseconds per tick (<< 32), measured against steady_clock over
// 2 ms, when the CPU says the counter is invariant (constant_tsc and nonstop_tsc); else 0.
TscClock calibrate() {
    TscClock c;
#if defined(__x86_64__)
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    bool constant = false, nonstop = false;
    while (std::getline(cpuinfo, line)) {
        if (!line.starts_with("flags")) continue;
        constant = line.find(" constant_tsc") != std::string::npos;
        nonstop = line.find(" nonstop_tsc") != std::string::npos;
        break;
    }
    if (!constant || !nonstop) return c;
    std::int64_t t0 = steady_ns();
    std::uint64_t c0 = __builtin_ia32_rdtsc();
    std::int64_t t1 = t0;
    while (t1 - t0 < 2000000) t1 = steady_ns();
    std::uint64_t c1 = __builtin_ia32_rdtsc();
    if (c1 > c0) c.mult = (static_cast<std::uint64_t>(t1 - t0) << 32) / (c1 - c0);
#endif
    return c;
}

}  // namespace

const TscClock& tsc_clock() {
    static const TscClock clock = calibrate();
    return clock;
}

}  // namespace detail

// ---- call_time / call_memory tables ------------------------------------------------------------

struct CallTimeData::Table {
    std::atomic<bool> busy{false};
    std::vector<Entry> slots = std::vector<Entry>(8, Entry{0, 0, 0});  // open addressing, pid 0: free
    std::size_t used = 0;

    void lock() {
        while (busy.exchange(true, std::memory_order_acquire)) std::this_thread::yield();
    }
    void unlock() { busy.store(false, std::memory_order_release); }

    Entry& find(Term pid) {
        std::size_t mask = slots.size() - 1;
        for (std::size_t i = (pid >> 4) & mask;; i = (i + 1) & mask)
            if (slots[i].pid == pid || slots[i].pid == 0) return slots[i];
    }
    void add(Term pid, std::int64_t count, std::int64_t sum) {
        Entry* e = &find(pid);
        if (e->pid == 0) {
            if (2 * (used + 1) > slots.size()) {
                std::vector<Entry> old = std::move(slots);
                slots.assign(old.size() * 2, Entry{0, 0, 0});
                for (const Entry& o : old)
                    if (o.pid) find(o.pid) = o;
                e = &find(pid);
            }
            ++used;
            e->pid = pid;
        }
        e->count += count;
        e->sum += sum;
    }
};

CallTimeData::~CallTimeData() {
    for (auto& t : m_tables) delete t.load(std::memory_order_relaxed);
}

void CallTimeData::add(Term pid, std::int64_t count, std::int64_t sum) {
    int ix = Schedulers::current_index() + 1;
    if (ix < 0 || ix >= MAX_TABLES) ix = 0;
    Table* t = m_tables[ix].load(std::memory_order_acquire);
    if (!t) {
        auto* fresh = new Table();
        if (m_tables[ix].compare_exchange_strong(t, fresh, std::memory_order_acq_rel)) t = fresh;
        else delete fresh;
    }
    t->lock();
    t->add(pid, count, sum);
    t->unlock();
}

std::vector<CallTimeData::Entry> CallTimeData::collect() const {
    Table merged;
    for (const auto& slot : m_tables) {
        Table* t = slot.load(std::memory_order_acquire);
        if (!t) continue;
        t->lock();
        for (const Entry& e : t->slots)
            if (e.pid) merged.add(e.pid, e.count, e.sum);
        t->unlock();
    }
    std::vector<Entry> out;
    for (const Entry& e : merged.slots)
        if (e.pid) out.push_back(e);
    return out;
}

// ---- accounting ----------------------------------------------------------------------------------

void schedule_break(Process* p, bool out) {
    std::int64_t now = detail::now_ns();
    for (CallAccounting& a : p->call_accounting) {
        if (!out) {
            a.time_since = now;
        } else if (CallTimeData* t = detail::table_of(static_cast<const BpChain*>(a.time_site), a.session, false)) {
            t->add(p->id, a.time_calls, now - a.time_since);
            a.time_calls = 0;
        }
    }
}

}  // namespace beamlet::tracing
