// vm/atom_table.hpp — AtomTable: the global, append-only atom table, readable without a lock.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

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

// Atoms are never removed. Lookup of a name takes a mutex; reading an atom's text does not:
// entries live in fixed chunks whose pointers are published with release stores.
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
    static AtomTable& global();

    // The atom named [utf8_name], created if new; nullopt when the table is full or the name is
    // longer than MAX_ATOM_CHARS characters.
    std::optional<Term> intern(std::string_view utf8_name);
    // The atom named [utf8_name] if it exists (list_to_existing_atom).
    std::optional<Term> find(std::string_view utf8_name) const;
    // The UTF-8 text of [atom].
    const std::string& text(Term atom) const;
    Word count() const { return m_count.load(std::memory_order_acquire); }

private:
    static constexpr Word CHUNK_BITS = 12;
    static constexpr Word CHUNK_SIZE = Word(1) << CHUNK_BITS;
    static constexpr Word CHUNKS = MAX_ATOMS / CHUNK_SIZE;

    std::atomic<std::string*> m_chunks[CHUNKS] = {};
    std::atomic<Word> m_count{0};
    mutable std::mutex m_mutex;
    std::unordered_map<std::string_view, Word> m_index;  // views into the chunk strings
};

// Shorthands for the global table.
inline Term atom(std::string_view utf8_name) { return *AtomTable::global().intern(utf8_name); }
inline const std::string& atom_text(Term a) { return AtomTable::global().text(a); }

}  // namespace beamlet::vm
