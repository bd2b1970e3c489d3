// vm/literal_area.cpp — one reserved range, bump-allocated under a mutex.
#include "vm/literal_area.hpp"

#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "vm/magic.hpp"

namespace beamlet::vm {

namespace {
constexpr std::size_t LITERAL_RESERVE_BYTES = std::size_t(4) << 30;

struct Arena {
    Term* base = nullptr;
    Term* top = nullptr;
    Term* end = nullptr;
    std::uint64_t allocations = 0;
    std::mutex mutex;
    Arena() {
        void* mem = mmap(nullptr, LITERAL_RESERVE_BYTES, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (mem == MAP_FAILED) {
            std::fprintf(stderr, "beamlet: cannot reserve the literal area\n");
            std::exit(1);
        }
        base = top = static_cast<Term*>(mem);
        end = base + LITERAL_RESERVE_BYTES / sizeof(Term);
    }
};

Arena& arena() {
    static Arena a;
    return a;
}
}  // namespace

const Term* detail::g_literal_lo = arena().base;
const Term* detail::g_literal_hi = arena().end;

thread_local std::uint64_t t_own_allocations = 0;

Term* literal_alloc(Word n) {
    Arena& a = arena();
    std::lock_guard lock(a.mutex);
    if (Word(a.end - a.top) < n) {
        std::fprintf(stderr, "beamlet: literal area exhausted\n");
        std::exit(1);
    }
    Term* p = a.top;
    a.top += n;
    ++a.allocations;
    ++t_own_allocations;
    return p;
}

void literal_trim(Term* from, Term* to) {
    Arena& a = arena();
    std::lock_guard lock(a.mutex);
    if (a.top == to && from <= to) a.top = from;
}

LiteralMark literal_mark() {
    Arena& a = arena();
    std::lock_guard lock(a.mutex);
    return {a.top, a.allocations, t_own_allocations};
}

void literal_rollback(const LiteralMark& mark) {
    Arena& a = arena();
    std::lock_guard lock(a.mutex);
    if (a.allocations - mark.allocations != t_own_allocations - mark.own_allocations) return;
    a.top = mark.top;
}

namespace {
// The areas being released, and their count, which a copy reads first (no lock when none).
std::mutex g_released_mutex;
std::vector<const LiteralRelease*> g_released;
std::atomic<std::size_t> g_released_count{0};
}  // namespace

// One object, returned from every path, so that it is built in the caller's (a copy of it
// through the stack, written by bytes and read back by 16, stalled every send: 5% of a ring).
Literals Literals::shared() {
    Literals l;
    if (g_released_count.load(std::memory_order_acquire) == 0) {
        l.m_share = true;
        return l;
    }
    std::lock_guard lock(g_released_mutex);
    if (g_released.size() > MAX_RELEASED) return l;  // copied
    l.m_share = true;
    for (const LiteralRelease* job : g_released) l.m_released[l.m_released_count++] = {job->lo, job->hi};
    return l;
}

void literal_release_begin(const LiteralRelease* job) {
    std::lock_guard lock(g_released_mutex);
    g_released.push_back(job);
    g_released_count.store(g_released.size(), std::memory_order_seq_cst);
}

void literal_release_done(LiteralRelease* job) {
    if (job->pending.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    {
        std::lock_guard lock(g_released_mutex);
        std::erase(g_released, job);
        g_released_count.store(g_released.size(), std::memory_order_release);
    }
    release_off_heap_list(job->off_heap_first);
    delete job;
}

}  // namespace beamlet::vm
