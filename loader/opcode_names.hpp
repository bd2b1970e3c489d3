// loader/opcode_names.hpp — the names of OTP's generic opcodes 1..180, for error messages about
// opcodes beamlet does not implement.
#pragma once

#include <string>

namespace beamlet::loader {

// The genop.tab name of BEAM opcode [number], or "opcode N" for numbers OTP 25 does not know.
std::string opcode_name(unsigned number);

}  // namespace beamlet::loader
