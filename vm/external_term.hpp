// vm/external_term.hpp — Erlang's external term format: term_to_binary and binary_to_term.
//
// Encoding follows OTP 25's choices byte for byte (minor version 1 by default: NEW_FLOAT_EXT,
// latin-1 atoms as ATOM_EXT, STRING_EXT for byte lists, NEW_PID_EXT / NEWER_REFERENCE_EXT with
// creation 0 for the local node nonode@nohost). Decoding accepts every tag OTP 25 writes, plus
// the older float, atom, pid, port and reference tags; both work without recursion.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "vm/term.hpp"

namespace beamlet::vm {

struct Process;
struct Vm;

struct EncodeOptions {
    int minor_version = 1;  // 0: floats as FLOAT_EXT text; 2: every atom as UTF-8
    int compression = 0;    // zlib level 1..9, 0 = none
};

// Appends the external format of [t] (the 131 version byte first) to [out].
void encode_external(Term t, const EncodeOptions& options, std::string* out);

enum class DecodeStatus { Ok, BadFormat, Unsafe };

struct DecodeResult {
    Term term = THE_NON_VALUE;
    std::size_t used = 0;  // bytes of [bytes] the term took
    DecodeStatus status = DecodeStatus::BadFormat;
};

// Decodes the term at the start of [bytes] (version byte included) onto [p]'s heap. With
// [safe], an atom that does not exist yet or a fun makes it Unsafe instead of being created.
DecodeResult decode_external(Process* p, std::span<const std::uint8_t> bytes, bool safe);

}  // namespace beamlet::vm
