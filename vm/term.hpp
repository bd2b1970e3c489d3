// vm/term.hpp — Term: BEAM's tagged 64-bit word, with constructors, tests and accessors.
//
// The layout is BEAM's own (erl_term.h) so that word counts match OTP:
//   primary tag (2 bits):  00 header, 01 list (cons pointer), 10 boxed pointer, 11 immediate
//   immediate1 (4 bits):   0011 pid, 0111 port, 1111 small integer, 1011 -> immediate2
//   immediate2 (6 bits):   001011 atom, 011011 catch, 111011 nil
//   header (6 bits):       arity << 6 | subtag << 2 | 00
// A zero word is never a valid term; it is THE_NON_VALUE, the "exception raised" sentinel.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace beamlet::vm {

using Word = std::uint64_t;
using SWord = std::int64_t;
using Term = Word;

inline constexpr Term THE_NON_VALUE = 0;

// ---- primary tags ----------------------------------------------------------------------------
inline constexpr Word TAG_PRIMARY_MASK = 0x3;
inline constexpr Word TAG_PRIMARY_HEADER = 0x0;
inline constexpr Word TAG_PRIMARY_LIST = 0x1;
inline constexpr Word TAG_PRIMARY_BOXED = 0x2;
inline constexpr Word TAG_PRIMARY_IMMED1 = 0x3;

inline constexpr Word TAG_IMMED1_MASK = 0xF;
inline constexpr Word TAG_IMMED1_PID = 0x3;
inline constexpr Word TAG_IMMED1_PORT = 0x7;
inline constexpr Word TAG_IMMED1_IMMED2 = 0xB;
inline constexpr Word TAG_IMMED1_SMALL = 0xF;
inline constexpr int TAG_IMMED1_SIZE = 4;

inline constexpr Word TAG_IMMED2_MASK = 0x3F;
inline constexpr Word TAG_IMMED2_ATOM = 0x0B;
inline constexpr Word TAG_IMMED2_CATCH = 0x1B;
inline constexpr Word TAG_IMMED2_NIL = 0x3B;
inline constexpr int TAG_IMMED2_SIZE = 6;

inline constexpr Term NIL = TAG_IMMED2_NIL;

// ---- header subtags (bits 2..5 of a header word) -------------------------------------------------
enum class Subtag : Word {
    Tuple = 0x0,      // ARITYVAL: arity = element count
    MatchState = 0x1, // bit-syntax match context
    PosBig = 0x2,     // arity = limb count
    NegBig = 0x3,
    Ref = 0x4,        // arity = 3 (id words)
    Fun = 0x5,        // local closure
    Float = 0x6,      // arity = 1
    Export = 0x7,     // fun M:F/A
    RefcBin = 0x8,    // ProcBin: off-heap reference-counted binary
    HeapBin = 0x9,    // binary stored on the heap
    SubBin = 0xA,     // slice of another binary, or a bitstring
    HashNode = 0xB,   // a node inside a hashmap: [hdr arity=1+k][bitmap (small)][k children]
    ExternalPid = 0xC,   // another node's: see "other nodes' pids, ports and references"
    ExternalPort = 0xD,
    ExternalRef = 0xE,
    Map = 0xF,        // a map: [hdr][size][keys tuple][values...] or [hdr][size][root node]
};

inline constexpr Word HEADER_SUBTAG_MASK = 0x3C;
inline constexpr int HEADER_ARITY_OFFSET = 6;

// ---- small integers ----------------------------------------------------------------------------
inline constexpr int SMALL_BITS = 64 - TAG_IMMED1_SIZE;
inline constexpr SWord MAX_SMALL = (SWord(1) << (SMALL_BITS - 1)) - 1;
inline constexpr SWord MIN_SMALL = -(SWord(1) << (SMALL_BITS - 1));

constexpr bool is_small(Term t) { return (t & TAG_IMMED1_MASK) == TAG_IMMED1_SMALL; }
constexpr bool fits_small(SWord v) { return v >= MIN_SMALL && v <= MAX_SMALL; }
constexpr Term make_small(SWord v) { return (Word(v) << TAG_IMMED1_SIZE) | TAG_IMMED1_SMALL; }
constexpr SWord small_value(Term t) { return SWord(t) >> TAG_IMMED1_SIZE; }

// ---- atoms, nil, catch, pid, port ----------------------------------------------------------------
constexpr bool is_atom(Term t) { return (t & TAG_IMMED2_MASK) == TAG_IMMED2_ATOM; }
constexpr Term make_atom(Word index) { return (index << TAG_IMMED2_SIZE) | TAG_IMMED2_ATOM; }
constexpr Word atom_index(Term t) { return t >> TAG_IMMED2_SIZE; }

constexpr bool is_nil(Term t) { return t == NIL; }

// A catch tag on the stack holds the address of its handler code.
constexpr bool is_catch(Term t) { return (t & TAG_IMMED2_MASK) == TAG_IMMED2_CATCH; }
inline Term make_catch(const Word* handler) {
    return (reinterpret_cast<Word>(handler) << TAG_IMMED2_SIZE) | TAG_IMMED2_CATCH;
}
inline const Word* catch_handler(Term t) { return reinterpret_cast<const Word*>(t >> TAG_IMMED2_SIZE); }

// A local pid holds one number, its data; printed and sent to other nodes as OTP 25 does, as
// a 15-bit number and the serial above it (<0.Number.Serial>).
constexpr bool is_pid(Term t) { return (t & TAG_IMMED1_MASK) == TAG_IMMED1_PID; }
constexpr Term make_pid(Word number) { return (number << TAG_IMMED1_SIZE) | TAG_IMMED1_PID; }
constexpr Word pid_number(Term t) { return t >> TAG_IMMED1_SIZE; }
inline constexpr int PID_NUMBER_BITS = 15;
inline constexpr Word MAX_PID_NUMBER = (Word(1) << PID_NUMBER_BITS) - 1;
inline constexpr Word MAX_PID_SERIAL = (Word(1) << 13) - 1;
constexpr Word pid_printed_number(Term t) { return pid_number(t) & MAX_PID_NUMBER; }
constexpr Word pid_serial(Term t) { return pid_number(t) >> PID_NUMBER_BITS; }
constexpr Word pid_data(Word number, Word serial) { return serial << PID_NUMBER_BITS | number; }

constexpr bool is_port(Term t) { return (t & TAG_IMMED1_MASK) == TAG_IMMED1_PORT; }
constexpr Term make_port(Word number) { return (number << TAG_IMMED1_SIZE) | TAG_IMMED1_PORT; }
constexpr Word port_number(Term t) { return t >> TAG_IMMED1_SIZE; }

constexpr bool is_immediate(Term t) { return (t & TAG_PRIMARY_MASK) == TAG_PRIMARY_IMMED1; }

// ---- lists ------------------------------------------------------------------------------------
constexpr bool is_list(Term t) { return (t & TAG_PRIMARY_MASK) == TAG_PRIMARY_LIST; }
inline Term* list_ptr(Term t) { return reinterpret_cast<Term*>(t - TAG_PRIMARY_LIST); }
inline Term make_list(const Term* cell) { return reinterpret_cast<Word>(cell) + TAG_PRIMARY_LIST; }
inline Term car(Term t) { return list_ptr(t)[0]; }
inline Term cdr(Term t) { return list_ptr(t)[1]; }

// ---- boxed ------------------------------------------------------------------------------------
constexpr bool is_boxed(Term t) { return (t & TAG_PRIMARY_MASK) == TAG_PRIMARY_BOXED; }
inline Term* boxed_ptr(Term t) { return reinterpret_cast<Term*>(t - TAG_PRIMARY_BOXED); }
inline Term make_boxed(const Term* p) { return reinterpret_cast<Word>(p) + TAG_PRIMARY_BOXED; }

constexpr bool is_header(Word w) { return (w & TAG_PRIMARY_MASK) == TAG_PRIMARY_HEADER; }
constexpr Word make_header(Word arity, Subtag subtag) {
    return (arity << HEADER_ARITY_OFFSET) | (Word(subtag) << 2);
}
constexpr Word header_arity(Word header) { return header >> HEADER_ARITY_OFFSET; }
constexpr Subtag header_subtag(Word header) { return Subtag((header & HEADER_SUBTAG_MASK) >> 2); }

inline Word boxed_header(Term t) { return boxed_ptr(t)[0]; }
inline bool is_boxed_of(Term t, Subtag s) { return is_boxed(t) && header_subtag(boxed_header(t)) == s; }

// Tuples: [header arity=N][e1]...[eN]
constexpr Word make_arityval(Word n) { return make_header(n, Subtag::Tuple); }
inline bool is_tuple(Term t) { return is_boxed_of(t, Subtag::Tuple); }
inline Word tuple_arity(Term t) { return header_arity(boxed_header(t)); }
inline Term* tuple_elements(Term t) { return boxed_ptr(t) + 1; }  // 0-based element array
inline Term tuple_element(Term t, Word i) { return boxed_ptr(t)[i + 1]; }  // 0-based

// Floats: [header arity=1][double]
inline bool is_float(Term t) { return is_boxed_of(t, Subtag::Float); }
inline double float_value(Term t) { return std::bit_cast<double>(boxed_ptr(t)[1]); }
inline constexpr Word FLOAT_WORDS = 2;

// Bignums: [header arity=limbs, PosBig/NegBig][limb0 (least significant)]...
inline bool is_big(Term t) {
    if (!is_boxed(t)) return false;
    Subtag s = header_subtag(boxed_header(t));
    return s == Subtag::PosBig || s == Subtag::NegBig;
}
inline bool is_integer(Term t) { return is_small(t) || is_big(t); }
inline bool is_number(Term t) { return is_integer(t) || is_float(t); }

// References: [header arity=3][id0][id1][id2]
inline constexpr Word REF_WORDS = 4;
inline bool is_ref(Term t) { return is_boxed_of(t, Subtag::Ref); }

// Funs: [header arity=2+num_free, Fun][FunEntry*][creator pid][free vars...]
inline bool is_local_fun(Term t) { return is_boxed_of(t, Subtag::Fun); }
// Export funs (fun M:F/A): [header arity=1, Export][Export*]
inline bool is_export_fun(Term t) { return is_boxed_of(t, Subtag::Export); }
inline bool is_fun(Term t) { return is_local_fun(t) || is_export_fun(t); }

// Maps, as OTP's (vm/map.hpp): up to 32 keys a flatmap, keys kept sorted in map-key order,
//   [header arity=N+2][N][keys tuple][v1]...[vN]
// above, a hashmap: [header arity=2][N][root HashNode] (a hash array mapped trie).
inline constexpr Word MAP_SMALL_MAP_LIMIT = 32;  // erts's: the most keys a flatmap holds
inline bool is_map(Term t) { return is_boxed_of(t, Subtag::Map); }
inline Word map_size(Term t) { return boxed_ptr(t)[1]; }
inline bool is_flatmap(Term t) { return map_size(t) <= MAP_SMALL_MAP_LIMIT; }
// A flatmap's keys tuple and values.
inline Term map_keys(Term t) { return boxed_ptr(t)[2]; }
inline Term* map_values(Term t) { return boxed_ptr(t) + 3; }
// A hashmap's root node.
inline Term hashmap_root(Term t) { return boxed_ptr(t)[2]; }
inline constexpr Word MAP_HEADER_WORDS = 3;

inline bool is_binary_subtag(Subtag s) {
    return s == Subtag::RefcBin || s == Subtag::HeapBin || s == Subtag::SubBin;
}
// Any bitstring (byte-aligned or not).
inline bool is_bitstring(Term t) { return is_boxed(t) && is_binary_subtag(header_subtag(boxed_header(t))); }

// ---- other nodes' pids, ports and references (OTP's ExternalThing) ------------------------------
// [header][node name atom][creation][data...], the data being a pid's number | serial << 32, a
// port's 64-bit id, or a reference's count of 32-bit numbers followed by the numbers, two to a
// word. The word counts are OTP's on 64 bits (erts_debug:flat_size agrees). The node name is
// an atom and atoms live forever, so the heap needs nothing off-heap for them.
inline constexpr Word EXTERNAL_PID_WORDS = 4;
inline constexpr Word EXTERNAL_PORT_WORDS = 4;
inline constexpr Word MAX_REF_NUMBERS = 5;
constexpr Word external_ref_words(Word numbers) { return 3 + (numbers + 2) / 2; }

inline bool is_external_pid(Term t) { return is_boxed_of(t, Subtag::ExternalPid); }
inline bool is_external_port(Term t) { return is_boxed_of(t, Subtag::ExternalPort); }
inline bool is_external_ref(Term t) { return is_boxed_of(t, Subtag::ExternalRef); }
inline bool is_external(Term t) {
    if (!is_boxed(t)) return false;
    Subtag s = header_subtag(boxed_header(t));
    return s == Subtag::ExternalPid || s == Subtag::ExternalPort || s == Subtag::ExternalRef;
}
// The Erlang types: this node's or another's.
inline bool is_any_pid(Term t) { return is_pid(t) || is_external_pid(t); }
inline bool is_any_port(Term t) { return is_port(t) || is_external_port(t); }
inline bool is_any_ref(Term t) { return is_ref(t) || is_external_ref(t); }

inline Term external_node(Term t) { return boxed_ptr(t)[1]; }
inline std::uint32_t external_creation(Term t) { return std::uint32_t(boxed_ptr(t)[2]); }
inline Word external_pid_number(Term t) { return boxed_ptr(t)[3] & 0xffffffffu; }
inline Word external_pid_serial(Term t) { return boxed_ptr(t)[3] >> 32; }
inline Word external_port_id(Term t) { return boxed_ptr(t)[3]; }
inline const std::uint32_t* external_ref_data(Term t) { return reinterpret_cast<const std::uint32_t*>(boxed_ptr(t) + 3); }
inline Word external_ref_count(Term t) { return external_ref_data(t)[0]; }
inline std::uint32_t external_ref_number(Term t, Word i) { return external_ref_data(t)[1 + i]; }

inline Term make_external_pid_on(Term* hp, Term node, std::uint32_t creation, Word number, Word serial) {
    hp[0] = make_header(EXTERNAL_PID_WORDS - 1, Subtag::ExternalPid);
    hp[1] = node;
    hp[2] = creation;
    hp[3] = number | serial << 32;
    return make_boxed(hp);
}
inline Term make_external_port_on(Term* hp, Term node, std::uint32_t creation, Word id) {
    hp[0] = make_header(EXTERNAL_PORT_WORDS - 1, Subtag::ExternalPort);
    hp[1] = node;
    hp[2] = creation;
    hp[3] = id;
    return make_boxed(hp);
}
// [numbers] (at most MAX_REF_NUMBERS), least significant first, as the external format has them.
inline Term make_external_ref_on(Term* hp, Term node, std::uint32_t creation, const std::uint32_t* numbers, Word count) {
    Word words = external_ref_words(count);
    hp[0] = make_header(words - 1, Subtag::ExternalRef);
    hp[1] = node;
    hp[2] = creation;
    for (Word i = 3; i < words; ++i) hp[i] = 0;
    auto* data = reinterpret_cast<std::uint32_t*>(hp + 3);
    data[0] = std::uint32_t(count);
    for (Word i = 0; i < count; ++i) data[1 + i] = numbers[i];
    return make_boxed(hp);
}

inline Term make_float_on(Term* hp, double v) {
    hp[0] = make_header(1, Subtag::Float);
    hp[1] = std::bit_cast<Word>(v);
    return make_boxed(hp);
}

inline Term make_cons_on(Term* hp, Term head, Term tail) {
    hp[0] = head;
    hp[1] = tail;
    return make_list(hp);
}

// Number of words a boxed object with this header occupies, header included: for every kind
// the arity counts the words that follow the header.
constexpr Word boxed_size_words(Word header) { return 1 + header_arity(header); }

}  // namespace beamlet::vm
