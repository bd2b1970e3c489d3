// loader/etf.hpp — decodes the external term format into literal memory.
#pragma once

#include <cstdint>
#include <span>

#include "vm/result.hpp"
#include "vm/term.hpp"

namespace beamlet::vm { class ExportTable; }

namespace beamlet::loader {

// Decodes one term in external format (after the leading 131 version byte) from [bytes] into
// the literal area; export funs resolve through [exports]. Refs, pids and ports are rejected (they never appear in literals).
vm::Result<vm::Term> decode_literal(std::span<const std::uint8_t> bytes, vm::ExportTable& exports);

}  // namespace beamlet::loader
