// loader/beam_loader.cpp — .beam container, chunks, compact-term operands and validation.
#include "loader/beam_loader.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>

#include "loader/etf.hpp"
#include "loader/opcode_names.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/literal_area.hpp"
#include "vm/magic.hpp"
#include "vm/process.hpp"
#include "vm/stack_trace.hpp"
#include "vm/md5.hpp"

namespace beamlet::loader {

using namespace vm;

namespace {

// Reads big-endian values from a chunk, remembering the first out-of-range access.
class Reader {
public:
    explicit Reader(std::span<const std::uint8_t> data) : m_data(data) {}
    bool ok() const { return m_ok; }
    bool at_end() const { return m_pos >= m_data.size(); }
    std::size_t pos() const { return m_pos; }
    std::uint8_t u8() {
        if (m_pos + 1 > m_data.size()) return bad();
        return m_data[m_pos++];
    }
    std::uint32_t u16() {
        if (m_pos + 2 > m_data.size()) return bad();
        std::uint32_t v = (m_data[m_pos] << 8) | m_data[m_pos + 1];
        m_pos += 2;
        return v;
    }
    std::uint32_t u32() {
        if (m_pos + 4 > m_data.size()) return bad();
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v = (v << 8) | m_data[m_pos + i];
        m_pos += 4;
        return v;
    }
    std::span<const std::uint8_t> bytes(std::size_t n) {
        if (m_pos + n > m_data.size()) {
            bad();
            return {};
        }
        auto s = m_data.subspan(m_pos, n);
        m_pos += n;
        return s;
    }

private:
    std::uint8_t bad() {
        m_ok = false;
        m_pos = m_data.size();
        return 0;
    }
    std::span<const std::uint8_t> m_data;
    std::size_t m_pos = 0;
    bool m_ok = true;
};

struct Chunks {
    std::optional<std::span<const std::uint8_t>> atoms, code, imports, exports, locals, literals, funs,
        strings, lines, attributes, compile_info, meta;
    bool latin1_atoms = false;
};

enum CompactTag { TAG_U = 0, TAG_I = 1, TAG_A = 2, TAG_X = 3, TAG_Y = 4, TAG_F = 5, TAG_H = 6, TAG_Z = 7 };

struct CompactValue {
    int tag;
    bool is_big = false;   // an integer wider than 64 bits (the bytes are in big_bytes)
    Word value = 0;        // unsigned value, or two's complement for TAG_I
    std::vector<std::uint8_t> big_bytes;
};

// The operand kinds inside an instruction's list (its L operand), a pattern repeated over its
// elements: c constant, f label (not 0), s source, d destination, y y register, a atom,
// u unsigned, * any.
constexpr std::string_view list_pattern(Op op) {
    switch (op) {
    case Op::select_val:
    case Op::select_tuple_arity: return "cf";
    case Op::put_map_assoc:
    case Op::put_map_exact: return "ss";
    case Op::get_map_elements: return "sd";
    case Op::has_map_fields:
    case Op::put_tuple2:
    case Op::make_fun3: return "s";
    case Op::init_yregs: return "y";
    case Op::bs_create_bin: return "auu**s";  // type, segment, unit, flags, value, size
    default: return "";
    }
}

constexpr bool every_list_has_a_pattern() {
    for (std::size_t k = 0; k < OP_COUNT; ++k)
        if (OP_INFO[k].signature.find('L') != std::string_view::npos && list_pattern(Op(k)).empty()) return false;
    return true;
}
static_assert(every_list_has_a_pattern(), "a row of vm/instructions.def with a list operand (L) has no list_pattern()");

class ModuleLoader {
public:
    ModuleLoader(std::span<const std::uint8_t> file, const std::string& path, ExportTable& exports)
        : m_file(file), m_path(path), m_exports(exports) {}

    Result<GenericModule> run() {
        if (!parse_container()) return fail_result();
        compute_md5();
        if (!parse_atoms() || !parse_imports() || !parse_exports() || !parse_literals() || !parse_funs() ||
            !parse_lines() || !parse_strings() || !parse_attributes() || !parse_code() || !check_entry_labels())
            return fail_result();
        mark_bifs_in_erlang();
        bif_tail_calls_with_frames();
        redirect_bif_bodies();
        return std::move(m_mod);
    }

private:
    Result<GenericModule> fail_result() {
        release_off_heap_list(m_mod.literal_off_heap);  // the literals' words are rolled back
        m_mod.literal_off_heap = nullptr;
        return Error{m_path + ": " + m_error};
    }
    bool fail(std::string message) {
        if (m_error.empty()) m_error = std::move(message);
        return false;
    }

    // The module's MD5 (module_info(md5)), as OTP's loader and beam_lib:md5/1 compute it: over
    // the significant chunks in this order, each fun's old unique number in FunT zeroed (it
    // does not take part in what the module means).
    void compute_md5() {
        vm::Md5 md5;
        auto add = [&](const std::optional<std::span<const std::uint8_t>>& chunk) {
            if (chunk) md5.update(chunk->data(), chunk->size());
        };
        add(m_chunks.atoms);
        add(m_chunks.code);
        add(m_chunks.strings);
        add(m_chunks.imports);
        add(m_chunks.exports);
        if (m_chunks.funs) {
            std::span<const std::uint8_t> funs = *m_chunks.funs;
            std::size_t at = std::min<std::size_t>(4, funs.size());
            md5.update(funs.data(), at);
            static const std::uint8_t zero[4] = {};
            for (; at + 24 <= funs.size(); at += 24) {
                md5.update(funs.data() + at, 20);
                md5.update(zero, 4);
            }
            md5.update(funs.data() + at, funs.size() - at);
        }
        add(m_chunks.literals);
        add(m_chunks.meta);
        md5.digest(m_mod.md5);
    }

    bool parse_container() {
        Reader r(m_file);
        auto form = r.bytes(4);
        std::uint32_t size = r.u32();
        auto beam = r.bytes(4);
        if (!r.ok() || std::memcmp(form.data(), "FOR1", 4) != 0 || std::memcmp(beam.data(), "BEAM", 4) != 0)
            return fail("not a BEAM file (no FOR1/BEAM header)");
        if (size < 4) return fail("bad BEAM file size " + std::to_string(size) + " in the FOR1 header");
        if (std::size_t(size) + 8 > m_file.size()) return fail("truncated BEAM file (header says " + std::to_string(std::size_t(size) + 8) + " bytes, file has " + std::to_string(m_file.size()) + ")");
        Reader body(m_file.subspan(12, size - 4));
        while (!body.at_end()) {
            auto id_bytes = body.bytes(4);
            std::uint32_t len = body.u32();
            auto data = body.bytes(len);
            if (!body.ok()) return fail("truncated chunk in BEAM file");
            body.bytes((4 - len % 4) % 4);
            std::string id(reinterpret_cast<const char*>(id_bytes.data()), 4);
            if (id == "AtU8") m_chunks.atoms = data;
            else if (id == "Atom") { m_chunks.atoms = data; m_chunks.latin1_atoms = true; }
            else if (id == "Code") m_chunks.code = data;
            else if (id == "ImpT") m_chunks.imports = data;
            else if (id == "ExpT") m_chunks.exports = data;
            else if (id == "LocT") m_chunks.locals = data;
            else if (id == "LitT") m_chunks.literals = data;
            else if (id == "FunT") m_chunks.funs = data;
            else if (id == "StrT") m_chunks.strings = data;
            else if (id == "Line") m_chunks.lines = data;
            else if (id == "Attr") m_chunks.attributes = data;
            else if (id == "CInf") m_chunks.compile_info = data;
            else if (id == "Meta") m_chunks.meta = data;
        }
        if (!m_chunks.atoms) return fail("missing chunk AtU8");
        if (!m_chunks.code) return fail("missing chunk Code");
        if (!m_chunks.imports) return fail("missing chunk ImpT");
        if (!m_chunks.exports) return fail("missing chunk ExpT");
        return true;
    }

    bool parse_atoms() {
        Reader r(*m_chunks.atoms);
        std::uint32_t raw_count = r.u32();
        bool compact_lengths = raw_count >> 31;  // OTP 28+: the count is negated
        std::uint32_t count = compact_lengths ? 0u - raw_count : raw_count;
        if (!r.ok() || count < 1 || std::size_t(count) > m_chunks.atoms->size()) return fail("chunk AtU8: bad atom count");
        m_atoms.push_back(NIL);  // index 0 is never a valid atom
        for (std::uint32_t i = 0; i < count; ++i) {
            std::size_t len;
            if (compact_lengths) {
                CompactValue v;
                if (!read_compact(r, v, "AtU8") || v.tag != TAG_U) return fail("chunk AtU8: bad atom length");
                len = v.value;
            } else {
                len = r.u8();
            }
            auto bytes = r.bytes(len);
            if (!r.ok()) return fail("chunk AtU8: truncated");
            std::string name(reinterpret_cast<const char*>(bytes.data()), bytes.size());
            if (m_chunks.latin1_atoms) {
                std::string utf8;
                for (unsigned char c : name) {
                    if (c < 0x80) utf8 += char(c);
                    else { utf8 += char(0xC0 | (c >> 6)); utf8 += char(0x80 | (c & 0x3F)); }
                }
                name = utf8;
            }
            auto atom = AtomTable::global().intern(name);
            if (!atom) return fail("chunk AtU8: atom too long");
            m_atoms.push_back(*atom);
        }
        m_mod.name = m_atoms[1];
        m_mod.source_path = m_path;
        return true;
    }

    bool atom_at(std::uint32_t index, Term* out, const char* chunk) {
        if (index == 0 || index >= m_atoms.size()) return fail(std::string("chunk ") + chunk + ": atom index out of range");
        *out = m_atoms[index];
        return true;
    }

    bool parse_imports() {
        Reader r(*m_chunks.imports);
        std::uint32_t n = r.u32();
        if (!r.ok() || n > m_chunks.imports->size() / 12) return fail("chunk ImpT: bad count");
        for (std::uint32_t i = 0; i < n; ++i) {
            ImportEntry e{};
            std::uint32_t m = r.u32(), f = r.u32();
            e.arity = r.u32();
            if (!r.ok()) return fail("chunk ImpT: truncated");
            if (!atom_at(m, &e.module, "ImpT") || !atom_at(f, &e.function, "ImpT")) return false;
            if (e.arity > 255) return fail("chunk ImpT: arity out of range");
            m_mod.imports.push_back(e);
        }
        return true;
    }

    bool parse_entry_table(std::span<const std::uint8_t> data, const char* chunk, std::vector<ExportEntry>& out) {
        Reader r(data);
        std::uint32_t n = r.u32();
        if (!r.ok() || n > data.size() / 12) return fail(std::string("chunk ") + chunk + ": bad count");
        for (std::uint32_t i = 0; i < n; ++i) {
            ExportEntry e{};
            std::uint32_t f = r.u32();
            e.arity = r.u32();
            e.label = r.u32();
            if (!r.ok()) return fail(std::string("chunk ") + chunk + ": truncated");
            if (!atom_at(f, &e.function, chunk)) return false;
            if (e.arity > 255) return fail(std::string("chunk ") + chunk + ": arity out of range");
            out.push_back(e);
        }
        return true;
    }
    bool parse_exports() {
        if (!parse_entry_table(*m_chunks.exports, "ExpT", m_mod.exports)) return false;
        if (m_chunks.locals && !parse_entry_table(*m_chunks.locals, "LocT", m_mod.locals)) return false;
        return true;
    }

    bool parse_literals() {
        if (!m_chunks.literals) return true;
        Reader r(*m_chunks.literals);
        std::uint32_t raw_size = r.u32();
        if (!r.ok()) return fail("chunk LitT: truncated");
        std::vector<std::uint8_t> inflated;
        std::span<const std::uint8_t> table;
        auto rest = m_chunks.literals->subspan(4);
        if (raw_size == 0) {
            table = rest;  // OTP 28+: stored uncompressed
        } else {
            // zlib never inflates more than 1032:1; a larger claim would only cost a huge allocation.
            if (raw_size > (std::uint32_t(1) << 30) || raw_size / 1032 > rest.size() + 1)
                return fail("chunk LitT: implausible size");
            inflated.resize(raw_size);
            uLongf out_len = raw_size;
            if (uncompress(inflated.data(), &out_len, rest.data(), rest.size()) != Z_OK || out_len != raw_size)
                return fail("chunk LitT: corrupt compressed data");
            table = inflated;
        }
        Reader t(table);
        std::uint32_t n = t.u32();
        if (!t.ok() || n > table.size() / 4) return fail("chunk LitT: bad count");
        for (std::uint32_t i = 0; i < n; ++i) {
            std::uint32_t size = t.u32();
            auto bytes = t.bytes(size);
            if (!t.ok()) return fail("chunk LitT: truncated");
            auto lit = decode_literal(bytes, m_exports, &m_mod.literal_off_heap);
            if (!lit) return fail("chunk LitT: literal " + std::to_string(i) + ": " + lit.error());
            m_literals.push_back(*lit);
        }
        return true;
    }

    bool parse_funs() {
        if (!m_chunks.funs) return true;
        Reader r(*m_chunks.funs);
        std::uint32_t n = r.u32();
        if (!r.ok() || n > m_chunks.funs->size() / 24) return fail("chunk FunT: bad count");
        for (std::uint32_t i = 0; i < n; ++i) {
            FunTableEntry e{};
            std::uint32_t f = r.u32();
            e.arity = r.u32();
            e.label = r.u32();
            e.index = r.u32();
            e.num_free = r.u32();
            e.old_uniq = r.u32();
            if (!r.ok()) return fail("chunk FunT: truncated");
            if (!atom_at(f, &e.function, "FunT")) return false;
            if (e.num_free > e.arity || e.arity > 255) return fail("chunk FunT: bad arity");
            m_mod.funs.push_back(e);
        }
        return true;
    }

    bool parse_lines() {
        m_mod.line_items.push_back({0, 0});  // index 0: no location
        if (!m_chunks.lines) {
            m_mod.files.push_back(atom_text(m_mod.name) + ".erl");
            return true;
        }
        Reader r(*m_chunks.lines);
        std::uint32_t version = r.u32();
        r.u32();  // flags
        r.u32();  // number of line instructions
        std::uint32_t items = r.u32();
        std::uint32_t fnames = r.u32();
        if (!r.ok() || version != 0 || items > m_chunks.lines->size()) return fail("chunk Line: bad header");
        // File index 0 is the module's own source; the Line chunk's names are 1-based.
        m_mod.files.push_back(atom_text(m_mod.name) + ".erl");
        Word file_index = 0;
        while (m_mod.line_items.size() <= items) {
            CompactValue v;
            if (!read_compact(r, v, "Line")) return false;
            if (v.tag == TAG_A) file_index = v.value;
            else if (v.tag == TAG_I) m_mod.line_items.push_back({v.value, file_index});
            else return fail("chunk Line: bad item");
        }
        for (std::uint32_t i = 0; i < fnames; ++i) {
            std::uint32_t len = r.u16();
            auto bytes = r.bytes(len);
            if (!r.ok()) return fail("chunk Line: truncated file names");
            m_mod.files.emplace_back(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        }
        for (auto& item : m_mod.line_items)
            if (item.file_index >= m_mod.files.size()) return fail("chunk Line: file index out of range");
        for (const std::string& file : m_mod.files) m_mod.file_names.push_back(file_name_literal(file));
        return true;
    }

    bool parse_strings() {
        if (m_chunks.strings) m_mod.strings.assign(m_chunks.strings->begin(), m_chunks.strings->end());
        return true;
    }

    bool parse_attributes() {
        auto decode = [&](std::optional<std::span<const std::uint8_t>> chunk, const char* name, Term* out) {
            if (!chunk) return true;
            auto t = decode_literal(*chunk, m_exports);
            if (!t) return fail(std::string("chunk ") + name + ": " + t.error());
            *out = *t;
            return true;
        };
        return decode(m_chunks.attributes, "Attr", &m_mod.attributes) &&
               decode(m_chunks.compile_info, "CInf", &m_mod.compile_info);
    }

    // ---- compact term decoding ----

    bool read_compact(Reader& r, CompactValue& v, const char* chunk) {
        std::uint8_t b = r.u8();
        if (!r.ok()) return fail(std::string("chunk ") + chunk + ": truncated operand");
        v.tag = b & 7;
        v.is_big = false;
        if (v.tag == TAG_Z) {
            v.value = b >> 4;
            return true;
        }
        if ((b & 0x08) == 0) {
            v.value = b >> 4;
            return true;
        }
        if ((b & 0x10) == 0) {
            std::uint8_t next = r.u8();
            if (!r.ok()) return fail(std::string("chunk ") + chunk + ": truncated operand");
            v.value = (Word(b & 0xE0) << 3) | next;
            return true;
        }
        std::size_t n = (b >> 5) + 2;
        if (n == 9) {
            CompactValue len;
            if (!read_compact(r, len, chunk) || len.tag != TAG_U || len.value > 1024)
                return fail(std::string("chunk ") + chunk + ": bad operand length");
            n = len.value + 9;
        }
        auto bytes = r.bytes(n);
        if (!r.ok()) return fail(std::string("chunk ") + chunk + ": truncated operand");
        if (n > 8) {
            // Wider than a word: drop redundant sign bytes, else keep it as a bignum.
            std::size_t skip = 0;
            bool negative = bytes[0] & 0x80;
            while (n - skip > 8 && bytes[skip] == (negative ? 0xFF : 0x00) &&
                   ((bytes[skip + 1] & 0x80) != 0) == negative)
                ++skip;
            if (n - skip > 8) {
                v.is_big = true;
                v.big_bytes.assign(bytes.begin(), bytes.end());
                return true;
            }
            bytes = bytes.subspan(skip);
            n -= skip;
        }
        Word value = (v.tag == TAG_I && (bytes[0] & 0x80)) ? ~Word(0) : 0;
        for (std::size_t i = 0; i < n; ++i) value = (value << 8) | bytes[i];
        v.value = value;
        return true;
    }

    Term make_big_literal(const std::vector<std::uint8_t>& bytes) {
        mpz_t z;
        mpz_init(z);
        mpz_import(z, bytes.size(), 1, 1, 1, 0, bytes.data());
        if (bytes[0] & 0x80) {  // two's complement negative
            mpz_t m;
            mpz_init(m);
            mpz_ui_pow_ui(m, 2, 8 * bytes.size());
            mpz_sub(z, z, m);
            mpz_clear(m);
        }
        std::size_t limbs = mpz_size(z);
        Term* hp = literal_alloc(1 + limbs);
        hp[0] = make_header(limbs, mpz_sgn(z) < 0 ? Subtag::NegBig : Subtag::PosBig);
        for (std::size_t i = 0; i < limbs; ++i) hp[1 + i] = mpz_getlimbn(z, i);
        mpz_clear(z);
        return make_boxed(hp);
    }

    // Decodes one operand into m_mod.operands (lists append their elements too).
    bool read_operand(Reader& r, int depth = 0) {
        CompactValue v;
        if (!read_compact(r, v, "Code")) return false;
        auto push = [&](OperandKind k, Word value) {
            m_mod.operands.push_back({k, value});
            return true;
        };
        switch (v.tag) {
        case TAG_U: return push(OperandKind::Unsigned, v.value);
        case TAG_I:
            if (v.is_big) return push(OperandKind::Literal, make_big_literal(v.big_bytes));
            if (!fits_small(SWord(v.value))) {
                std::vector<std::uint8_t> bytes(8);
                for (int i = 0; i < 8; ++i) bytes[i] = std::uint8_t(v.value >> (56 - 8 * i));
                return push(OperandKind::Literal, make_big_literal(bytes));
            }
            return push(OperandKind::Literal, make_small(SWord(v.value)));
        case TAG_A:
            if (v.value == 0) return push(OperandKind::Literal, NIL);
            if (v.value >= m_atoms.size()) return fail("atom index out of range");
            return push(OperandKind::Literal, m_atoms[v.value]);
        case TAG_X:
            if (v.value >= MAX_X_REGS) return fail("x register out of range");
            return push(OperandKind::X, v.value);
        case TAG_Y:
            if (v.value >= 65536) return fail("y register out of range");
            return push(OperandKind::Y, v.value);
        case TAG_F:
            if (v.value >= m_label_count) return fail("label out of range");
            return push(OperandKind::Label, v.value);
        case TAG_H: return push(OperandKind::Literal, make_small(SWord(v.value)));
        case TAG_Z: break;
        }
        switch (v.value) {
        case 1: {  // extended list
            CompactValue n;
            if (!read_compact(r, n, "Code") || n.tag != TAG_U || n.value > 1u << 20) return fail("bad list operand");
            if (depth > 0) return fail("nested list operand");
            push(OperandKind::List, n.value);
            for (Word i = 0; i < n.value; ++i)
                if (!read_operand(r, depth + 1)) return false;
            return true;
        }
        case 2: {  // float register
            CompactValue n;
            if (!read_compact(r, n, "Code") || n.tag != TAG_U || n.value >= MAX_FLOAT_REGS) return fail("bad float register");
            return push(OperandKind::FloatReg, n.value);
        }
        case 3: {  // allocation list: (kind, amount) pairs summed to heap words
            CompactValue n;
            if (!read_compact(r, n, "Code") || n.tag != TAG_U || n.value > 16) return fail("bad allocation list");
            Word words = 0;
            for (Word i = 0; i < n.value; ++i) {
                CompactValue kind, amount;
                if (!read_compact(r, kind, "Code") || !read_compact(r, amount, "Code")) return false;
                if (kind.value == 0) words += amount.value;
                else if (kind.value == 1) words += amount.value * FLOAT_WORDS;
                else if (kind.value == 2) words += amount.value * 4;  // funs: header, entry, pid + slack
                else return fail("bad allocation list kind");
            }
            return push(OperandKind::Alloc, words);
        }
        case 4: {  // literal
            CompactValue n;
            if (!read_compact(r, n, "Code") || n.tag != TAG_U || n.value >= m_literals.size()) return fail("literal index out of range");
            return push(OperandKind::Literal, m_literals[n.value]);
        }
        case 5: {  // typed register: the register, then a type index (ignored)
            CompactValue reg, type;
            if (!read_compact(r, reg, "Code") || !read_compact(r, type, "Code")) return false;
            if (reg.tag == TAG_X && reg.value < MAX_X_REGS) return push(OperandKind::X, reg.value);
            if (reg.tag == TAG_Y && reg.value < 65536) return push(OperandKind::Y, reg.value);
            return fail("bad typed register");
        }
        default:
            return fail("bad extended operand tag");
        }
    }

    std::string where() const {
        if (m_current_function.empty()) return "";
        return "function " + m_current_function + ": ";
    }

    bool parse_code() {
        Reader r(*m_chunks.code);
        std::uint32_t header_size = r.u32();
        std::uint32_t format = r.u32();
        std::uint32_t max_opcode = r.u32();
        m_label_count = r.u32();
        m_mod.function_count = r.u32();
        if (!r.ok() || header_size < 16 || 4 + std::size_t(header_size) > m_chunks.code->size())
            return fail("chunk Code: bad header");
        // Every label costs at least two bytes of code; a larger count is corrupt, not just big.
        if (m_label_count > m_chunks.code->size()) return fail("chunk Code: bad label count");
        if (format != 0) return fail("chunk Code: unknown instruction set " + std::to_string(format));
        m_mod.label_count = m_label_count;
        // An instruction takes a byte and each operand at least one: room for all at once (the
        // vectors' growth was a tenth of loading a module).
        m_mod.operands.reserve(m_chunks.code->size());
        m_mod.instrs.reserve(m_chunks.code->size() / 3);
        Reader code(m_chunks.code->subspan(4 + header_size));
        // An opcode beyond OTP 25's is named where it is used (below); a module whose header
        // claims one it never uses is refused as erl refuses it.
        bool ended = false;
        while (!code.at_end()) {
            std::uint8_t number = code.u8();
            if (number == MAKE_FUN2_OPCODE) {
                if (!flush_construction() || !read_make_fun2(code)) return false;
                continue;
            }
            if (OldConstruction c = old_construction(number); c != OldConstruction::None) {
                if (!read_old_construction(code, c)) return false;
                continue;
            }
            if (!flush_construction()) return false;
            if (number == 0 || number > MAX_BEAM_OPCODE || BEAM_NUMBER_TO_OP[number] == Op::Count)
                return fail("module " + atom_text(m_mod.name) + ": " + where() + "unsupported opcode " +
                            std::to_string(number) + " (" + opcode_name(number) + ")");
            Op op = BEAM_NUMBER_TO_OP[number];
            const OpInfo& info = op_info(op);
            if (op == Op::nif_start) continue;  // any function may become a NIF
            if (op == Op::on_load) {
                // It opens the body of the on_load function: the last func_info names it.
                auto f = std::find_if(m_mod.instrs.rbegin(), m_mod.instrs.rend(),
                                      [](const GenericInstr& g) { return g.op == Op::func_info; });
                if (f == m_mod.instrs.rend()) return fail("chunk Code: " + where() + "on_load outside a function");
                m_mod.on_load_function = m_mod.operand(*f, 1).value;
                continue;
            }
            GenericInstr in{op, std::uint32_t(m_mod.operands.size()), 0};
            for (std::size_t i = 0; i < info.arity(); ++i)
                if (!read_operand(code)) return fail("chunk Code: " + where() + std::string(info.name) + ": " + m_error);
            in.operand_count = std::uint32_t(m_mod.operands.size() - in.first_operand);
            if (!check_instr(in)) return false;
            in.op = rewritten(in);
            m_mod.instrs.push_back(in);
            if (op == Op::int_code_end) {
                ended = true;
                break;
            }
        }
        if (!ended) return fail("chunk Code: truncated (no int_code_end)");
        if (max_opcode > MAX_BEAM_OPCODE)
            return fail("module " + atom_text(m_mod.name) + ": compiled for a later version of the runtime system (opcodes up to " +
                        std::to_string(max_opcode) + "; OTP 25 has " + std::to_string(MAX_BEAM_OPCODE) + "): recompile it with OTP 25's compiler");
        return true;
    }

    // ---- binary construction before OTP 25 (bs_init2, bs_put_integer, bs_append, ...) -----
    //
    // OTP 25's compiler builds a binary with one bs_create_bin; OTP 22-24's (and OTP 25's
    // no_bs_create_bin option, which Debian's Elixir and rebar3 beams were built with) open one
    // with bs_init2, bs_init_bits, bs_append or bs_private_append and fill it with the bs_put_*
    // instructions that follow. Loaded as the bs_create_bin they amount to, as OTP's loader
    // does: the segments gathered until the first other instruction. The opening instruction's
    // size is what the segments add up to (bs_create_bin works it out itself), so the size
    // instructions that only feed it stay as they are, and bs_utf8_size / bs_utf16_size, which
    // only ever feed it, write a stand-in size.
    enum class OldConstruction {
        None, Init2, InitBits, Append, PrivateAppend, PutInteger, PutBinary, PutFloat, PutString,
        PutUtf8, PutUtf16, PutUtf32, Utf8Size, Utf16Size,
    };

    static OldConstruction old_construction(std::uint8_t number) {
        switch (number) {
        case 89: return OldConstruction::PutInteger;
        case 90: return OldConstruction::PutBinary;
        case 91: return OldConstruction::PutFloat;
        case 92: return OldConstruction::PutString;
        case 109: return OldConstruction::Init2;
        case 134: return OldConstruction::Append;
        case 135: return OldConstruction::PrivateAppend;
        case 137: return OldConstruction::InitBits;
        case 144: return OldConstruction::Utf8Size;
        case 145: return OldConstruction::PutUtf8;
        case 146: return OldConstruction::Utf16Size;
        case 147: return OldConstruction::PutUtf16;
        case 148: return OldConstruction::PutUtf32;
        default: return OldConstruction::None;
        }
    }

    struct PendingConstruction {
        Operand fail, alloc, live, unit, dst;
        std::vector<Operand> segments;  // six operands each, as bs_create_bin's list
    };

    bool read_old_construction(Reader& code, OldConstruction c) {
        static constexpr std::uint8_t arity[] = {0, 6, 6, 8, 6, 5, 5, 5, 2, 3, 3, 3, 3, 3};
        std::size_t first = m_mod.operands.size();
        for (int i = 0; i < arity[int(c)]; ++i)
            if (!read_operand(code)) return fail("chunk Code: " + where() + "binary construction: " + m_error);
        std::vector<Operand> o(m_mod.operands.begin() + std::ptrdiff_t(first), m_mod.operands.end());
        m_mod.operands.resize(first);
        auto bad = [&](const char* what) { return fail("chunk Code: " + where() + what); };
        for (const Operand& op : o)
            if (op.kind == OperandKind::List) return bad("binary construction: bad operand");
        auto segment = [&](Term type, Operand unit, Operand flags, Operand value, Operand size) {
            if (!m_pending_bin) return bad("binary construction: a bs_put outside a construction");
            if (flags.kind != OperandKind::Unsigned || unit.kind != OperandKind::Unsigned || !is_source(value))
                return bad("binary construction: bad segment");
            auto& seg = m_pending_bin->segments;
            Word index = seg.size() / 6 + 1;
            for (Operand e : {Operand{OperandKind::Literal, type}, Operand{OperandKind::Unsigned, index}, unit, flags, value, size})
                seg.push_back(e);
            return true;
        };
        auto open = [&](Operand fail_label, Operand alloc, Operand live, Word unit, Operand dst) {
            if (!flush_construction()) return false;
            if (live.kind != OperandKind::Unsigned || (dst.kind != OperandKind::X && dst.kind != OperandKind::Y))
                return bad("binary construction: bad operand");
            Operand words = alloc.kind == OperandKind::Alloc ? alloc : Operand{OperandKind::Unsigned, alloc.value};
            m_pending_bin = PendingConstruction{fail_label, words, live, {OperandKind::Unsigned, unit}, dst, {}};
            return true;
        };
        static const Term am_all = atom("all"), am_undefined = atoms::undefined;
        const Operand all{OperandKind::Literal, am_all}, no_size{OperandKind::Literal, am_undefined};
        const Operand no_unit{OperandKind::Unsigned, 0}, no_flags{OperandKind::Unsigned, 0};
        switch (c) {
        case OldConstruction::Init2:  // Fail Size Words Live Flags Dst
        case OldConstruction::InitBits:
            return open(o[0], o[2], o[3], 1, o[5]);
        case OldConstruction::Append:  // Fail Size Extra Live Unit Bin Flags Dst
            if (o[4].kind != OperandKind::Unsigned) return bad("bs_append: bad unit");
            return open(o[0], o[2], o[3], o[4].value, o[7]) && segment(atoms::append, o[4], no_flags, o[5], all);
        case OldConstruction::PrivateAppend: {  // Fail Size Unit Bin Flags Dst
            // It has no live count: it never collects, the test_heap before it makes room. Its
            // bs_create_bin may collect, and takes the live count of that test_heap.
            if (o[2].kind != OperandKind::Unsigned) return bad("bs_private_append: bad unit");
            // (A line instruction may come between them.)
            Operand live{OperandKind::Unsigned, MAX_X_REGS};
            auto before = std::find_if(m_mod.instrs.rbegin(), m_mod.instrs.rend(), [](const GenericInstr& in) { return in.op != Op::line; });
            if (before != m_mod.instrs.rend() && before->op == Op::test_heap) live = m_mod.operand(*before, 1);
            if (live.kind != OperandKind::Unsigned || live.value >= MAX_X_REGS)
                return bad("bs_private_append: no test_heap before it");
            return open(o[0], {OperandKind::Unsigned, 0}, live, o[2].value, o[5]) &&
                   segment(atom("private_append"), o[2], no_flags, o[3], all);
        }
        case OldConstruction::PutInteger:  // Fail Size Unit Flags Src
            return segment(atoms::integer, o[2], o[3], o[4], o[1]);
        case OldConstruction::PutBinary:
            return segment(atoms::binary, o[2], o[3], o[4], o[1]);
        case OldConstruction::PutFloat:
            return segment(atoms::float_, o[2], o[3], o[4], o[1]);
        case OldConstruction::PutString:  // Length StrOffset
            if (o[0].kind != OperandKind::Unsigned || o[1].kind != OperandKind::Unsigned || !string_fits(o[1].value, o[0].value, 8))
                return bad("bs_put_string: string outside StrT");
            if (!m_pending_bin) return bad("binary construction: a bs_put outside a construction");
            for (Operand e : {Operand{OperandKind::Literal, atoms::string}, Operand{OperandKind::Unsigned, m_pending_bin->segments.size() / 6 + 1},
                              Operand{OperandKind::Unsigned, 8}, no_flags, o[1], Operand{OperandKind::Literal, make_small(SWord(o[0].value))}})
                m_pending_bin->segments.push_back(e);
            return true;
        case OldConstruction::PutUtf8:  // Fail Flags Src
            return segment(atom("utf8"), no_unit, o[1], o[2], no_size);
        case OldConstruction::PutUtf16:
            return segment(atom("utf16"), no_unit, o[1], o[2], no_size);
        case OldConstruction::PutUtf32:
            return segment(atom("utf32"), no_unit, o[1], o[2], no_size);
        case OldConstruction::Utf8Size:  // Fail Src Dst: the size of the construction to come
        case OldConstruction::Utf16Size: {
            if (!flush_construction()) return false;
            if (o[2].kind != OperandKind::X && o[2].kind != OperandKind::Y) return bad("bs_utf8_size: bad destination");
            GenericInstr in{Op::move, std::uint32_t(m_mod.operands.size()), 2};
            m_mod.operands.push_back({OperandKind::Literal, make_small(4)});
            m_mod.operands.push_back(o[2]);
            if (!check_instr(in)) return false;
            m_mod.instrs.push_back(in);
            return true;
        }
        case OldConstruction::None: break;
        }
        return bad("binary construction: unknown instruction");
    }

    // Emits the construction gathered so far as one bs_create_bin.
    bool flush_construction() {
        if (!m_pending_bin) return true;
        PendingConstruction c = std::move(*m_pending_bin);
        m_pending_bin.reset();
        GenericInstr in{Op::bs_create_bin, std::uint32_t(m_mod.operands.size()), 0};
        for (Operand e : {c.fail, c.alloc, c.live, c.unit, c.dst}) m_mod.operands.push_back(e);
        m_mod.operands.push_back({OperandKind::List, c.segments.size()});
        m_mod.operands.insert(m_mod.operands.end(), c.segments.begin(), c.segments.end());
        in.operand_count = std::uint32_t(m_mod.operands.size() - in.first_operand);
        if (!check_instr(in)) return false;
        m_mod.instrs.push_back(in);
        return true;
    }

    // make_fun2 OldIndex (before OTP 24; erlc's r22/r23 options still emit it, and OTP 25
    // loads it): the fun's free variables are in x0.., the fun goes to x0. Loaded as the
    // make_fun3 it means, as OTP's loader transforms it.
    static constexpr std::uint8_t MAKE_FUN2_OPCODE = 103;
    bool read_make_fun2(Reader& code) {
        GenericInstr in{Op::make_fun3, std::uint32_t(m_mod.operands.size()), 0};
        if (!read_operand(code)) return fail("chunk Code: " + where() + "make_fun2: " + m_error);
        const Operand index = m_mod.operands.back();
        if (index.kind != OperandKind::Unsigned || index.value >= m_mod.funs.size())
            return fail("chunk Code: " + where() + "make_fun2: bad fun index");
        Word free = m_mod.funs[index.value].num_free;
        m_mod.operands.push_back({OperandKind::X, 0});
        m_mod.operands.push_back({OperandKind::List, free});
        for (Word i = 0; i < free; ++i) m_mod.operands.push_back({OperandKind::X, i});
        in.operand_count = std::uint32_t(m_mod.operands.size() - in.first_operand);
        if (!check_instr(in)) return false;
        m_mod.instrs.push_back(in);
        return true;
    }

    // The instruction both engines run for [in]: the BEAMLET_BIF_REWRITE rules of
    // vm/instructions.def (gc_bif2 on erlang:'+'/2 becomes i_plus, same operands, which has
    // integer fast paths in the interpreter and an emitter in the JIT); otherwise itself.
    Op rewritten(const GenericInstr& in) const {
        for (const BifRewrite& rule : BIF_REWRITES) {
            if (rule.generic != in.op) continue;
            std::size_t bif_at = op_info(in.op).signature.find('b');
            const ImportEntry& imp = m_mod.imports[m_mod.operands[in.first_operand + bif_at].value];
            if (imp.arity == rule.arity && atom_text(imp.module) == rule.module && atom_text(imp.function) == rule.function)
                return rule.specific;
        }
        return in.op;
    }

    // Checks operand kinds against the signature and tracks the current function for messages.
    bool check_instr(const GenericInstr& in) {
        const OpInfo& info = op_info(in.op);
        // Label 0 means "no fail label: raise instead", which only ops that may throw can do; a
        // call or test would jump to address 0.
        bool label_zero_allowed = (info.flags & MayThrow) && !(info.flags & Call);
        std::uint32_t k = 0;
        for (char letter : info.signature) {
            if (k >= in.operand_count) return fail("chunk Code: " + where() + "operand count mismatch");
            const Operand& o = m_mod.operands[in.first_operand + k];
            bool good = true;
            switch (letter) {
            case 'd': good = o.kind == OperandKind::X || o.kind == OperandKind::Y; break;
            case 's': good = o.kind == OperandKind::X || o.kind == OperandKind::Y || o.kind == OperandKind::Literal; break;
            case 'f': good = o.kind == OperandKind::Label && (o.value != 0 || label_zero_allowed); break;
            case 'u': good = o.kind == OperandKind::Unsigned; break;
            case 'a': good = o.kind == OperandKind::Literal && (is_atom(o.value) || o.value == NIL); break;
            case 'e':
            case 'b': good = o.kind == OperandKind::Unsigned && o.value < m_mod.imports.size(); break;
            case 'F': good = o.kind == OperandKind::Unsigned && o.value < m_mod.funs.size(); break;
            case 'q': good = o.kind == OperandKind::FloatReg; break;
            case 'L': good = o.kind == OperandKind::List; break;
            case 'A': good = o.kind == OperandKind::Alloc || o.kind == OperandKind::Unsigned; break;
            case 'r': good = o.kind == OperandKind::Label || (o.kind == OperandKind::Literal && is_atom(o.value)); break;
            case 'S': good = o.kind != OperandKind::Label && o.kind != OperandKind::List; break;
            case 'D': good = o.kind == OperandKind::X || o.kind == OperandKind::Y || o.kind == OperandKind::FloatReg; break;
            }
            if (!good) return fail("chunk Code: " + where() + std::string(info.name) + ": bad operand " + std::to_string(k + 1));
            k += o.kind == OperandKind::List ? 1 + std::uint32_t(o.value) : 1;
        }
        if (in.op == Op::func_info) {
            const Operand& f = m_mod.operands[in.first_operand + 1];
            const Operand& a = m_mod.operands[in.first_operand + 2];
            if (!is_atom(m_mod.operands[in.first_operand].value) || !is_atom(f.value))
                return fail("chunk Code: " + where() + "func_info: bad function name");
            m_current_function = atom_text(f.value) + "/" + std::to_string(a.value);
        }
        if (in.op == Op::line && m_mod.operands[in.first_operand].value >= m_mod.line_items.size())
            return fail("chunk Code: " + where() + "line index out of range");
        if (!check_list_elements(in)) return false;
        if (in.op == Op::bs_match_string) {
            const Operand* o = &m_mod.operands[in.first_operand];
            if (!string_fits(o[3].value, o[2].value, 1)) return fail("chunk Code: " + where() + "bs_match_string: string outside StrT");
        }
        if (in.op == Op::bs_create_bin) {
            // The list holds segments of six: type, segment, unit, flags, value, size; a string
            // segment's value is a StrT offset and its size a literal integer.
            const Operand* list = &m_mod.operands[in.first_operand + 5];
            for (Word i = 0; i < list->value; i += 6) {
                const Operand* seg = list + 1 + i;
                if (seg[0].value != atoms::string) {
                    if (!is_source(seg[4])) return fail("chunk Code: " + where() + "bs_create_bin: bad segment value");
                    continue;
                }
                if (seg[4].kind != OperandKind::Unsigned || seg[5].kind != OperandKind::Literal ||
                    !is_small(seg[5].value) || small_value(seg[5].value) < 0 ||
                    !string_fits(seg[4].value, Word(small_value(seg[5].value)), seg[2].value))
                    return fail("chunk Code: " + where() + "bs_create_bin: string outside StrT");
            }
        }
        return true;
    }

    static bool is_source(const Operand& o) {
        return o.kind == OperandKind::X || o.kind == OperandKind::Y || o.kind == OperandKind::Literal;
    }

    // The interpreter reads list elements as registers, constants and code addresses without
    // looking at their kinds, so a wrong kind would become a wild read, write or jump.
    bool check_list_elements(const GenericInstr& in) {
        std::string_view pattern = list_pattern(in.op);
        const OpInfo& info = op_info(in.op);
        std::size_t list_at = info.signature.find('L');
        if (pattern.empty() || list_at == std::string_view::npos) return true;
        const Operand* list = &m_mod.operands[in.first_operand + list_at];
        if (list->value % pattern.size() != 0) return fail("chunk Code: " + where() + std::string(info.name) + ": bad list length");
        for (Word i = 0; i < list->value; ++i) {
            const Operand& o = list[1 + i];
            bool good = true;
            switch (pattern[i % pattern.size()]) {
            case 'c': good = o.kind == OperandKind::Literal || o.kind == OperandKind::Unsigned; break;
            case 'f': good = o.kind == OperandKind::Label && o.value != 0; break;
            case 's': good = is_source(o); break;
            case 'd': good = o.kind == OperandKind::X || o.kind == OperandKind::Y; break;
            case 'y': good = o.kind == OperandKind::Y; break;
            case 'a': good = o.kind == OperandKind::Literal && is_atom(o.value); break;
            case 'u': good = o.kind == OperandKind::Unsigned; break;
            }
            if (!good) return fail("chunk Code: " + where() + std::string(info.name) + ": bad list element " + std::to_string(i + 1));
        }
        return true;
    }

    // Whether [size] units of [unit] bits from StrT offset [offset] lie inside StrT.
    bool string_fits(Word offset, Word size, Word unit) const {
        if (offset > m_mod.strings.size()) return false;
        Word available_bits = (m_mod.strings.size() - offset) * 8;
        return unit == 0 || size <= available_bits / unit;
    }

    // A BIF reached by a tail call (call_ext_last, call_ext_only) is called as OTP's loader
    // calls it: from a frame of the caller (`allocate 0` where the caller has none), so the
    // caller is in a failing BIF's stack trace and is what a traced BIF returns to. apply/2,3
    // and hibernate/3 stay tail calls, as in OTP's ops.tab.
    void bif_tail_calls_with_frames() {
        auto stays_tail = [&](const ImportEntry& imp) {
            if (imp.module != atoms::erlang) return false;
            const std::string& f = atom_text(imp.function);
            return (f == "apply" && (imp.arity == 2 || imp.arity == 3)) || (f == "hibernate" && imp.arity == 3);
        };
        auto is_bif_call = [&](const GenericInstr& in) {
            if (in.op != Op::call_ext_last && in.op != Op::call_ext_only) return false;
            Word import = m_mod.operand(in, 1).value;
            if (import >= m_mod.imports.size()) return false;
            const ImportEntry& imp = m_mod.imports[import];
            const Export* e = m_exports.find(imp.module, imp.function, imp.arity);
            return e && e->is_bif() && !e->erlang_in_otp.load(std::memory_order_relaxed) && !stays_tail(imp);
        };
        if (std::none_of(m_mod.instrs.begin(), m_mod.instrs.end(), is_bif_call)) return;
        auto unsigned_operand = [&](Word value) {
            m_mod.operands.push_back(Operand{OperandKind::Unsigned, value});
            return std::uint32_t(m_mod.operands.size() - 1);
        };
        std::vector<GenericInstr> out;
        out.reserve(m_mod.instrs.size() + 16);
        for (const GenericInstr& in : m_mod.instrs) {
            if (!is_bif_call(in)) {
                out.push_back(in);
                continue;
            }
            Word arity = m_mod.operand(in, 0).value;
            Word frame = 0;
            if (in.op == Op::call_ext_last) {
                frame = m_mod.operand(in, 2).value;
            } else {
                std::uint32_t need = unsigned_operand(0);
                unsigned_operand(arity);
                out.push_back(GenericInstr{Op::allocate, need, 2});
            }
            out.push_back(GenericInstr{Op::call_ext, in.first_operand, 2});
            out.push_back(GenericInstr{Op::deallocate, unsigned_operand(frame), 1});
            out.push_back(GenericInstr{Op::return_, 0, 0});
        }
        m_mod.instrs = std::move(out);
    }

    // Native BIFs that this module writes in Erlang (more than a nif_error stub).
    void mark_bifs_in_erlang() {
        for (const GenericInstr& in : m_mod.instrs) {
            if (in.op != Op::func_info) continue;
            Export* e = m_exports.find(m_mod.operand(in, 0).value, m_mod.operand(in, 1).value, m_mod.operand(in, 2).value);
            if (e && e->is_bif() && !is_nif_error_stub(&in + 1)) e->erlang_in_otp.store(true, std::memory_order_relaxed);
        }
    }

    // Whether the function body starting at [in] is OTP's BIF placeholder,
    // `erlang:nif_error(...)` (after its label and line), up to the next function.
    bool is_nif_error_stub(const GenericInstr* in) const {
        const GenericInstr* end = m_mod.instrs.data() + m_mod.instrs.size();
        for (; in != end && in->op != Op::func_info && in->op != Op::int_code_end; ++in) {
            if (in->op == Op::label || in->op == Op::line || in->op == Op::move) continue;
            if (in->op != Op::call_ext && in->op != Op::call_ext_last && in->op != Op::call_ext_only) return false;
            Word import = m_mod.operand(*in, 1).value;
            if (import >= m_mod.imports.size()) return false;
            const ImportEntry& imp = m_mod.imports[import];
            return imp.module == atoms::erlang && atom_text(imp.function) == "nif_error";
        }
        return false;
    }

    // A function whose {M, F, A} is a native BIF (lists:reverse/2 in OTP's lists.beam, whose
    // Erlang body is only `erlang:nif_error(undef)`) gets `call_ext_only` to itself as its
    // first instruction: local calls then reach the BIF through its export, as remote ones do.
    // The old body stays behind it, unreachable.
    void redirect_bif_bodies() {
        Term function = 0;
        Word arity = 0;
        bool at_entry = false;
        for (GenericInstr& in : m_mod.instrs) {
            if (in.op == Op::func_info) {
                const Export* e = m_exports.find(m_mod.operand(in, 0).value, m_mod.operand(in, 1).value,
                                                 m_mod.operand(in, 2).value);
                at_entry = e && e->is_bif();
                function = m_mod.operand(in, 1).value;
                arity = m_mod.operand(in, 2).value;
                continue;
            }
            if (!at_entry || in.op == Op::label || in.op == Op::line) continue;
            at_entry = false;
            Word import = m_mod.imports.size();
            m_mod.imports.push_back(ImportEntry{m_mod.name, function, arity});
            in.op = Op::call_ext_only;
            in.first_operand = std::uint32_t(m_mod.operands.size());
            in.operand_count = 2;
            m_mod.operands.push_back(Operand{OperandKind::Unsigned, arity});
            m_mod.operands.push_back(Operand{OperandKind::Unsigned, import});
        }
    }

    // Export, local and fun entries must name labels the Code chunk declares.
    bool check_entry_labels() {
        for (const ExportEntry& e : m_mod.exports)
            if (e.label >= m_label_count) return fail("chunk ExpT: label out of range");
        for (const ExportEntry& e : m_mod.locals)
            if (e.label >= m_label_count) return fail("chunk LocT: label out of range");
        for (const FunTableEntry& e : m_mod.funs)
            if (e.label >= m_label_count) return fail("chunk FunT: label out of range");
        return true;
    }

    std::span<const std::uint8_t> m_file;
    std::string m_path;
    ExportTable& m_exports;
    Chunks m_chunks;
    GenericModule m_mod;
    std::vector<Term> m_atoms;
    std::vector<Term> m_literals;
    Word m_label_count = 0;
    std::string m_current_function;
    std::string m_error;
    std::optional<PendingConstruction> m_pending_bin;
};

std::optional<std::vector<std::uint8_t>> gunzip(std::span<const std::uint8_t> in) {
    z_stream zs{};
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) return std::nullopt;
    std::vector<std::uint8_t> out(in.size() * 4 + 1024);
    zs.next_in = const_cast<Bytef*>(in.data());
    zs.avail_in = uInt(in.size());
    int rc;
    do {
        if (zs.total_out == out.size()) out.resize(out.size() * 2);
        zs.next_out = out.data() + zs.total_out;
        zs.avail_out = uInt(out.size() - zs.total_out);
        rc = inflate(&zs, Z_NO_FLUSH);
    } while (rc == Z_OK && out.size() < (std::size_t(1) << 30));
    out.resize(zs.total_out);
    inflateEnd(&zs);
    if (rc != Z_STREAM_END) return std::nullopt;
    return out;
}

}  // namespace

Result<GenericModule> load_beam(std::span<const std::uint8_t> bytes, const std::string& path, ExportTable& exports) {
    std::optional<std::vector<std::uint8_t>> inflated;
    if (bytes.size() >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B) {
        inflated = gunzip(bytes);
        if (!inflated) return Error{path + ": corrupt gzip-compressed BEAM file"};
    }
    LiteralMark literals = literal_mark();
    Result<GenericModule> module = ModuleLoader(inflated ? *inflated : bytes, path, exports).run();
    if (!module) literal_rollback(literals);  // a module that failed to load holds none
    if (module) {
        // Its literals: what the arena gave out meanwhile (other loads' too, if they ran at
        // the same time: a release then copies a few terms it could have left).
        module->literal_lo = literals.top;
        module->literal_hi = literal_mark().top;
        std::uint64_t h = 1469598103934665603ull;  // FNV-1a
        for (std::uint8_t b : bytes) h = (h ^ b) * 1099511628211ull;
        module->content_hash = h;
    }
    return module;
}

Result<GenericModule> load_beam_file(const std::string& path, ExportTable& exports) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot open file"};
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return load_beam(bytes, path, exports);
}

}  // namespace beamlet::loader
