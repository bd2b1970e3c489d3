// vm/external_term.hpp — Erlang's external term format: the one codec of the VM, for
// term_to_binary and binary_to_term, a module's literals (loader/), trace ports (tracing/) and,
// next, distribution.
//
// Encoding follows OTP 25's choices byte for byte (minor version 1 by default: NEW_FLOAT_EXT,
// latin-1 atoms as ATOM_EXT, STRING_EXT for byte lists, NEW_PID_EXT / NEWER_REFERENCE_EXT with
// creation 0 for the local node nonode@nohost). Decoding accepts every tag OTP 25 writes, plus
// the older float, atom, pid, port and reference tags; both work without recursion, so a term
// may nest as deep as its bytes allow. For distribution, terms after a distribution header
// (no version byte, atoms as references to the header's atom cache) both ways. Decoding checks the whole input first and counts the
// words the term needs, then builds it in one block taken from its target (a process heap, a
// heap fragment, the literal area): building never fails half-way.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "vm/term.hpp"

namespace beamlet::vm {

class ExportTable;
struct HeapFragment;
struct Process;
struct Vm;

// The atom cache of a distribution header (erl_ext_dist's ATOM_CACHE_REF): the encoder asks
// it for each atom it writes.
class AtomCacheRefs {
public:
    // The index (0..254) [atom] has among the message's atom cache references, taking one if
    // there is room; -1: write the atom itself.
    virtual int ref(Term atom) = 0;

protected:
    ~AtomCacheRefs() = default;
};

struct EncodeOptions {
    int minor_version = 1;  // 0: floats as FLOAT_EXT text; 2: every atom as UTF-8
    int compression = 0;    // zlib level 1..9, 0 = none
    // False after a distribution header, where terms have no version byte of their own.
    bool version_byte = true;
    // term_to_binary's deterministic: a hashmap's pairs in key order, as a flatmap's always are.
    bool deterministic = false;
    AtomCacheRefs* atom_refs = nullptr;  // a distribution header's atom cache, or none
};

// Appends the external format of [t] (the 131 version byte first) to [out].
void encode_external(Term t, const EncodeOptions& options, std::string* out);

enum class DecodeStatus { Ok, BadFormat, Unsafe };

// Where a decoded term is built, and what it may hold.
class DecodeTarget {
public:
    // [p]'s heap (binary_to_term): every kind of term; large binaries are reference-counted
    // and owned by [p].
    static DecodeTarget heap(Process* p);
    // A new heap fragment of exactly the term's size (DecodeResult::fragment, the caller's
    // to free or to hand over with a message): every kind of term.
    static DecodeTarget fragment(Vm& vm);
    // The literal area (a module's literal table): export funs resolve through [exports];
    // pids, ports, references and local funs never appear in literals and are refused. With
    // [off_heap], large binaries are reference-counted and linked there (a module's, released
    // with its literal area when it is purged, as OTP's); without, heap binaries whatever
    // their size.
    static DecodeTarget literals(ExportTable& exports, Term** off_heap = nullptr);

    enum class Kind : std::uint8_t { ProcessHeap, Fragment, Literals };
    Kind kind() const { return m_kind; }
    Process* process() const { return m_process; }
    Vm* vm() const { return m_vm; }
    ExportTable& exports() const { return *m_exports; }
    Term** literal_off_heap() const { return m_literal_off_heap; }

private:
    DecodeTarget(Kind kind, Process* p, Vm* vm, ExportTable* exports, Term** literal_off_heap = nullptr)
        : m_kind(kind), m_process(p), m_vm(vm), m_exports(exports), m_literal_off_heap(literal_off_heap) {}
    Kind m_kind;
    Process* m_process;
    Vm* m_vm;
    ExportTable* m_exports;
    Term** m_literal_off_heap;
};

struct DecodeResult {
    Term term = THE_NON_VALUE;
    std::size_t used = 0;  // bytes of [bytes] the term took
    DecodeStatus status = DecodeStatus::BadFormat;
    HeapFragment* fragment = nullptr;  // DecodeTarget::fragment: where the term is (null for an immediate)
    std::string error;                 // BadFormat: why ("truncated", "unsupported external term tag 103", ...)
};

// Decodes the term at the start of [bytes] (version byte included) into [target]. With
// [safe], an atom that does not exist yet or a fun makes it Unsafe instead of being created.
DecodeResult decode_external(const DecodeTarget& target, std::span<const std::uint8_t> bytes, bool safe);
// binary_to_term: onto [p]'s heap.
DecodeResult decode_external(Process* p, std::span<const std::uint8_t> bytes, bool safe);
// A term after a distribution header (erl_ext_dist): no version byte, and ATOM_CACHE_REF N
// stands for [atom_refs][N], the atoms the header named.
DecodeResult decode_dist_term(const DecodeTarget& target, std::span<const std::uint8_t> bytes,
                              std::span<const Term> atom_refs);

}  // namespace beamlet::vm
