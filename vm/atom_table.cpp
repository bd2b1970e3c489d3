// vm/atom_table.cpp — AtomTable implementation.
#include "vm/atom_table.hpp"

#include "vm/assert.hpp"

namespace beamlet::vm {

AtomTable::AtomTable() {
    static constexpr const char* builtin[] = {
#define BEAMLET_ATOM(id, text) text,
#include "vm/atoms.def"
#undef BEAMLET_ATOM
    };
    for (const char* name : builtin) intern(name);
    BEAMLET_ASSERT(count() == Word(AtomIndex::Count));
}

AtomTable::~AtomTable() {
    for (auto& chunk : m_chunks) delete[] chunk.load(std::memory_order_relaxed);
}

AtomTable& AtomTable::global() {
    static AtomTable table;
    return table;
}

static std::size_t utf8_char_count(std::string_view s) {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

std::optional<Term> AtomTable::intern(std::string_view utf8_name) {
    std::lock_guard lock(m_mutex);
    if (auto it = m_index.find(utf8_name); it != m_index.end()) return make_atom(it->second);
    if (utf8_char_count(utf8_name) > MAX_ATOM_CHARS) return std::nullopt;
    Word index = m_count.load(std::memory_order_relaxed);
    if (index >= MAX_ATOMS) return std::nullopt;
    std::atomic<std::string*>& chunk_slot = m_chunks[index >> CHUNK_BITS];
    std::string* chunk = chunk_slot.load(std::memory_order_relaxed);
    if (!chunk) {
        chunk = new std::string[CHUNK_SIZE];
        chunk_slot.store(chunk, std::memory_order_release);
    }
    std::string& slot = chunk[index & (CHUNK_SIZE - 1)];
    slot.assign(utf8_name);
    m_index.emplace(std::string_view(slot), index);
    // Publishes the new entry: readers that saw an atom with this index also see its text.
    m_count.store(index + 1, std::memory_order_release);
    return make_atom(index);
}

std::optional<Term> AtomTable::find(std::string_view utf8_name) const {
    std::lock_guard lock(m_mutex);
    if (auto it = m_index.find(utf8_name); it != m_index.end()) return make_atom(it->second);
    return std::nullopt;
}

const std::string& AtomTable::text(Term atom) const {
    Word index = atom_index(atom);
    BEAMLET_ASSERT(index < count());
    std::string* chunk = m_chunks[index >> CHUNK_BITS].load(std::memory_order_acquire);
    return chunk[index & (CHUNK_SIZE - 1)];
}

}  // namespace beamlet::vm
