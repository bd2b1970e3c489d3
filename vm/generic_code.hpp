// vm/generic_code.hpp — GenericModule: a verified .beam as engine-neutral decoded instructions.
//
// The loader fills it once (operands decoded from compact terms at load time); an execution
// engine turns it into its own code when the module is installed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vm/instructions.hpp"
#include "vm/term.hpp"

namespace beamlet::vm {

enum class OperandKind : std::uint8_t {
    X,          // x register number
    Y,          // y register number
    FloatReg,   // float register number
    Literal,    // a term: immediate, or a pointer into the literal area
    Label,      // label number (0 = no label)
    Unsigned,   // arity, size, index, flags
    Import,     // index into imports
    FunIndex,   // index into funs
    List,       // value = element count; the elements follow as operands
    Alloc,      // heap words needed (allocation lists are summed)
};

struct Operand {
    OperandKind kind;
    Word value;
};

struct GenericInstr {
    Op op;
    std::uint32_t first_operand;  // index into GenericModule::operands
    std::uint32_t operand_count;  // including list elements
};

struct ImportEntry {
    Term module, function;
    Word arity;
};

struct ExportEntry {
    Term function;
    Word arity;
    Word label;
};

struct FunTableEntry {
    Term function;
    Word arity;
    Word label;
    Word index;
    Word num_free;
    Word old_uniq;
};

struct LineItem {
    Word line;
    Word file_index;
};

struct GenericModule {
    Term name = 0;
    std::string source_path;
    std::vector<GenericInstr> instrs;
    std::vector<Operand> operands;
    std::vector<ImportEntry> imports;
    std::vector<ExportEntry> exports;
    std::vector<ExportEntry> locals;
    std::vector<FunTableEntry> funs;
    std::vector<LineItem> line_items;  // index 0 = no location
    std::vector<std::string> files;
    std::vector<Term> file_names;  // files as Erlang strings, in the literal arena
    std::vector<std::uint8_t> strings;
    Word label_count = 0;
    Word function_count = 0;
    std::uint8_t md5[16] = {};
    std::uint64_t content_hash = 0;  // FNV-1a of the .beam bytes as loaded (the JIT's module key)
    Term attributes = NIL;
    Term on_load_function = 0;   // -on_load(F/0): F (0: none)
    Term compile_info = NIL;
    // The literal area range the module's literals were decoded into, and the large binaries
    // among them (reference-counted, linked through their next words).
    const Term* literal_lo = nullptr;
    const Term* literal_hi = nullptr;
    Term* literal_off_heap = nullptr;

    const Operand& operand(const GenericInstr& in, std::uint32_t i) const {
        return operands[in.first_operand + i];
    }
};

}  // namespace beamlet::vm
