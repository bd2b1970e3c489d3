// vm/atom_table.cpp — AtomTable implementation.
#include "vm/atom_table.hpp"

#include <functional>

#include "vm/assert.hpp"

namespace beamlet::vm {

AtomTable::AtomTable() {
    m_indexes.push_back(std::make_unique<Index>(INITIAL_INDEX_SIZE));
    m_index.store(m_indexes.back().get(), std::memory_order_release);
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

static std::size_t utf8_char_count(std::string_view s) {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

static std::size_t name_hash(std::string_view s) { return std::hash<std::string_view>{}(s); }
static std::uint64_t slot_tag(std::size_t hash) { return std::uint64_t(hash) >> 32 << 32; }

static std::uint64_t order_of(std::string_view s) {
    std::uint64_t key = 0;
    for (std::size_t i = 0; i < 8; ++i) key = key << 8 | (i < s.size() ? std::uint8_t(s[i]) : 0);
    return key;
}

std::optional<Word> AtomTable::lookup(std::string_view utf8_name, std::size_t hash) const {
    const Index& index = *m_index.load(std::memory_order_acquire);
    const std::uint64_t tag = slot_tag(hash);
    for (std::size_t i = hash & index.mask;; i = (i + 1) & index.mask) {
        std::uint64_t slot = index.slots[i].load(std::memory_order_acquire);
        if (slot == 0) return std::nullopt;
        if ((slot & ~std::uint64_t(0xFFFFFFFF)) != tag) continue;
        Word atom_index = Word(slot & 0xFFFFFFFF) - 1;
        if (entry(atom_index).text == utf8_name) return atom_index;
    }
}

void AtomTable::insert_slot(Index& index, std::size_t hash, Word atom_index) {
    std::size_t i = hash & index.mask;
    while (index.slots[i].load(std::memory_order_relaxed) != 0) i = (i + 1) & index.mask;
    // Release: a reader that sees the slot sees the entry's text (written before).
    index.slots[i].store(slot_tag(hash) | (atom_index + 1), std::memory_order_release);
}

// hashpjw over the text, a two-byte UTF-8 latin-1 character counting as its code (as OTP's
// atom table does, so that latin-1 atoms hash as they did before UTF-8 atoms).
static std::uint32_t hashpjw(std::string_view text) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    std::size_t len = text.size();
    std::uint32_t h = 0;
    while (len--) {
        unsigned char v = *p++;
        if (len && (v & 0xFE) == 0xC2 && (*p & 0xC0) == 0x80) {
            v = static_cast<unsigned char>((v << 6) | (*p & 0x3F));
            ++p;
            --len;
        }
        h = (h << 4) + v;
        if (std::uint32_t g = h & 0xF0000000u) {
            h ^= g >> 24;
            h ^= g;
        }
    }
    return h;
}

std::optional<Term> AtomTable::intern(std::string_view utf8_name) {
    const std::size_t hash = name_hash(utf8_name);
    if (auto found = lookup(utf8_name, hash)) return make_atom(*found);
    std::lock_guard lock(m_mutex);
    if (auto found = lookup(utf8_name, hash)) return make_atom(*found);  // added meanwhile
    if (utf8_char_count(utf8_name) > MAX_ATOM_CHARS) return std::nullopt;
    Word index = m_count.load(std::memory_order_relaxed);
    if (index >= MAX_ATOMS) return std::nullopt;
    std::atomic<Entry*>& chunk_slot = m_chunks[index >> CHUNK_BITS];
    Entry* chunk = chunk_slot.load(std::memory_order_relaxed);
    if (!chunk) {
        chunk = new Entry[CHUNK_SIZE];
        chunk_slot.store(chunk, std::memory_order_release);
    }
    Entry& slot = chunk[index & (CHUNK_SIZE - 1)];
    slot.text.assign(utf8_name);
    slot.order = order_of(utf8_name);
    slot.hash = hashpjw(utf8_name);
    // Publishes the new entry: readers that saw an atom with this index also see its text.
    m_count.store(index + 1, std::memory_order_release);
    Index* current = m_indexes.back().get();
    if (2 * (index + 1) > current->mask + 1) {
        // Half full: a twice larger index with every atom, published before the new slot.
        auto larger = std::make_unique<Index>(2 * (current->mask + 1));
        for (Word i = 0; i < index; ++i) insert_slot(*larger, name_hash(entry(i).text), i);
        current = larger.get();
        m_indexes.push_back(std::move(larger));
        m_index.store(current, std::memory_order_release);
    }
    insert_slot(*current, hash, index);
    return make_atom(index);
}

std::optional<Term> AtomTable::find(std::string_view utf8_name) const {
    if (auto found = lookup(utf8_name, name_hash(utf8_name))) return make_atom(*found);
    return std::nullopt;
}

}  // namespace beamlet::vm
