// tools/disassembler.hpp — prints a loaded module: function headers and instructions.
#pragma once

#include <string>

#include "vm/generic_code.hpp"
#include "vm/module.hpp"

namespace beamlet::tools {

// The text listing of [code], with each function's header as installed in [installed] (its
// address, breakpoint slot and MFA; whether its entry breakpoint is set, in [engine]'s patch
// site or the threaded code). Operands are printed by their signature letters.
std::string disassemble(const vm::GenericModule& code, const vm::Module& installed, const vm::CodeEngine* engine);

}  // namespace beamlet::tools
