// vm/literal_area.hpp — the literal arena: module literals live in one reserved address range,
// so "is this pointer a literal?" is one range check and the GC never copies literals.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "vm/term.hpp"

namespace beamlet::vm {

// Allocates [n] words of literal memory (never freed once a module holds them: purged code
// stays mapped).
Term* literal_alloc(Word n);
// Gives back [from, to), the unused end of the arena's latest allocation (a no-op otherwise).
void literal_trim(Term* from, Term* to);

// The arena's state before a load: literal_rollback frees everything allocated since, when the
// calling thread made all of those allocations (a load that failed, or whose module is
// dropped); otherwise it keeps them (another load's literals may sit in between).
struct LiteralMark {
    Term* top;
    std::uint64_t allocations;      // the arena's, since it was made
    std::uint64_t own_allocations;  // this thread's
};
LiteralMark literal_mark();
void literal_rollback(const LiteralMark& mark);
// The arena's bounds (null until the runtime's static initialisation has reserved it).
namespace detail {
extern const Term* g_literal_lo;
extern const Term* g_literal_hi;
}  // namespace detail
// True when [p] points into the literal arena (inline: every message copy asks per object).
inline bool is_literal_ptr(const Term* p) { return p >= detail::g_literal_lo && p < detail::g_literal_hi; }

// Literal memory being given up (an erased or replaced persistent term, OTP's literal area
// release): every process copies what it still references of [lo, hi) into its own heap (a
// CopyLiterals signal, handled with a collection, Vm::release_literals), and once the last has
// done so the binaries and magic refs on [off_heap_first] are released (their destructors
// run). The words stay in the arena, which only grows: a reference missed still reads valid
// memory.
struct LiteralRelease {
    const Term* lo = nullptr;
    const Term* hi = nullptr;
    Term* off_heap_first = nullptr;
    std::atomic<std::size_t> pending{0};
};
// One process has done its part (or is gone): the last one releases the objects and frees [job].
void literal_release_done(LiteralRelease* job);

// Which literals a copy leaves where they are rather than copying. copied(): none, for a copy
// kept outside any process (a table, a timer, a trace message). shared(): every literal but
// those of an area being released when it was made, for a message or spawn argument between
// processes, as OTP's copy_struct does: a release visits message queues too, and from
// literal_release_begin() (made before its signals go out, one thread-progress step later) to
// its last literal_release_done(), a message copies what it holds of the area, so that none sent
// after a process has done its part brings it a literal being released. Made once per copy:
// a term's size and its copy must agree.
class Literals {
public:
    static Literals copied() { return Literals(); }
    static Literals shared();
    bool shares(const Term* p) const {
        if (!m_share || !is_literal_ptr(p)) return false;
        for (unsigned i = 0; i < m_released_count; ++i)
            if (p >= m_released[i].lo && p < m_released[i].hi) return false;
        return true;
    }

private:
    // More areas than this being released at once (rare: one at a time, as a rule): copied.
    static constexpr unsigned MAX_RELEASED = 4;
    struct Range {
        const Term* lo;
        const Term* hi;
    };
    bool m_share = false;
    unsigned m_released_count = 0;
    Range m_released[MAX_RELEASED];
};
void literal_release_begin(const LiteralRelease* job);

}  // namespace beamlet::vm
