// vm/code_threading.cpp — turns a GenericModule into interpreter code: function headers,
// handler addresses (specialised by the BEAMLET_SPECIALISE rules of vm/instructions.def, then
// pairs joined by its BEAMLET_FUSE rules), operands encoded as interpreter.cpp describes,
// labels resolved.
#include <unordered_map>

#include "vm/atom_table.hpp"
#include "vm/bit_syntax.hpp"
#include "vm/code_engine.hpp"
#include "vm/interpreter.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

namespace {

constexpr Word CODE_INFO_WORDS = sizeof(CodeInfo) / sizeof(Word);

Word encode_register(const Operand& o) {
    return o.kind == OperandKind::X ? o.value * 8 : (o.value + 1) * 8 + 4;
}

// Segment flags of bs_create_bin: a literal list of atoms, nil, or already a bit set.
Word segment_flags(const Operand& o) {
    if (o.kind == OperandKind::Unsigned) return o.value;
    Word flags = 0;
    for (Term t = o.value; is_list(t); t = cdr(t)) {
        Term a = car(t);
        if (a == atoms::little) flags |= BSF_LITTLE;
        else if (a == atoms::signed_) flags |= BSF_SIGNED;
        else if (a == atoms::native) flags |= BSF_NATIVE;
    }
    return flags;
}

// Whether operand [o] is what the specialisation pattern letter [letter] asks for
// (vm/instructions.def, BEAMLET_SPECIALISE).
bool matches(const Operand& o, char letter) {
    switch (letter) {
    case 'x': return o.kind == OperandKind::X;
    case 'y': return o.kind == OperandKind::Y;
    case 'c': return o.kind == OperandKind::Literal;
    case 'i': return o.kind == OperandKind::Literal && is_immediate(o.value);
    case 'n': return o.kind == OperandKind::Literal && is_small(o.value);
    case 'f': return o.kind == OperandKind::FloatReg;
    default: return true;  // '.'
    }
}

// The handler [in] gets in the threaded code: that of the first BEAMLET_SPECIALISE rule for its
// instruction whose pattern its operands match, else its own.
Op specialised(const GenericModule& g, const GenericInstr& in) {
    for (const Specialisation& rule : specialisations_of(in.op)) {
        bool match = true;
        for (std::uint32_t k = 0; match && k < rule.pattern.size(); ++k) match = matches(g.operand(in, k), rule.pattern[k]);
        if (match) return rule.specific;
    }
    return in.op;
}

class Threader {
public:
    Threader(Vm& vm, const GenericModule& g) : m_vm(vm), m_g(g) {}

    Result<std::unique_ptr<Module>> run() {
        auto mod = std::make_unique<Module>();
        m_mod = mod.get();
        mod->name = m_g.name;
        mod->files = m_g.files;
        mod->file_names = m_g.file_names;
        mod->strings = m_g.strings;
        mod->attributes = m_g.attributes;
        mod->compile_info = m_g.compile_info;
        mod->source_path = m_g.source_path;
        std::copy(std::begin(m_g.md5), std::end(m_g.md5), mod->md5);
        mod->content_hash = m_g.content_hash;
        mod->literal_lo = m_g.literal_lo;
        mod->literal_hi = m_g.literal_hi;
        mod->literal_off_heap = m_g.literal_off_heap;

        // Pass 1: sizes, label offsets, function boundaries, and (with a native-code engine)
        // the resume points that get a marker.
        m_labels.assign(m_g.label_count, ~Word(0));
        find_resume_points();
        Word offset = 0;
        for (std::size_t i = 0; i < m_g.instrs.size(); ++i) {
            const GenericInstr& in = m_g.instrs[i];
            if (in.op == Op::label) {
                Word l = m_g.operand(in, 0).value;
                if (l >= m_labels.size()) return Error{"label out of range"};
                m_labels[l] = offset;
                continue;
            }
            if (m_resume[i]) offset += MARKER_WORDS;
            offset += size_of(in);
        }
        mod->code_size_words = offset;
        if (m_vm.services.code_engine) m_layout.label_pos = m_labels;
        mod->code = std::make_unique<Word[]>(offset ? offset : 1);
        m_code = mod->code.get();

        // Pass 2: emit.
        m_emitted.reserve(m_g.instrs.size());
        Word pos = 0;
        FunctionInfo* current = nullptr;
        Word pending_line = 0;
        bool have_line = false;
        if (m_vm.services.code_engine) {
            m_layout.instr_pos.assign(m_g.instrs.size(), NO_POSITION);
            m_layout.marker_pos.assign(m_g.instrs.size(), NO_POSITION);
        }
        for (std::size_t index = 0; index < m_g.instrs.size(); ++index) {
            const GenericInstr& in = m_g.instrs[index];
            switch (in.op) {
            case Op::label:
            case Op::int_code_end:
                continue;
            case Op::line: {
                Word item = m_g.operand(in, 0).value;
                pending_line = item;
                have_line = true;
                continue;
            }
            default:
                break;
            }
            if (have_line) {
                const LineItem& li = m_g.line_items[pending_line];
                mod->lines.push_back({pos, li.line, li.file_index});
                have_line = false;
            }
            if (in.op == Op::func_info) {
                if (current) current->end_offset = pos;
                FunctionInfo fi;
                fi.name = m_g.operand(in, 1).value;
                fi.arity = m_g.operand(in, 2).value;
                fi.header_offset = pos;
                mod->functions.push_back(fi);
                current = &mod->functions.back();
                auto* ci = reinterpret_cast<CodeInfo*>(m_code + pos);
                ci->op = op_word(Op::func_info);
                new (&ci->gen_bp) std::atomic<GenericBp*>(nullptr);
                ci->module = m_g.operand(in, 0).value;
                ci->function = fi.name;
                ci->arity = fi.arity;
                pos += CODE_INFO_WORDS;
                continue;
            }
            if (!current) return Error{"code before the first function"};
            if (m_resume[index]) {
                // Filled in by the engine once the native code exists.
                m_code[pos] = op_word(Op::i_jit_skip);
                m_code[pos + 1] = 0;
                m_layout.marker_pos[index] = pos;
                pos += MARKER_WORDS;
            }
            if (m_vm.services.code_engine) m_layout.instr_pos[index] = pos;
            auto r = emit(in, pos);
            if (!r.empty()) return Error{"function " + atom_text(current->name) + "/" + std::to_string(current->arity) + ": " + r};
            m_emitted.push_back({index, pos, specialised(m_g, in)});
            pos += size_of(in);
        }
        if (current) current->end_offset = pos;
        if (pos != offset) return Error{"internal error: code size mismatch"};
        fuse_pairs();

        // Lambdas.
        for (const FunTableEntry& f : m_g.funs) {
            auto fe = std::make_unique<FunEntry>();
            fe->module = mod.get();
            fe->module_name = m_g.name;
            fe->function = f.function;
            fe->arity = f.arity;
            fe->num_free = f.num_free;
            fe->index = f.index;
            fe->old_uniq = f.old_uniq;
            if (f.label >= m_labels.size() || m_labels[f.label] == ~Word(0)) return Error{"chunk FunT: bad label"};
            init_fun_entry(*fe, m_code + m_labels[f.label]);
            mod->funs.push_back(std::move(fe));
        }
        // Patch fun indices (make_fun3 operands) now that FunEntries exist.
        for (auto [at, index] : m_fun_patches) m_code[at] = reinterpret_cast<Word>(mod->funs[index].get());
        for (FunctionInfo& fi : mod->functions)
            for (const ExportEntry& e : m_g.exports)
                if (e.function == fi.name && e.arity == fi.arity) fi.exported = true;
        return Result<std::unique_ptr<Module>>(std::move(mod));
    }

public:
    // Where everything went (filled when the VM has a native-code engine).
    ThreadLayout& layout() { return m_layout; }

private:
    static constexpr Word MARKER_WORDS = 2;

    // The instructions that get a resume-point marker (none without a native-code engine):
    // the first of each function, those labels lead to, and those after an instruction whose
    // native code may leave to the interpreter or to another resume point.
    void find_resume_points() {
        m_resume.assign(m_g.instrs.size(), false);
        const CodeEngine* engine = m_vm.services.code_engine;
        if (!engine) return;
        bool next_resumes = false;
        for (std::size_t i = 0; i < m_g.instrs.size(); ++i) {
            const GenericInstr& in = m_g.instrs[i];
            switch (in.op) {
            case Op::label:
                next_resumes = true;
                continue;
            case Op::line:
                continue;
            case Op::func_info:
                // The header is no resume point (its layout is fixed); the first instruction is.
                next_resumes = true;
                continue;
            case Op::int_code_end:
                continue;
            default:
                break;
            }
            m_resume[i] = next_resumes;
            next_resumes = !continues_natively(m_g, in);
        }
    }

    Word size_of(const GenericInstr& in) const {
        switch (in.op) {
        case Op::label:
        case Op::line:
        case Op::int_code_end:
            return 0;
        case Op::func_info:
            return CODE_INFO_WORDS;
        case Op::fmove:
            return 5;
        case Op::bs_match_string:
        case Op::bs_create_bin:
            return 2 + in.operand_count;  // + the Module*
        default:
            return 1 + in.operand_count;
        }
    }

    // Pass 3: adjacent pairs that a BEAMLET_FUSE rule joins get its handler in the first's
    // word, left to right, each instruction in one pair at most. A label or a resume marker
    // between them keeps them apart (something enters the second on its own); a line does not
    // (the second of every rule neither raises nor reads its own address).
    void fuse_pairs() {
        for (std::size_t k = 1; k < m_emitted.size(); ++k) {
            const Emitted& a = m_emitted[k - 1];
            const Emitted& b = m_emitted[k];
            if (a.pos + size_of(m_g.instrs[a.index]) != b.pos) continue;  // a marker between
            bool label_between = false;
            for (std::size_t i = a.index + 1; i < b.index; ++i) label_between |= m_g.instrs[i].op == Op::label;
            if (label_between) continue;
            Op f = fused(a.handler, b.handler);
            if (f == Op::Count) continue;
            m_code[a.pos] = op_word(f);
            ++k;
        }
    }

    // Each instruction emitted: its index in the generic code, its offset, its handler.
    struct Emitted {
        std::size_t index;
        Word pos;
        Op handler;
    };
    std::vector<Emitted> m_emitted;
    std::vector<bool> m_resume;
    ThreadLayout m_layout;

    Word label_address(Word label) const {
        if (label == 0) return 0;
        return reinterpret_cast<Word>(m_code + m_labels[label]);
    }

    // The word for one operand (not a list).
    std::string encode(const Operand& o, char letter, Word* out) {
        switch (o.kind) {
        case OperandKind::X:
        case OperandKind::Y:
            *out = encode_register(o);
            return {};
        case OperandKind::Literal:
        case OperandKind::Unsigned:
        case OperandKind::Alloc:
        case OperandKind::FloatReg:
            *out = o.value;
            if (letter == 'e' || letter == 'b') return encode_import(o.value, letter, out);
            return {};
        case OperandKind::Label:
            if (o.value >= m_labels.size() || (o.value && m_labels[o.value] == ~Word(0))) return "undefined label";
            *out = label_address(o.value);
            return {};
        case OperandKind::Import:
        case OperandKind::FunIndex:
        case OperandKind::List:
            break;
        }
        return "bad operand";
    }

    std::string encode_import(Word index, char letter, Word* out) {
        const ImportEntry& imp = m_g.imports[index];
        Export* e = m_vm.exports.get(imp.module, imp.function, imp.arity);
        if (letter == 'b' && !e->is_bif())
            return "unknown BIF " + atom_text(imp.module) + ":" + atom_text(imp.function) + "/" + std::to_string(imp.arity);
        *out = reinterpret_cast<Word>(e);
        return {};
    }

    std::string emit(const GenericInstr& in, Word pos) {
        Op op = in.op;
        const OpInfo& info = op_info(op);  // a specialisation has the same operands
        Word* w = m_code + pos;
        w[0] = op_word(specialised(m_g, in));

        if (op == Op::fmove) {
            const Operand& s = m_g.operand(in, 0);
            const Operand& d = m_g.operand(in, 1);
            w[1] = s.kind == OperandKind::FloatReg ? s.value : s.kind == OperandKind::Literal ? s.value : encode_register(s);
            w[2] = d.kind == OperandKind::FloatReg ? d.value : encode_register(d);
            w[3] = s.kind == OperandKind::FloatReg;
            w[4] = d.kind == OperandKind::FloatReg;
            return {};
        }

        std::uint32_t k = 0;
        Word out = 1;
        for (char letter : info.signature) {
            const Operand& o = m_g.operand(in, k);
            if (o.kind == OperandKind::List) {
                w[out++] = o.value;
                for (Word i = 0; i < o.value; ++i) {
                    const Operand& e = m_g.operand(in, k + 1 + std::uint32_t(i));
                    if (e.kind == OperandKind::List) return "nested list";
                    std::string err = encode(e, 's', &w[out]);
                    if (!err.empty()) return err;
                    // select_tuple_arity compares arities as small integers.
                    if (op == Op::select_tuple_arity && e.kind == OperandKind::Unsigned) w[out] = make_small(SWord(e.value));
                    ++out;
                }
                if (op == Op::bs_create_bin) fix_segments(w + out - o.value, o.value);
                k += 1 + std::uint32_t(o.value);
                continue;
            }
            if (letter == 'F') {
                m_fun_patches.emplace_back(pos + out, o.value);
                w[out++] = 0;
            } else {
                std::string err = encode(o, letter, &w[out]);
                if (!err.empty()) return err;
                ++out;
            }
            ++k;
        }
        if (op == Op::bs_match_string || op == Op::bs_create_bin) w[out++] = reinterpret_cast<Word>(m_mod);
        if (op == Op::bs_create_bin) {
            for (Word i = 0; i < w[6]; i += 6)
                if (!is_atom(w[7 + i])) return "bad bs_create_bin segment";
        }
        return {};
    }

    // bs_create_bin segments: (type, seg, unit, flags, value, size); flags become BSF_* bits.
    void fix_segments(Word* seg, Word n) {
        for (Word i = 0; i + 5 < n; i += 6) {
            Word& flags = seg[i + 3];
            Operand o{is_list(flags) || flags == NIL ? OperandKind::Literal : OperandKind::Unsigned, flags};
            flags = segment_flags(o);
        }
    }

    Vm& m_vm;
    const GenericModule& m_g;
    Module* m_mod = nullptr;
    Word* m_code = nullptr;
    std::vector<Word> m_labels;
    std::vector<std::pair<Word, Word>> m_fun_patches;
};

}  // namespace

Result<std::unique_ptr<Module>> thread_module(Vm& vm, const GenericModule& code, ThreadLayout* layout) {
    Threader threader(vm, code);
    auto result = threader.run();
    if (layout) *layout = std::move(threader.layout());
    return result;
}

}  // namespace beamlet::vm
