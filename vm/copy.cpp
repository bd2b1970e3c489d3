// vm/copy.cpp — term size and deep copy; loops on list tails so long lists use no C++ stack.
#include "vm/copy.hpp"

#include <cstring>

#include "vm/heap.hpp"

namespace beamlet::vm {

Word term_size_words(Term t) {
    Word total = 0;
    for (;;) {
        switch (t & TAG_PRIMARY_MASK) {
        case TAG_PRIMARY_LIST:
            total += 2 + term_size_words(car(t));
            t = cdr(t);
            continue;
        case TAG_PRIMARY_BOXED: {
            const Term* obj = boxed_ptr(t);
            Word header = obj[0];
            Word arity = header_arity(header);
            total += 1 + arity;
            switch (header_subtag(header)) {
            case Subtag::Tuple:
                for (Word i = 1; i <= arity; ++i) total += term_size_words(obj[i]);
                break;
            case Subtag::Map:
                total += term_size_words(obj[2]);
                for (Word i = 3; i <= arity; ++i) total += term_size_words(obj[i]);
                break;
            case Subtag::Fun:
                for (Word i = 3; i <= arity; ++i) total += term_size_words(obj[i]);
                break;
            case Subtag::SubBin:
                total += term_size_words(obj[4]);
                break;
            default:
                break;
            }
            return total;
        }
        default:
            return total;
        }
    }
}

Term copy_term(Term t, Term** hp, Term** off_heap_list) {
    switch (t & TAG_PRIMARY_MASK) {
    case TAG_PRIMARY_LIST: {
        Term result;
        Term* link = &result;
        while (is_list(t)) {
            Term* cell = *hp;
            *hp += 2;
            *link = make_list(cell);
            cell[0] = copy_term(car(t), hp, off_heap_list);
            link = &cell[1];
            t = cdr(t);
        }
        *link = copy_term(t, hp, off_heap_list);
        return result;
    }
    case TAG_PRIMARY_BOXED: {
        const Term* obj = boxed_ptr(t);
        Word header = obj[0];
        Word size = 1 + header_arity(header);
        Term* to = *hp;
        *hp += size;
        std::memcpy(to, obj, size * sizeof(Term));
        switch (header_subtag(header)) {
        case Subtag::Tuple:
            for (Word i = 1; i < size; ++i) to[i] = copy_term(obj[i], hp, off_heap_list);
            break;
        case Subtag::Map:
            to[2] = copy_term(obj[2], hp, off_heap_list);
            for (Word i = 3; i < size; ++i) to[i] = copy_term(obj[i], hp, off_heap_list);
            break;
        case Subtag::Fun:
            for (Word i = 3; i < size; ++i) to[i] = copy_term(obj[i], hp, off_heap_list);
            break;
        case Subtag::SubBin:
            to[4] = copy_term(obj[4], hp, off_heap_list);
            break;
        case Subtag::RefcBin:
            reinterpret_cast<BinaryBuf*>(to[2])->add_ref();
            to[4] = reinterpret_cast<Word>(*off_heap_list);
            *off_heap_list = to;
            break;
        default:
            break;
        }
        return make_boxed(to);
    }
    default:
        return t;
    }
}

}  // namespace beamlet::vm
