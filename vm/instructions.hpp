// vm/instructions.hpp — Op, OpInfo and the rewrite rules: vm/instructions.def as C++ data.
#pragma once

#include <array>
#include <cstdint>
#include <span>
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
    Native = 1u << 7,      // the JIT emits it: jit/compiler.cpp's Emitter::emit<op> (the build checks both ways)
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

// [op]'s row is flagged Native: the JIT has an emitter for it, or the build fails.
inline constexpr bool is_native(Op op) { return op_info(op).flags & Native; }

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

// ---- rewrite rules ----------------------------------------------------------------------------

// A BEAMLET_BIF_REWRITE rule: the loader turns [generic] calling BIF [module]:[function]/[arity]
// into [specific].
struct BifRewrite {
    Op generic;
    std::string_view module;
    std::string_view function;
    std::uint32_t arity;
    Op specific;
};

inline constexpr BifRewrite BIF_REWRITES[] = {
#define BEAMLET_BIF_REWRITE(generic, module, function, arity, specific) {Op::generic, module, function, arity, Op::specific},
#include "vm/instructions.def"
#undef BEAMLET_BIF_REWRITE
};

// A BEAMLET_SPECIALISE rule: the threader gives [generic] whose operands match [pattern] (one
// letter per operand, see instructions.def) the handler of [specific].
struct Specialisation {
    Op generic;
    std::string_view pattern;
    Op specific;
};

inline constexpr Specialisation SPECIALISATIONS[] = {
#define BEAMLET_SPECIALISE(generic, pattern, specific) {Op::generic, pattern, Op::specific},
#include "vm/instructions.def"
#undef BEAMLET_SPECIALISE
};

// A BEAMLET_FUSE rule: [first] directly followed by [second] (handlers after specialisation)
// gets the handler of [fused], which runs both.
struct Fusion {
    Op first;
    Op second;
    Op fused;
};

inline constexpr Fusion FUSIONS[] = {
#define BEAMLET_FUSE(first, second, fused) {Op::first, Op::second, Op::fused},
#include "vm/instructions.def"
#undef BEAMLET_FUSE
};

// The handler that runs [first] and then [second], or Op::Count if no rule joins them.
inline constexpr Op fused(Op first, Op second) {
    for (const Fusion& rule : FUSIONS)
        if (rule.first == first && rule.second == second) return rule.fused;
    return Op::Count;
}

// Where each instruction's rules start in SPECIALISATIONS and how many there are.
struct RuleRange {
    std::uint8_t first = 0;
    std::uint8_t count = 0;
};

inline constexpr std::array<RuleRange, OP_COUNT> SPECIALISATION_RANGES = [] {
    std::array<RuleRange, OP_COUNT> ranges{};
    for (std::size_t k = 0; k < std::size(SPECIALISATIONS); ++k) {
        RuleRange& range = ranges[std::size_t(SPECIALISATIONS[k].generic)];
        if (range.count == 0) range.first = std::uint8_t(k);
        ++range.count;
    }
    return ranges;
}();

// The BEAMLET_SPECIALISE rules for [op], in table order.
inline constexpr std::span<const Specialisation> specialisations_of(Op op) {
    RuleRange range = SPECIALISATION_RANGES[std::size_t(op)];
    return {SPECIALISATIONS + range.first, range.count};
}

// The checks on the rules, run by the compiler.
namespace rule_checks {

constexpr bool same_signature(Op a, Op b) { return op_info(a).signature == op_info(b).signature; }

constexpr bool rewrites_keep_operands() {
    for (const BifRewrite& rule : BIF_REWRITES)
        if (!same_signature(rule.generic, rule.specific)) return false;
    for (const Specialisation& rule : SPECIALISATIONS)
        if (!same_signature(rule.generic, rule.specific)) return false;
    return true;
}

constexpr bool bif_rewrites_name_a_bif() {
    for (const BifRewrite& rule : BIF_REWRITES)
        if (op_info(rule.generic).signature.find('b') == std::string_view::npos) return false;
    return true;
}

// One known letter per operand, and no list operand (whose elements would shift the rest).
constexpr bool patterns_fit_their_instructions() {
    for (const Specialisation& rule : SPECIALISATIONS) {
        std::string_view signature = op_info(rule.generic).signature;
        if (rule.pattern.size() != signature.size() || signature.find('L') != std::string_view::npos) return false;
        if (rule.pattern.find_first_not_of("xycinf.") != std::string_view::npos) return false;
    }
    return true;
}

constexpr bool specialisations_are_adjacent() {
    if (std::size(SPECIALISATIONS) > 255) return false;  // RuleRange counts in bytes
    for (std::size_t k = 0; k < std::size(SPECIALISATIONS); ++k) {
        RuleRange range = SPECIALISATION_RANGES[std::size_t(SPECIALISATIONS[k].generic)];
        if (k < range.first || k >= std::size_t(range.first) + range.count) return false;
    }
    return true;
}

// A fused handler takes its first instruction's operands (of fixed size: no list) and is a
// row of its own, flagged Internal.
constexpr bool fusions_keep_operands() {
    for (const Fusion& rule : FUSIONS) {
        if (!same_signature(rule.first, rule.fused)) return false;
        if (op_info(rule.first).signature.find('L') != std::string_view::npos) return false;
        if (!(op_info(rule.fused).flags & Internal)) return false;
    }
    return true;
}

constexpr bool specialised_rows_are_internal() {
    for (const Specialisation& rule : SPECIALISATIONS)
        if (!(op_info(rule.specific).flags & Internal)) return false;
    return true;
}

}  // namespace rule_checks

static_assert(rule_checks::rewrites_keep_operands(), "instructions.def: a rewrite rule joins rows of different signatures");
static_assert(rule_checks::bif_rewrites_name_a_bif(), "instructions.def: a BEAMLET_BIF_REWRITE rule's instruction has no b operand");
static_assert(rule_checks::patterns_fit_their_instructions(),
              "instructions.def: a BEAMLET_SPECIALISE pattern is not one known letter per operand of its instruction");
static_assert(rule_checks::specialisations_are_adjacent(), "instructions.def: an instruction's BEAMLET_SPECIALISE rules are not adjacent");
static_assert(rule_checks::fusions_keep_operands(), "instructions.def: a BEAMLET_FUSE rule's rows differ in operands, or its fused row is not Internal");
static_assert(rule_checks::specialised_rows_are_internal(), "instructions.def: a BEAMLET_SPECIALISE rule yields a row not flagged Internal");

}  // namespace beamlet::vm
