// tools/disassembler.cpp — the decoder's mirror: one generic printer driven by operand kinds.
#include "tools/disassembler.hpp"

#include <fmt/format.h>

#include "bif/term_format.hpp"
#include "tracing/breakpoints.hpp"
#include "tracing/sessions.hpp"
#include "vm/breakpoint_site.hpp"
#include "vm/atom_table.hpp"

namespace beamlet::tools {

using namespace vm;

namespace {

Word tracing_session_id(const GenericBp* bp) { return bp->session->id; }

// "none", or the breakpoint's state: whether the instruction is installed and the flags of
// its active and staging generations.
std::string breakpoint_state(const vm::CodeEngine* engine, const CodeInfo* ci) {
    const GenericBp* bp = ci->gen_bp.load();
    if (!bp) return "none";
    unsigned active = tracing::active_bp_index();
    std::string s = vm::entry_breakpoint_set(engine, ci) ? "installed" : "prepared";
    for (; bp; bp = bp->next.load()) {
        std::uint32_t a = bp->data[active].flags.load(), st = bp->data[1 - active].flags.load();
        s += fmt::format(" session {} active {}{} staging {}{}", bp->session ? tracing_session_id(bp) : 0,
                         a & tracing::BPF_LOCAL_TRACE ? "local" : "", a & tracing::BPF_GLOBAL_TRACE ? "global" : "",
                         st & tracing::BPF_LOCAL_TRACE ? "local" : "", st & tracing::BPF_GLOBAL_TRACE ? "global" : "");
    }
    return s;
}

std::string operand_text(const GenericModule& g, const Operand& o) {
    switch (o.kind) {
    case OperandKind::X: return fmt::format("x{}", o.value);
    case OperandKind::Y: return fmt::format("y{}", o.value);
    case OperandKind::FloatReg: return fmt::format("fr{}", o.value);
    case OperandKind::Literal: return bif::write_term(o.value, 8);
    case OperandKind::Label: return o.value ? fmt::format("L{}", o.value) : "none";
    case OperandKind::Unsigned: return fmt::format("{}", o.value);
    case OperandKind::Import: {
        const ImportEntry& e = g.imports[o.value];
        return fmt::format("{}:{}/{}", atom_text(e.module), atom_text(e.function), e.arity);
    }
    case OperandKind::FunIndex: return fmt::format("fun#{}", o.value);
    case OperandKind::List: return fmt::format("[{} items]", o.value);
    case OperandKind::Alloc: return fmt::format("{}w", o.value);
    }
    return "?";
}

// The trace events an instruction can generate, beyond call tracing (empty: none): what a
// process traced with the flag in brackets reports when it runs the instruction.
std::string trace_point(const GenericModule& g, const GenericInstr& in) {
    switch (in.op) {
    case Op::send: return "send [send]";
    case Op::loop_rec:
    case Op::wait:
    case Op::wait_timeout: return "messages enter the queue ['receive']";
    case Op::timeout: return "receive timed out ['receive']";
    case Op::call_ext:
    case Op::call_ext_last:
    case Op::call_ext_only: {
        const ImportEntry& e = g.imports[g.operand(in, 1).value];
        if (e.module != atoms::erlang) return "";
        static const char* const procs[] = {"spawn", "spawn_link", "spawn_monitor", "spawn_opt", "link",
                                            "unlink",  "register",   "unregister",    "exit"};
        const std::string& f = atom_text(e.function);
        for (const char* name : procs)
            if (f == name) return "process event [procs]";
        if (f == "send") return "send [send]";
        if (f == "garbage_collect") return "collection [garbage_collection]";
        return "";
    }
    default: return "";
    }
}

}  // namespace

std::string disassemble(const GenericModule& g, const Module& m, const vm::CodeEngine* engine) {
    std::string out = fmt::format("module {} ({} functions, {} code words)\n", atom_text(g.name),
                                  m.functions.size(), m.code_size_words);
    out += "; trace points: call trace at each function header; after '<-' the event an\n"
           ";   instruction reports and, in brackets, the process flag that asks for it\n";
    std::size_t fn = 0;
    for (const GenericInstr& in : g.instrs) {
        const OpInfo& info = op_info(in.op);
        if (in.op == Op::func_info && fn < m.functions.size()) {
            const FunctionInfo& f = m.functions[fn++];
            const CodeInfo* ci = m.code_info(f);
            out += fmt::format("\nfunction {}/{}{}  header @{:#x}: [func_info][bp={}][{}][{}][{}]\n",
                               atom_text(f.name), f.arity, f.exported ? " (exported)" : "",
                               reinterpret_cast<std::uintptr_t>(ci),
                               breakpoint_state(engine, ci), atom_text(ci->module),
                               atom_text(ci->function), ci->arity);
            continue;
        }
        if (in.op == Op::label) {
            out += fmt::format("  L{}:\n", g.operand(in, 0).value);
            continue;
        }
        if (in.op == Op::line || in.op == Op::int_code_end) continue;
        std::string line = fmt::format("    {}", info.name);
        for (std::uint32_t k = 0; k < in.operand_count; ++k) {
            const Operand& o = g.operand(in, k);
            line += k ? ", " : " ";
            if (o.kind == OperandKind::List) {
                line += "[";
                for (Word i = 0; i < o.value; ++i)
                    line += (i ? ", " : "") + operand_text(g, g.operand(in, k + 1 + std::uint32_t(i)));
                line += "]";
                k += std::uint32_t(o.value);
                continue;
            }
            char letter = k < info.signature.size() ? info.signature[k] : 's';
            if ((letter == 'e' || letter == 'b') && o.kind == OperandKind::Unsigned)
                line += operand_text(g, Operand{OperandKind::Import, o.value});
            else
                line += operand_text(g, o);
        }
        if (std::string point = trace_point(g, in); !point.empty()) line += "    <- " + point;
        out += line + "\n";
    }
    return out;
}

}  // namespace beamlet::tools
