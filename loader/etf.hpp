// loader/etf.hpp — decodes a module's literals (external term format) into literal memory.
#pragma once

#include <cstdint>
#include <span>

#include "vm/result.hpp"
#include "vm/term.hpp"

namespace beamlet::vm { class ExportTable; }

namespace beamlet::loader {

// Decodes one term in external format (the leading 131 version byte included) from [bytes]
// into the literal area, with the VM's codec (vm/external_term.hpp); export funs resolve
// through [exports]. Pids, ports, references and local funs are refused: they never appear
// in literals. With [off_heap], large binaries are reference-counted and linked there.
vm::Result<vm::Term> decode_literal(std::span<const std::uint8_t> bytes, vm::ExportTable& exports,
                                    vm::Term** off_heap = nullptr);

}  // namespace beamlet::loader
