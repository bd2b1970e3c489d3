// bif/process_bifs.hpp — helpers the process BIFs share (erlang_spawn.cpp, erlang_links.cpp,
// erlang_monitors.cpp, erlang_process_info.cpp, erlang_process.cpp, erlang_timers.cpp).
#pragma once

#include "vm/heap.hpp"
#include "vm/process.hpp"
#include "vm/term.hpp"
#include "vm/vm.hpp"

namespace beamlet::bif {

using vm::Process;
using vm::Term;
using vm::Word;

// A reference term with the id [id] on [p]'s heap.
inline Term make_ref_term(Process* p, const Word id[3]) {
    using namespace vm;
    Term* hp = p->alloc(REF_WORDS);
    hp[0] = make_header(REF_WORDS - 1, Subtag::Ref);
    hp[1] = id[0];
    hp[2] = id[1];
    hp[3] = id[2];
    return make_boxed(hp);
}

// A new reference id.
inline void new_ref_id(Process* p, Word id[3]) {
    using namespace vm;
    Word n = p->vm.next_ref.fetch_add(1, std::memory_order_relaxed) + 1;
    id[0] = n & 0x3FFFF;
    id[1] = n >> 18;
    id[2] = 0;
}

// monitor/3's and spawn_opt's {alias, Mode}: [t] as an alias mode; false if it is none.
bool alias_mode_of(Term t, vm::AliasMode* out);

// The id of reference [ref]; false if it is not a reference.
inline bool ref_id_of(Term ref, Word id[3]) {
    using namespace vm;
    if (!is_ref(ref)) return false;
    const Term* obj = boxed_ptr(ref);
    id[0] = obj[1];
    id[1] = obj[2];
    id[2] = obj[3];
    return true;
}

inline bool is_proper_list(Term l) {
    using namespace vm;
    while (is_list(l)) l = cdr(l);
    return is_nil(l);
}

}  // namespace beamlet::bif
