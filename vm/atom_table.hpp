// vm/atom_table.hpp — AtomTable: the global, append-only atom table, readable without a lock.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vm/assert.hpp"
#include "vm/term.hpp"

namespace beamlet::vm {

// Indices of the atoms listed in vm/atoms.def; they are registered first, in this order.
enum class AtomIndex : Word {
#define BEAMLET_ATOM(id, text) id,
#include "vm/atoms.def"
#undef BEAMLET_ATOM
    Count
};

// Term constants for the atoms of vm/atoms.def: atoms::ok, atoms::badarg, ...
namespace atoms {
#define BEAMLET_ATOM(id, text) inline constexpr Term id = make_atom(Word(AtomIndex::id));
#include "vm/atoms.def"
#undef BEAMLET_ATOM
}  // namespace atoms

inline constexpr Term make_bool(bool b) { return b ? atoms::true_ : atoms::false_; }

// Atoms are never removed. Neither reading an atom's text nor looking a name up takes a lock:
// entries live in fixed chunks whose pointers are published with release stores, and names are
// found through an open-addressing index whose slots are published the same way (a new atom
// takes the mutex). binary_to_term, list_to_atom and the loader look names up all the time:
// with a mutex around a std::unordered_map, lookups were a third of decoding a term of atoms.
class AtomTable {
public:
    // Maximum number of atoms, as OTP's default (+t 1048576).
    static constexpr Word MAX_ATOMS = 1 << 20;
    // Maximum atom length in characters, as OTP.
    static constexpr std::size_t MAX_ATOM_CHARS = 255;

    AtomTable();
    ~AtomTable();
    AtomTable(const AtomTable&) = delete;
    AtomTable& operator=(const AtomTable&) = delete;

    // The process-wide table.
    static AtomTable& global() {
        static AtomTable table;
        return table;
    }

    // The atom named [utf8_name], created if new; nullopt when the table is full or the name is
    // longer than MAX_ATOM_CHARS characters.
    std::optional<Term> intern(std::string_view utf8_name);
    // The atom named [utf8_name] if it exists (list_to_existing_atom).
    std::optional<Term> find(std::string_view utf8_name) const;
    // The UTF-8 text of [atom].
    const std::string& text(Term atom) const { return entry(checked_index(atom)).text; }
    // The first eight bytes of [atom]'s text as a big-endian number, zero-padded: two atoms
    // whose keys differ are ordered as their keys (as erts's `ord0`); equal keys say nothing.
    std::uint64_t order_key(Term atom) const { return entry(checked_index(atom)).order; }
    // OTP's hash of [atom]'s text (hashpjw, as erts's atom table computes it), which
    // phash/2 and phash2/1 mix in for an atom; computed once, when the atom is made.
    std::uint32_t hash_value(Term atom) const { return entry(checked_index(atom)).hash; }
    Word count() const { return m_count.load(std::memory_order_acquire); }

private:
    // Linear probing; a slot is 0 (empty) or (the name's hash >> 32) << 32 | (index + 1). It
    // grows (under the mutex) before it is half full; a replaced index stays allocated until
    // the table goes, since a reader may still be probing it.
    struct Index {
        explicit Index(std::size_t size) : mask(size - 1), slots(new std::atomic<std::uint64_t>[size]()) {}
        std::size_t mask;
        std::unique_ptr<std::atomic<std::uint64_t>[]> slots;
    };
    static constexpr std::size_t INITIAL_INDEX_SIZE = 1 << 15;

    struct Entry {
        std::string text;
        std::uint64_t order = 0;
        std::uint32_t hash = 0;
    };

    std::optional<Word> lookup(std::string_view utf8_name, std::size_t hash) const;
    void insert_slot(Index& index, std::size_t hash, Word atom_index);
    Word checked_index(Term atom) const {
        Word index = atom_index(atom);
        BEAMLET_ASSERT(index < count());
        return index;
    }
    const Entry& entry(Word index) const {
        const Entry* chunk = m_chunks[index >> CHUNK_BITS].load(std::memory_order_acquire);
        return chunk[index & (CHUNK_SIZE - 1)];
    }

    static constexpr Word CHUNK_BITS = 12;
    static constexpr Word CHUNK_SIZE = Word(1) << CHUNK_BITS;
    static constexpr Word CHUNKS = MAX_ATOMS / CHUNK_SIZE;

    std::atomic<Entry*> m_chunks[CHUNKS] = {};
    std::atomic<Word> m_count{0};
    std::mutex m_mutex;                            // held to add an atom
    std::atomic<const Index*> m_index{nullptr};
    std::vector<std::unique_ptr<Index>> m_indexes;  // every index made, the current one last
};

// Shorthands for the global table.
inline Term atom(std::string_view utf8_name) { return *AtomTable::global().intern(utf8_name); }
inline const std::string& atom_text(Term a) { return AtomTable::global().text(a); }

}  // namespace beamlet::vm
