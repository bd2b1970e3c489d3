// vm/magic.cpp — magic references and off-heap release.
#include "vm/magic.hpp"

#include "vm/heap.hpp"
#include "vm/process.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

Term make_magic_ref(Process* p, const Word id[3], MagicHandle* handle) {
    Term* hp = p->alloc(MAGIC_REF_WORDS);
    hp[0] = make_header(MAGIC_REF_WORDS - 1, Subtag::Ref);
    hp[1] = id[0];
    hp[2] = id[1];
    hp[3] = id[2];
    hp[4] = reinterpret_cast<Word>(p->off_heap_first);
    hp[5] = reinterpret_cast<Word>(handle);
    p->off_heap_first = hp;
    return make_boxed(hp);
}

Term new_magic_ref(Process* p, void* data, void (*destructor)(MagicHandle*)) {
    auto* handle = new MagicHandle();
    handle->destructor = destructor;
    handle->data = data;
    Word n = p->vm.next_ref.fetch_add(1, std::memory_order_relaxed) + 1;
    const Word id[3] = {n & 0x3FFFF, n >> 18, 0};
    return make_magic_ref(p, id, handle);
}

void release_off_heap(const Term* object) {
    if (header_subtag(object[0]) == Subtag::RefcBin) reinterpret_cast<BinaryBuf*>(object[2])->release();
    else reinterpret_cast<MagicHandle*>(object[5])->release();
}

void release_off_heap_list(Term* first) {
    while (first) {
        Term* next = reinterpret_cast<Term*>(first[4]);
        release_off_heap(first);
        first = next;
    }
}

}  // namespace beamlet::vm
