// vm/gc.cpp — the copying garbage collector (Cheney), with heap resizing by offsetting pointers.
//
// A collection copies everything reachable from the roots that lives in the process's heap or
// heap fragments into a fresh block; literals (and any other memory) are left where they are.
// The block is then resized so that about half of it is free, as OTP's grow/shrink policy does.
#include <algorithm>
#include <chrono>
#include <unordered_map>
#include <vector>
#include <thread>
#include <cstdlib>
#include <cstring>
#include <new>

#include "vm/assert.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/heap.hpp"
#include "vm/heap_blocks.hpp"
#include "vm/literal_area.hpp"
#include "vm/magic.hpp"
#include "vm/process.hpp"
#include "vm/trace_hooks.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

namespace {

class Collector {
public:
    // [young_to] receives young survivors; in a minor collection, objects below the high-water
    // mark go to [old_to] (the old heap's free space) instead.
    // [released]: a literal area being released, whose objects this collection copies into the
    // young heap as if they were the process's own (keeping their sharing).
    Collector(Process* p, Term* young_to, Term* old_to, bool major, const LiteralRelease* released = nullptr)
        : m_p(p),
          m_lit_lo(released ? released->lo : nullptr),
          m_lit_hi(released ? released->hi : nullptr),
          m_heap_lo(p->heap),
          m_heap_hi(p->htop),
          m_promote_hi(major ? p->heap : p->high_water),
          m_old_lo(major ? p->old_heap : nullptr),
          m_old_hi(major ? p->old_htop : nullptr),
          m_htop(young_to),
          m_old_top(old_to) {
        // Many fragments (a process that received many messages, or a BIF's large answer):
        // their ranges, sorted, so that each pointer is checked by a binary search, not
        // against every fragment in turn.
        Word count = 0;
        for (HeapFragment* f = p->mbuf; f && count <= FEW_FRAGMENTS; f = f->next) ++count;
        if (count > FEW_FRAGMENTS) {
            for (HeapFragment* f = p->mbuf; f; f = f->next) m_fragments.push_back({f->data, f->data + f->size_words});
            std::sort(m_fragments.begin(), m_fragments.end());
        }
    }

    bool in_from_space(const Term* ptr) const {
        if (ptr >= m_heap_lo && ptr < m_heap_hi) return true;
        if (ptr >= m_old_lo && ptr < m_old_hi) return true;
        if (!m_p->mbuf) return false;
        if (m_fragments.empty()) {
            for (HeapFragment* f = m_p->mbuf; f; f = f->next)
                if (f->contains(ptr)) return true;
            return false;
        }
        // The last fragment starting at or below [ptr].
        auto after = std::upper_bound(m_fragments.begin(), m_fragments.end(), ptr,
                                      [](const Term* q, const Range& r) { return q < r.first; });
        return after != m_fragments.begin() && ptr < std::prev(after)->second;
    }

    bool in_released_literals(const Term* ptr) const { return ptr >= m_lit_lo && ptr < m_lit_hi; }

    // Copies the literal object [t] points at once (its sharing kept: the area stays readable
    // by other processes, so no forwarding pointer is left in it). Its binary or magic ref
    // gains a reference, which the scan links into the process's off-heap list.
    Term copy_released(Term t) {
        const Term* obj = is_list(t) ? list_ptr(t) : boxed_ptr(t);
        auto [it, fresh] = m_lit_copies.try_emplace(obj, Term(0));
        if (!fresh) return it->second;
        Word size = is_list(t) ? 2 : boxed_size_words(obj[0]);
        Term* to = m_htop;
        m_htop += size;
        for (Word i = 0; i < size; ++i) to[i] = obj[i];
        if (is_boxed(t)) {
            if (header_subtag(obj[0]) == Subtag::RefcBin) reinterpret_cast<BinaryBuf*>(to[2])->add_ref();
            if (header_subtag(obj[0]) == Subtag::Ref && size == MAGIC_REF_WORDS) reinterpret_cast<MagicHandle*>(to[5])->add_ref();
        }
        it->second = is_list(t) ? make_list(to) : make_boxed(to);
        return it->second;
    }

    // Where a copy of the object at [ptr] goes.
    Term*& destination(const Term* ptr) { return (ptr >= m_heap_lo && ptr < m_promote_hi) ? m_old_top : m_htop; }

    [[gnu::always_inline]] Term copy(Term t) {
        switch (t & TAG_PRIMARY_MASK) {
        case TAG_PRIMARY_LIST: {
            Term* cell = list_ptr(t);
            if (!in_from_space(cell)) return in_released_literals(cell) ? copy_released(t) : t;
            if (cell[0] == THE_NON_VALUE) return cell[1];  // already moved
            Term*& top = destination(cell);
            Term* to = top;
            top += 2;
            to[0] = cell[0];
            to[1] = cell[1];
            Term moved = make_list(to);
            cell[0] = THE_NON_VALUE;
            cell[1] = moved;
            return moved;
        }
        case TAG_PRIMARY_BOXED: {
            Term* obj = boxed_ptr(t);
            if (!in_from_space(obj)) return in_released_literals(obj) ? copy_released(t) : t;
            Word header = obj[0];
            if (is_boxed(header)) return header;  // forwarding pointer
            Word size = boxed_size_words(header);
            Term*& top = destination(obj);
            Term* to = top;
            top += size;
            for (Word i = 0; i < size; ++i) to[i] = obj[i];  // objects are small: no memcpy call
            Term moved = make_boxed(to);
            obj[0] = moved;
            return moved;
        }
        default:
            return t;
        }
    }

    void copy_root(Term* slot) { *slot = copy(*slot); }

    // Scans the copies in both destinations until no uncopied object remains.
    void scan(Term* young_scan, Term* old_scan) {
        while (young_scan < m_htop || old_scan < m_old_top) {
            while (young_scan < m_htop) young_scan = scan_one(young_scan);
            while (old_scan < m_old_top) old_scan = scan_one(old_scan);
        }
    }

    Term* htop() const { return m_htop; }
    Term* old_top() const { return m_old_top; }
    Term* new_off_heap() const { return m_new_off_heap; }

private:
    // Scans the word or object at [scan]; returns where the next one starts.
    [[gnu::always_inline]] Term* scan_one(Term* scan) {
        Word w = *scan;
        if (!is_header(w)) {
            *scan = copy(w);
            return scan + 1;
        }
        Word arity = header_arity(w);
        switch (header_subtag(w)) {
        case Subtag::Tuple:
        case Subtag::HashNode:
            return scan + 1;  // elements are scanned as ordinary words
        case Subtag::Map:
            scan[2] = copy(scan[2]);  // keys tuple; [1] is the raw size; values follow
            return scan + 3;
        case Subtag::Fun:
            return scan + 3;  // FunEntry*, creator pid; free variables follow
        case Subtag::SubBin:
            scan[4] = copy(scan[4]);
            return scan + 1 + arity;
        case Subtag::MatchState:
            scan[1] = copy(scan[1]);
            return scan + 1 + arity;
        case Subtag::RefcBin:
            scan[4] = reinterpret_cast<Word>(m_new_off_heap);
            m_new_off_heap = scan;
            return scan + 1 + arity;
        case Subtag::Ref:
            if (arity == MAGIC_REF_WORDS - 1) {  // a magic ref is off-heap too
                scan[4] = reinterpret_cast<Word>(m_new_off_heap);
                m_new_off_heap = scan;
            }
            return scan + 1 + arity;
        default:  // floats, bignums, refs, heap binaries, export funs: raw payload
            return scan + 1 + arity;
        }
    }

    using Range = std::pair<const Term*, const Term*>;
    static constexpr Word FEW_FRAGMENTS = 8;

    Process* m_p;
    std::vector<Range> m_fragments;  // sorted by start; empty when there are few
    const Term* m_lit_lo;
    const Term* m_lit_hi;
    std::unordered_map<const Term*, Term> m_lit_copies;
    const Term* m_heap_lo;
    const Term* m_heap_hi;
    const Term* m_promote_hi;
    const Term* m_old_lo;
    const Term* m_old_hi;
    Term* m_htop;
    Term* m_old_top;
    Term* m_new_off_heap = nullptr;
};

bool is_stack_term(Word w) { return !is_header(w) && !is_catch(w); }

// Moves [p]'s heap and stack into a block of [new_size] words, adjusting every pointer into the
// old heap by the distance moved (OTP's offset_heap).
void resize_block(Process* p, Term* x, Word live, Word new_size) {
    Word heap_used = Word(p->htop - p->heap);
    Word stack_used = Word(p->hend - p->stop);
    Term* block = static_cast<Term*>(heap_block_alloc(new_size * sizeof(Term)));
    std::memcpy(block, p->heap, heap_used * sizeof(Term));
    Term* new_hend = block + new_size;
    std::memcpy(new_hend - stack_used, p->stop, stack_used * sizeof(Term));

    const Term* old_lo = p->heap;
    const Term* old_hi = p->htop;
    SWord delta_bytes = reinterpret_cast<char*>(block) - reinterpret_cast<char*>(p->heap);
    auto offset = [&](Term t) -> Term {
        if (is_list(t) || is_boxed(t)) {
            const Term* ptr = is_list(t) ? list_ptr(t) : boxed_ptr(t);
            if (ptr >= old_lo && ptr < old_hi) return Term(SWord(t) + delta_bytes);
        }
        return t;
    };
    for (Term* w = block; w < block + heap_used;) {
        Word v = *w;
        if (!is_header(v)) {
            *w = offset(v);
            ++w;
            continue;
        }
        Word arity = header_arity(v);
        switch (header_subtag(v)) {
        case Subtag::Tuple:
        case Subtag::HashNode: ++w; break;
        case Subtag::Map: w[2] = offset(w[2]); w += 3; break;
        case Subtag::Fun: w += 3; break;
        case Subtag::SubBin: w[4] = offset(w[4]); w += 1 + arity; break;
        case Subtag::MatchState: w[1] = offset(w[1]); w += 1 + arity; break;
        case Subtag::RefcBin:  // links are fixed below, by walking the list
            w += 1 + arity;
            break;
        default: w += 1 + arity; break;
        }
    }
    for (Term* s = new_hend - stack_used; s < new_hend; ++s)
        if (is_stack_term(*s)) *s = offset(*s);
    for (Word i = 0; i < live; ++i) x[i] = offset(x[i]);
    for (auto& [k, v] : p->dictionary) {
        k = offset(k);
        v = offset(v);
    }
    p->seq_token = offset(p->seq_token);
    // The off-heap list mixes binaries of both heaps: move only the links into this block.
    auto moved = [&](Term* bin) {
        return (bin >= old_lo && bin < old_hi) ? reinterpret_cast<Term*>(reinterpret_cast<char*>(bin) + delta_bytes) : bin;
    };
    p->off_heap_first = moved(p->off_heap_first);
    for (Term* bin = p->off_heap_first; bin; bin = reinterpret_cast<Term*>(bin[4]))
        bin[4] = reinterpret_cast<Word>(moved(reinterpret_cast<Term*>(bin[4])));

    p->free_heap_block();
    p->heap = block;
    p->htop = block + heap_used;
    p->hend = new_hend;
    p->stop = new_hend - stack_used;
    p->heap_size_words = p->heap_block_words = new_size;
}

// The young heap ends at [new_size] words into its block: the stack moves down, the heap's
// data stays where it is (the block's tail is freed with the block at the next collection).
void shrink_in_place(Process* p, Word new_size) {
    Word stack_used = Word(p->hend - p->stop);
    Term* new_hend = p->heap + new_size;
    BEAMLET_ASSERT(new_hend - stack_used >= p->htop);
    std::memmove(new_hend - stack_used, p->stop, stack_used * sizeof(Term));
    p->hend = new_hend;
    p->stop = new_hend - stack_used;
    p->heap_size_words = new_size;
}

}  // namespace

namespace {
Word collect(Process* p, Term* x, Word live, Word need_words, bool major, const LiteralRelease* released = nullptr);

// max_heap_size: young and old heap blocks and on-heap messages together (OTP's total heap
// size) past the limit kill the process (the signal acts when it is next scheduled in) and
// report it once it is off its scheduler (Vm::report_max_heap_size): neither can happen in the
// middle of a collection.
void check_max_heap_size(Process* p) {
    Word total = p->heap_size_words + Word(p->old_hend - p->old_heap) + p->on_heap_message_words();
    bool over = total > p->max_heap.size;
    if (over && !p->max_heap_over) {
        p->max_heap_reached = total;
        if (p->max_heap.kill) p->vm.send_exit(p->id, p->id, atoms::kill, false);
    }
    p->max_heap_over = over;
}
}  // namespace

Word garbage_collect(Process* p, Term* x, Word live, Word need_words, bool major) {
    auto in_use = [p] { return Word(p->htop - p->heap) + Word(p->old_htop - p->old_heap) + p->mbuf_words; };
    Word before = in_use();
    Word reds;
    int test_sleep = p->vm.test_long_gc_sleep_ms.load(std::memory_order_relaxed);
    const SystemMonitors& monitors = p->vm.system_monitors;
    if (!monitors.long_gc_ms() && !monitors.large_heap_words() && !test_sleep) {
        reds = collect(p, x, live, need_words, major);
    } else {
        auto start = std::chrono::steady_clock::now();
        reds = collect(p, x, live, need_words, major);
        if (test_sleep) std::this_thread::sleep_for(std::chrono::milliseconds(test_sleep));
        auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
        p->vm.monitor_gc(p, std::uint64_t(ms));
    }
    if (p->max_heap.size) check_max_heap_size(p);
    // statistics(garbage_collection)
    Word after = in_use();
    p->vm.gc_count.fetch_add(1, std::memory_order_relaxed);
    if (after < before) p->vm.gc_reclaimed_words.fetch_add(before - after, std::memory_order_relaxed);
    return reds;
}

namespace {
// True when a word of [p]'s (registers, stack, dictionary, heaps) may point into [lo, hi):
// heap words are read raw, so a binary's bytes can answer yes (a needless collection, no more).
bool references_range(const Process* p, const Term* x, Word live, const Term* lo, const Term* hi) {
    auto points_in = [&](Word w) {
        if (!is_list(w) && !is_boxed(w)) return false;
        const Term* ptr = is_list(w) ? list_ptr(w) : boxed_ptr(w);
        return ptr >= lo && ptr < hi;
    };
    auto any_in = [&](const Term* from, const Term* to) {
        for (const Term* w = from; w < to; ++w)
            if (points_in(*w)) return true;
        return false;
    };
    if (any_in(x, x + live) || any_in(p->stop, p->hend) || any_in(p->heap, p->htop) || any_in(p->old_heap, p->old_htop))
        return true;
    for (const HeapFragment* f = p->mbuf; f; f = f->next)
        if (any_in(f->data, f->data + f->used_words)) return true;
    for (const auto& [k, v] : p->dictionary)
        if (points_in(k) || points_in(v)) return true;
    return points_in(p->seq_token);
}

}  // namespace

void garbage_collect_hibernate(Process* p, Term* x, Word live) {
    garbage_collect(p, x, live, 0, true);
    Word in_use = std::max<Word>(1, Word(p->htop - p->heap) + p->stack_used_words());
    if (in_use != p->heap_size_words) resize_block(p, x, live, in_use);
    p->high_water = p->htop;
}

void ensure_heap_block(Process* p, Term* x, Word live, Word words) {
    if (p->heap_size_words >= words) return;
    resize_block(p, x, live, words);
    p->high_water = p->htop;
}

bool garbage_collect_literals(Process* p, Term* x, Word live, const LiteralRelease& released) {
    if (!references_range(p, x, live, released.lo, released.hi)) return false;
    collect(p, x, live, 0, true, &released);
    if (p->max_heap.size) check_max_heap_size(p);  // the copies count, as on OTP
    return true;
}

namespace {

// Writable binaries (appends) at a collection, as OTP's GC treats them: one appended to since
// the last collection stays writable; one left alone since then is done growing, and gives its
// spare room back (shrunk to its last version, no longer writable) — unless no writable
// binary is active and only a few (OTP's 10) are idle, which are left as they are. Answers
// whether any writable binary is left.
bool settle_writable_binaries(Term* off_heap) {
    constexpr std::size_t LEAVE_IDLE = 10;
    std::vector<Term*> idle;
    bool active = false;
    for (Term* bin = off_heap; bin; bin = reinterpret_cast<Term*>(bin[4])) {
        if (header_subtag(bin[0]) != Subtag::RefcBin) continue;
        auto* buf = reinterpret_cast<BinaryBuf*>(bin[2]);
        if (buf->refc.load(std::memory_order_acquire) != 1 || buf->append_end_bits == BinaryBuf::NOT_WRITABLE) continue;
        if (buf->append_active) {
            buf->append_active = false;
            active = true;
        } else {
            idle.push_back(bin);
        }
    }
    if (!active && idle.size() <= LEAVE_IDLE) return !idle.empty();
    for (Term* bin : idle) {
        auto* buf = reinterpret_cast<BinaryBuf*>(bin[2]);
        std::size_t used = (buf->append_end_bits + 7) / 8;
        buf->append_end_bits = BinaryBuf::NOT_WRITABLE;
        if (buf->size_bytes - used < 8) continue;
        BinaryBuf* shrunk = BinaryBuf::create(used);
        std::memcpy(shrunk->bytes, buf->bytes, used);
        buf->release();
        bin[2] = reinterpret_cast<Word>(shrunk);
        bin[3] = reinterpret_cast<Word>(shrunk->bytes);
    }
    return active;
}

Word collect(Process* p, Term* x, Word live, Word need_words, bool major, const LiteralRelease* released) {
    Word used_before = p->heap_used_words();
    Word heap_used = Word(p->htop - p->heap);
    Word stack_used = Word(p->hend - p->stop);
    Word promote = Word(p->high_water - p->heap);
    Word old_free = Word(p->old_hend - p->old_htop);
    // A major collection every fullsweep_after minor ones, when asked, or when the old heap
    // cannot take what would be promoted (OTP grows the old heap by collecting it).
    if (p->minor_gcs >= p->fullsweep_after) major = true;
    if (!major && promote > 0 && !p->old_heap) {
        Word size = next_heap_size_words(2 * promote);
        p->old_heap = static_cast<Term*>(heap_block_alloc(size * sizeof(Term)));
        p->old_htop = p->old_heap;
        p->old_hend = p->old_heap + size;
        old_free = size;
    }
    if (!major && promote > old_free) major = true;
    bool traced = (p->all_trace_flags.load(std::memory_order_relaxed) & TRACE_GC) && p->vm.services.trace;
    if (traced) p->vm.services.trace->garbage_collection(p, false, major, need_words);

    Word old_used = major ? Word(p->old_htop - p->old_heap) : 0;
    // Big enough for the worst case, where everything being collected survives.
    Word to_size = std::max(p->heap_size_words, heap_used + stack_used) + p->mbuf_words + old_used + need_words;
    if (released) to_size += Word(released->hi - released->lo);
    Term* to_space = static_cast<Term*>(heap_block_alloc(to_size * sizeof(Term)));

    Term* old_scan_start = major ? nullptr : p->old_htop;
    Collector gc(p, to_space, old_scan_start, major, released);
    for (Word i = 0; i < live; ++i) gc.copy_root(&x[i]);
    for (Term* s = p->stop; s < p->hend; ++s)
        if (is_stack_term(*s)) gc.copy_root(s);
    for (auto& [k, v] : p->dictionary) {
        gc.copy_root(&k);
        gc.copy_root(&v);
    }
    gc.copy_root(&p->seq_token);
    gc.scan(to_space, old_scan_start);

    // Off-heap binaries: those copied were relinked by the scan; those on an old heap that was
    // not collected stay; the rest are dead.
    Term* survivors = gc.new_off_heap();
    for (Term* bin = p->off_heap_first; bin;) {
        Term* next = reinterpret_cast<Term*>(bin[4]);
        bool on_kept_old_heap = !major && bin >= p->old_heap && bin < old_scan_start;
        if (on_kept_old_heap) {
            bin[4] = reinterpret_cast<Word>(survivors);
            survivors = bin;
        } else if (!is_boxed(bin[0])) {
            release_off_heap(bin);
        }
        bin = next;
    }

    if (p->writable_binaries) p->writable_binaries = settle_writable_binaries(survivors);

    Term* to_hend = to_space + to_size;
    std::memcpy(to_hend - stack_used, p->stop, stack_used * sizeof(Term));
    for (HeapFragment* f = p->mbuf; f;) {
        HeapFragment* next = f->next;
        HeapFragment::destroy(f);
        f = next;
    }
    p->free_heap_block();
    if (major) {
        heap_block_free(p->old_heap, Word(p->old_hend - p->old_heap) * sizeof(Term));
        p->old_heap = p->old_htop = p->old_hend = nullptr;
        p->minor_gcs = 0;
    } else {
        p->old_htop = gc.old_top();
        ++p->minor_gcs;
    }
    p->mbuf = nullptr;
    p->mbuf_words = 0;
    p->young_binary_words = 0;
    p->heap = to_space;
    p->htop = gc.htop();
    p->hend = to_hend;
    p->stop = to_hend - stack_used;
    p->heap_size_words = p->heap_block_words = to_size;
    p->off_heap_first = survivors;
    ++p->gc_count;
    // Keeps allocated_words() continuous across the collection (unsigned wrap-around makes a
    // major collection that brings old data back into the young heap come out right too).
    p->gc_freed_words += used_before - p->heap_used_words();

    // Grows the block when less than 3/4 of it is free after the collection and shrinks it
    // when less than 1/8 is in use; the gap keeps the size stable for a program whose live
    // data stays about the same, and the free 3/4 keeps collections rare relative to
    // allocation (a collection costs about as much as the live data).
    // Never below the process's min_heap_size; and the headroom never takes a process with a
    // max_heap_size over it (OTP sizes heaps more tightly: a process OTP lets live lives here).
    Word in_use = Word(p->htop - p->heap) + stack_used + need_words;
    Word target = to_size;
    if (4 * in_use > to_size || (8 * in_use < to_size && to_size > 8 * MIN_HEAP_SIZE_WORDS))
        target = std::max(next_heap_size_words(4 * in_use), p->min_heap_words);
    if (p->max_heap.size) {
        Word old_block = Word(p->old_hend - p->old_heap);
        Word room = p->max_heap.size > old_block ? p->max_heap.size - old_block : 0;
        if (target > room) target = std::max(largest_heap_size_within(in_use, room), p->min_heap_words);
    }
    // A smaller block is this one with the stack moved down, the heap not copied again (the
    // block's tail goes with it at the next collection) — unless most of a large block would
    // lie unused until then.
    constexpr Word LARGE_BLOCK_WORDS = 64 * 1024;
    if (target < to_size && (to_size <= LARGE_BLOCK_WORDS || to_size <= 4 * target)) shrink_in_place(p, target);
    else if (target != to_size) resize_block(p, x, live, target);
    // Everything now in the young heap has survived one collection.
    p->high_water = p->htop;
    BEAMLET_ASSERT(Word(p->stop - p->htop) >= need_words);
    if (traced) {
        Word after = Word(p->htop - p->heap);
        p->vm.services.trace->garbage_collection(p, true, major, heap_used > after ? heap_used - after : 0);
    }
    return std::max<Word>(1, (Word(p->htop - p->heap) + stack_used) / 10);
}

}  // namespace

}  // namespace beamlet::vm
