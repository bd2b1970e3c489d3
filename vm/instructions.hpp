// vm/instructions.hpp — Op and OpInfo: the instruction table of vm/instructions.def as C++ data.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace beamlet::vm {

enum OpFlags : std::uint32_t {
    Terminator = 1u << 0,  // never falls through to the next instruction
    Call = 1u << 1,        // transfers control to a function
    Return = 1u << 2,
    MayGc = 1u << 3,
    MayThrow = 1u << 4,
    Internal = 1u << 5,    // never in a .beam file
    LoaderOnly = 1u << 6,  // consumed by the loader, never executed
    Native = 1u << 7,      // has a native emitter in the JIT (jit/compiler.cpp)
};

enum class Op : std::uint16_t {
#define BEAMLET_OP(name, number, signature, flags) name,
#include "vm/instructions.def"
#undef BEAMLET_OP
    Count
};

inline constexpr std::size_t OP_COUNT = std::size_t(Op::Count);

struct OpInfo {
    std::string_view name;
    std::uint16_t beam_number;    // 0 for internal instructions
    std::string_view signature;   // one letter per operand, see instructions.def
    std::uint32_t flags;
    std::size_t arity() const { return signature.size(); }
};

// The genop.tab spelling of an identifier from instructions.def ("return_" -> "return").
constexpr std::string_view op_display_name(std::string_view id) {
    return id.ends_with('_') ? id.substr(0, id.size() - 1) : id;
}

inline constexpr std::array<OpInfo, OP_COUNT> OP_INFO = {{
#define BEAMLET_OP(name, number, signature, flags) {op_display_name(#name), number, signature, flags},
#include "vm/instructions.def"
#undef BEAMLET_OP
}};

inline constexpr const OpInfo& op_info(Op op) { return OP_INFO[std::size_t(op)]; }

// Native code for [op] never goes on to the next instruction: it calls, returns or jumps.
inline constexpr bool ends_native_code(Op op) { return op_info(op).flags & (Call | Return | Terminator); }

// The highest generic opcode number beamlet loads (OTP 25's table ends at 180).
inline constexpr std::uint16_t MAX_BEAM_OPCODE = 180;

// Maps a BEAM opcode number to Op; Op::Count for numbers beamlet does not implement.
inline constexpr std::array<Op, MAX_BEAM_OPCODE + 1> BEAM_NUMBER_TO_OP = [] {
    std::array<Op, MAX_BEAM_OPCODE + 1> table{};
    table.fill(Op::Count);
    for (std::size_t i = 0; i < OP_COUNT; ++i)
        if (OP_INFO[i].beam_number != 0) table[OP_INFO[i].beam_number] = Op(i);
    return table;
}();

}  // namespace beamlet::vm
