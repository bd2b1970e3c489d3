// vm/gc.cpp — the copying garbage collector (Cheney), with heap resizing by offsetting pointers.
//
// A collection copies everything reachable from the roots that lives in the process's heap or
// heap fragments into a fresh block; literals (and any other memory) are left where they are.
// The block is then resized so that about half of it is free, as OTP's grow/shrink policy does.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "vm/assert.hpp"
#include "vm/binary.hpp"
#include "vm/heap.hpp"
#include "vm/process.hpp"

namespace beamlet::vm {

namespace {

class Collector {
public:
    Collector(Process* p, Term* to_space) : m_p(p), m_heap_lo(p->heap), m_heap_hi(p->htop), m_htop(to_space) {}

    bool in_from_space(const Term* ptr) const {
        if (ptr >= m_heap_lo && ptr < m_heap_hi) return true;
        if (!m_p->mbuf) return false;
        for (HeapFragment* f = m_p->mbuf; f; f = f->next)
            if (f->contains(ptr)) return true;
        return false;
    }

    [[gnu::always_inline]] Term copy(Term t) {
        switch (t & TAG_PRIMARY_MASK) {
        case TAG_PRIMARY_LIST: {
            Term* cell = list_ptr(t);
            if (!in_from_space(cell)) return t;
            if (cell[0] == THE_NON_VALUE) return cell[1];  // already moved
            Term* to = m_htop;
            m_htop += 2;
            to[0] = cell[0];
            to[1] = cell[1];
            Term moved = make_list(to);
            cell[0] = THE_NON_VALUE;
            cell[1] = moved;
            return moved;
        }
        case TAG_PRIMARY_BOXED: {
            Term* obj = boxed_ptr(t);
            if (!in_from_space(obj)) return t;
            Word header = obj[0];
            if (is_boxed(header)) return header;  // forwarding pointer
            Word size = boxed_size_words(header);
            Term* to = m_htop;
            m_htop += size;
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

    // Scans the to-space from [scan] until no uncopied object remains.
    void scan(Term* scan) {
        while (scan < m_htop) {
            Word w = *scan;
            if (!is_header(w)) {
                *scan = copy(w);
                ++scan;
                continue;
            }
            Word arity = header_arity(w);
            switch (header_subtag(w)) {
            case Subtag::Tuple:
                ++scan;  // elements are scanned as ordinary words
                break;
            case Subtag::Map:
                scan[2] = copy(scan[2]);  // keys tuple; [1] is the raw size; values follow
                scan += 3;
                break;
            case Subtag::Fun:
                scan += 3;  // FunEntry*, creator pid; free variables follow
                break;
            case Subtag::SubBin:
                scan[4] = copy(scan[4]);
                scan += 1 + arity;
                break;
            case Subtag::MatchState:
                scan[1] = copy(scan[1]);
                scan += 1 + arity;
                break;
            case Subtag::RefcBin:
                scan[4] = reinterpret_cast<Word>(m_new_off_heap);
                m_new_off_heap = scan;
                scan += 1 + arity;
                break;
            default:  // floats, bignums, refs, heap binaries, export funs: raw payload
                scan += 1 + arity;
                break;
            }
        }
    }

    Term* htop() const { return m_htop; }
    Term* new_off_heap() const { return m_new_off_heap; }

private:
    Process* m_p;
    const Term* m_heap_lo;
    const Term* m_heap_hi;
    Term* m_htop;
    Term* m_new_off_heap = nullptr;
};

bool is_stack_term(Word w) { return !is_header(w) && !is_catch(w); }

// Moves [p]'s heap and stack into a block of [new_size] words, adjusting every pointer into the
// old heap by the distance moved (OTP's offset_heap).
void resize_block(Process* p, Term* x, Word live, Word new_size) {
    Word heap_used = Word(p->htop - p->heap);
    Word stack_used = Word(p->hend - p->stop);
    Term* block = static_cast<Term*>(std::malloc(new_size * sizeof(Term)));
    if (!block) throw std::bad_alloc();
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
        case Subtag::Tuple: ++w; break;
        case Subtag::Map: w[2] = offset(w[2]); w += 3; break;
        case Subtag::Fun: w += 3; break;
        case Subtag::SubBin: w[4] = offset(w[4]); w += 1 + arity; break;
        case Subtag::MatchState: w[1] = offset(w[1]); w += 1 + arity; break;
        case Subtag::RefcBin:
            if (w[4]) w[4] = Word(SWord(w[4]) + delta_bytes);
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
    if (p->off_heap_first)
        p->off_heap_first = reinterpret_cast<Term*>(SWord(p->off_heap_first) + delta_bytes);

    std::free(p->heap);
    p->heap = block;
    p->htop = block + heap_used;
    p->hend = new_hend;
    p->stop = new_hend - stack_used;
    p->heap_size_words = new_size;
}

}  // namespace

void garbage_collect(Process* p, Term* x, Word live, Word need_words) {
    Word heap_used = Word(p->htop - p->heap);
    Word stack_used = Word(p->hend - p->stop);
    // Big enough for the worst case, where everything in the heap and the fragments survives.
    Word to_size = std::max(p->heap_size_words, heap_used + stack_used) + p->mbuf_words + need_words;
    Term* to_space = static_cast<Term*>(std::malloc(to_size * sizeof(Term)));
    if (!to_space) throw std::bad_alloc();

    Collector gc(p, to_space);
    for (Word i = 0; i < live; ++i) gc.copy_root(&x[i]);
    for (Term* s = p->stop; s < p->hend; ++s)
        if (is_stack_term(*s)) gc.copy_root(s);
    for (auto& [k, v] : p->dictionary) {
        gc.copy_root(&k);
        gc.copy_root(&v);
    }
    gc.scan(to_space);

    // Off-heap binaries that were not copied are dead: drop their references.
    for (Term* bin = p->off_heap_first; bin;) {
        Term* next = reinterpret_cast<Term*>(bin[4]);
        if (!is_boxed(bin[0])) reinterpret_cast<BinaryBuf*>(bin[2])->release();
        bin = next;
    }

    Term* to_hend = to_space + to_size;
    std::memcpy(to_hend - stack_used, p->stop, stack_used * sizeof(Term));
    for (HeapFragment* f = p->mbuf; f;) {
        HeapFragment* next = f->next;
        HeapFragment::destroy(f);
        f = next;
    }
    std::free(p->heap);
    p->mbuf = nullptr;
    p->mbuf_words = 0;
    p->heap = to_space;
    p->htop = gc.htop();
    p->hend = to_hend;
    p->stop = to_hend - stack_used;
    p->heap_size_words = to_size;
    p->off_heap_first = gc.new_off_heap();
    ++p->gc_count;

    // Grows the block when more than 3/4 of it is in use after the collection and shrinks it
    // when less than 1/8 is (OTP grows at 3/4 too); the gap keeps the size stable for a
    // program whose live data stays about the same.
    Word in_use = Word(p->htop - p->heap) + stack_used + need_words;
    if (4 * in_use > 3 * to_size || (8 * in_use < to_size && to_size > 8 * MIN_HEAP_SIZE_WORDS))
        resize_block(p, x, live, next_heap_size_words(4 * in_use));
    BEAMLET_ASSERT(Word(p->stop - p->htop) >= need_words);
}

}  // namespace beamlet::vm
