// vm/copy.cpp — term size and deep copy with explicit work stacks, so that neither long
// lists nor deeply nested terms (an iolist built as [[[...] | A] | B]) use the C++ stack.
#include "vm/copy.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "vm/binary.hpp"
#include "vm/heap.hpp"
#include "vm/literal_area.hpp"
#include "vm/magic.hpp"
#include "vm/work_stack.hpp"

namespace beamlet::vm {

namespace {

// Calls [visit(child)] for each term inside the object [obj] with [header].
template <typename Visit>
void for_each_child(const Term* obj, Word header, Visit visit) {
    Word arity = header_arity(header);
    switch (header_subtag(header)) {
    case Subtag::Tuple:
    case Subtag::HashNode:
        for (Word i = 1; i <= arity; ++i) visit(obj[i]);
        break;
    case Subtag::Map:
        visit(obj[2]);
        for (Word i = 3; i <= arity; ++i) visit(obj[i]);
        break;
    case Subtag::Fun:
        for (Word i = 3; i <= arity; ++i) visit(obj[i]);
        break;
    default:
        break;
    }
}

// A sub-binary is copied as erts's copy_struct copies one: the bytes it covers become a binary
// of their own (a heap binary copied out of a heap binary; a RefcBin over the same buffer,
// starting at the right byte), wrapped in a new sub-binary only for a bit offset or a partial
// last byte. A message or an ETS object then holds what erts's would, and their sizes
// (erts_debug:flat_size/1, ets:info(T, memory)) are erts's.
struct SubBinCopy {
    const Term* orig;
    std::size_t byte_offset;  // where the covered bytes start in orig's data
    std::size_t bytes;        // how many: the whole bytes plus those the bits reach into
    unsigned bit_offset;      // within the first byte
    bool wrapped;             // a sub-binary is needed on top

    explicit SubBinCopy(const Term* sub)
        : orig(boxed_ptr(sub[4])), byte_offset(std::size_t(sub[2]) / 8), bit_offset(unsigned(sub[2] % 8)) {
        unsigned reach = bit_offset + unsigned(sub[3]);
        std::size_t extra = reach > 8 ? 2 : reach > 0 ? 1 : 0;
        bytes = std::size_t(sub[1]) + extra;
        wrapped = extra != 0;
    }
    bool refc() const { return header_subtag(orig[0]) == Subtag::RefcBin; }
    Word words() const { return (refc() ? REFC_BIN_WORDS : heap_bin_words(bytes)) + (wrapped ? SUB_BIN_WORDS : 0); }
};

Term copy_sub_binary(const Term* sub, Term** hp, Term** off_heap_list) {
    SubBinCopy shape(sub);
    Term* bin = *hp;
    Term result;
    if (shape.refc()) {
        *hp += REFC_BIN_WORDS;
        auto* buf = reinterpret_cast<BinaryBuf*>(shape.orig[2]);
        buf->add_ref();
        Term* no_list = nullptr;
        make_refc_binary_in(bin, off_heap_list ? off_heap_list : &no_list, buf, shape.bytes);
        bin[3] = reinterpret_cast<Word>(reinterpret_cast<const std::uint8_t*>(shape.orig[3]) + shape.byte_offset);
        result = make_boxed(bin);
    } else {
        *hp += heap_bin_words(shape.bytes);
        result = make_binary_in(bin, nullptr, bit_view(make_boxed(shape.orig)).bytes + shape.byte_offset, shape.bytes);
    }
    if (!shape.wrapped) return result;
    Term* wrap = *hp;
    *hp += SUB_BIN_WORDS;
    wrap[0] = sub[0];
    wrap[1] = sub[1];
    wrap[2] = shape.bit_offset;
    wrap[3] = sub[3];
    wrap[4] = result;
    return make_boxed(wrap);
}

}  // namespace

Word term_size_words(Term root, const Literals& literals) {
    if (is_immediate(root)) return 0;
    Word total = 0;
    WorkStack<Term> stack(root);
    while (!stack.empty()) {
        Term t = stack.back();
        stack.pop_back();
        while (is_list(t)) {  // tails in a loop, heads on the stack
            if (literals.shares(list_ptr(t))) break;
            total += 2;
            if (!is_immediate(car(t))) stack.push_back(car(t));
            t = cdr(t);
        }
        if (is_boxed(t) && !literals.shares(boxed_ptr(t))) {
            const Term* obj = boxed_ptr(t);
            if (header_subtag(obj[0]) == Subtag::SubBin) {
                total += SubBinCopy(obj).words();
                continue;
            }
            total += 1 + header_arity(obj[0]);
            for_each_child(obj, obj[0], [&](Term c) {
                if (!is_immediate(c)) stack.push_back(c);
            });
        }
    }
    return total;
}

Word term_size_shared_words(Term root, bool count_literals) {
    if (is_immediate(root)) return 0;
    // Cons cells and boxed objects counted once; literals (a module's constants, shared by
    // every process) not at all, as OTP counts them, unless asked to.
    auto counted = [&](const Term* ptr) { return count_literals || !is_literal_ptr(ptr); };
    std::unordered_set<const Term*> seen;
    Word total = 0;
    WorkStack<Term> stack(root);
    while (!stack.empty()) {
        Term t = stack.back();
        stack.pop_back();
        while (is_list(t) && counted(list_ptr(t)) && seen.insert(list_ptr(t)).second) {
            total += 2;
            if (!is_immediate(car(t))) stack.push_back(car(t));
            t = cdr(t);
        }
        if (is_boxed(t) && counted(boxed_ptr(t)) && seen.insert(boxed_ptr(t)).second) {
            const Term* obj = boxed_ptr(t);
            if (header_subtag(obj[0]) == Subtag::SubBin) {
                total += SubBinCopy(obj).words();
                continue;
            }
            total += 1 + header_arity(obj[0]);
            for_each_child(obj, obj[0], [&](Term c) {
                if (!is_immediate(c)) stack.push_back(c);
            });
        }
    }
    return total;
}

namespace {
Term copy_term_impl(Term root, Term** hp, Term** off_heap_list, std::unordered_map<const Term*, Term>* copies,
                    const Literals& literals);
}  // namespace

Term copy_term(Term root, Term** hp, Term** off_heap_list, const Literals& literals) {
    return copy_term_impl(root, hp, off_heap_list, nullptr, literals);
}

Term copy_term_shared(Term root, Term** hp, Term** off_heap_list) {
    std::unordered_map<const Term*, Term> copies;
    return copy_term_impl(root, hp, off_heap_list, &copies, Literals::copied());
}

namespace {
// [copies] (optional): the copy of each object already copied, so that an object reached
// twice is copied once.
Term copy_term_impl(Term root, Term** hp, Term** off_heap_list, std::unordered_map<const Term*, Term>* copies,
                    const Literals& literals) {
    // Each pending job copies the term in *slot into newly allocated memory and stores the copy
    // back into *slot: the slots are words of copies already made. A shared literal stays
    // where it is (*slot already holds it).
    Term result = root;
    if (is_immediate(root)) return result;
    WorkStack<Term*> stack(&result);
    while (!stack.empty()) {
        Term* slot = stack.back();
        stack.pop_back();
        Term t = *slot;
        while (is_list(t)) {
            if (literals.shares(list_ptr(t))) {
                t = NIL;
                break;
            }
            if (copies) {
                auto [it, fresh] = copies->try_emplace(list_ptr(t), Term(0));
                if (!fresh) {
                    *slot = it->second;
                    t = NIL;
                    break;
                }
                it->second = make_list(*hp);
            }
            Term* cell = *hp;
            *hp += 2;
            *slot = make_list(cell);
            cell[0] = car(t);
            if (!is_immediate(cell[0])) stack.push_back(&cell[0]);
            slot = &cell[1];
            t = cdr(t);
            *slot = t;
        }
        if (!is_boxed(t)) continue;
        const Term* obj = boxed_ptr(t);
        if (literals.shares(obj)) continue;
        const bool sub_bin = header_subtag(obj[0]) == Subtag::SubBin;  // copied flattened, whole
        if (copies) {
            auto [it, fresh] = copies->try_emplace(obj, Term(0));
            if (!fresh) {
                *slot = it->second;
                continue;
            }
            it->second = sub_bin ? (*slot = copy_sub_binary(obj, hp, off_heap_list)) : make_boxed(*hp);
        } else if (sub_bin) {
            *slot = copy_sub_binary(obj, hp, off_heap_list);
        }
        if (sub_bin) continue;
        Word header = obj[0];
        Word size = 1 + header_arity(header);
        Term* to = *hp;
        *hp += size;
        std::memcpy(to, obj, size * sizeof(Term));
        *slot = make_boxed(to);
        switch (header_subtag(header)) {
        case Subtag::Tuple:
        case Subtag::HashNode:
            for (Word i = 1; i < size; ++i)
                if (!is_immediate(to[i])) stack.push_back(&to[i]);
            break;
        case Subtag::Map:
            stack.push_back(&to[2]);
            for (Word i = 3; i < size; ++i)
                if (!is_immediate(to[i])) stack.push_back(&to[i]);
            break;
        case Subtag::Fun:
            for (Word i = 3; i < size; ++i)
                if (!is_immediate(to[i])) stack.push_back(&to[i]);
            break;
        case Subtag::Ref:
            if (size != MAGIC_REF_WORDS) break;
            reinterpret_cast<MagicHandle*>(to[5])->add_ref();
            if (off_heap_list) {
                to[4] = reinterpret_cast<Word>(*off_heap_list);
                *off_heap_list = to;
            } else {
                to[4] = 0;
            }
            break;
        case Subtag::RefcBin:
            reinterpret_cast<BinaryBuf*>(to[2])->add_ref();
            if (off_heap_list) {
                to[4] = reinterpret_cast<Word>(*off_heap_list);
                *off_heap_list = to;
            } else {
                to[4] = 0;
            }
            break;
        default:
            break;
        }
    }
    return result;
}
}  // namespace

}  // namespace beamlet::vm
