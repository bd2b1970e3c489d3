// vm/magic.hpp — magic references: reference terms that own a native object through a
// refcounted MagicHandle (OTP's magic binaries behind refs). When the last copy of the ref on
// any heap or in any message is dropped, the handle's destructor runs.
//
//   MagicRef [hdr arity=5, Ref][id0][id1][id2][next off-heap object (Term*)][MagicHandle*]
// It is a Ref to Erlang code (compares and prints by its ids); like a RefcBin it sits on its
// heap's off-heap list (link at word 4), so the GC and process exit can drop references.
#pragma once

#include <atomic>
#include <cstdint>

#include "vm/term.hpp"

namespace beamlet::vm {

struct Process;

struct MagicHandle {
    std::atomic<std::int64_t> refc{1};
    void (*destructor)(MagicHandle*) = nullptr;  // runs when refc drops to 0, on any thread
    // For an object that monitors a process (Process::resource_monitors): runs on that
    // process's thread when it exits, with its pid (enif_monitor_process's down callback).
    void (*down)(MagicHandle*, Term pid) = nullptr;
    void* data = nullptr;

    void add_ref() { refc.fetch_add(1, std::memory_order_relaxed); }
    void release() {
        if (refc.fetch_sub(1, std::memory_order_acq_rel) == 1) {
            if (destructor) destructor(this);
            delete this;
        }
    }
};

inline constexpr Word MAGIC_REF_WORDS = 6;

inline bool is_magic_ref(Term t) { return is_ref(t) && header_arity(boxed_header(t)) == MAGIC_REF_WORDS - 1; }
inline MagicHandle* magic_handle(Term t) { return reinterpret_cast<MagicHandle*>(boxed_ptr(t)[5]); }

// A magic ref with ids [id] holding [handle] (its reference is transferred to the term),
// allocated on [p] and linked into its off-heap list.
Term make_magic_ref(Process* p, const Word id[3], MagicHandle* handle);
// A magic ref with a new id, holding [data] in a new handle that [destructor] frees once the
// last reference to it is gone.
Term new_magic_ref(Process* p, void* data, void (*destructor)(MagicHandle*));

// Drops the reference an off-heap object (a RefcBin or a magic ref) holds.
void release_off_heap(const Term* object);
// Drops the references of a whole off-heap list, linked through the objects' next words,
// starting at [first] (null: none).
void release_off_heap_list(Term* first);

}  // namespace beamlet::vm
