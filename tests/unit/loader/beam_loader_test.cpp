// tests/unit/loader/beam_loader_test.cpp — load_beam on a real erlc module, and on truncated,
// corrupted and garbage input: every failure is an error naming the file, never a crash. The
// rewrite rules of vm/instructions.def reach the loaded and the threaded code.
//
// The .beam files come from tests/unit/loader/data/*.erl, compiled by erlc at build time into
// BEAMLET_UNIT_DATA_DIR. Corrupted modules that still load are checked for consistency and
// installed, but never run.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "bif/bifs.hpp"
#include "loader/beam_loader.hpp"
#include "loader/etf.hpp"
#include "vm/atom_table.hpp"
#include "vm/instructions.hpp"
#include "vm/interpreter.hpp"
#include "vm/literal_area.hpp"
#include "vm/module.hpp"
#include "vm/vm.hpp"

namespace beamlet::loader {
namespace {

using Bytes = std::vector<std::uint8_t>;

const std::string SAMPLE_BEAM = std::string(BEAMLET_UNIT_DATA_DIR) + "/loader_sample.beam";
// The name corrupted inputs are loaded under; every error message must start with it.
const std::string BAD_PATH = "/tmp/beamlet-test/bad_input.beam";

Bytes read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in) << "cannot open " << path << " (built from tests/unit/loader/data)";
    return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::uint32_t get_u32(const Bytes& b, std::size_t at) {
    return std::uint32_t(b[at]) << 24 | std::uint32_t(b[at + 1]) << 16 | std::uint32_t(b[at + 2]) << 8 | b[at + 3];
}

void put_u32(Bytes& b, std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = std::uint8_t(v >> (24 - 8 * i));
}

// Where one chunk sits in a .beam file: its 8-byte header (id, size), then its data.
struct ChunkLocation {
    std::string id;
    std::size_t header_offset;
    std::size_t data_offset;
    std::size_t size_bytes;
    std::size_t end_offset() const { return data_offset + size_bytes; }
};

// Walks the IFF container independently of the loader.
std::vector<ChunkLocation> locate_chunks(const Bytes& beam) {
    std::vector<ChunkLocation> chunks;
    std::size_t at = 12;
    while (at + 8 <= beam.size()) {
        std::uint32_t size = get_u32(beam, at + 4);
        chunks.push_back({std::string(beam.begin() + at, beam.begin() + at + 4), at, at + 8, size});
        at += 8 + (size + 3) / 4 * 4;
    }
    return chunks;
}

ChunkLocation find_chunk(const Bytes& beam, const std::string& id) {
    for (const ChunkLocation& c : locate_chunks(beam))
        if (c.id == id) return c;
    ADD_FAILURE() << "no chunk " << id;
    return {id, 0, 0, 0};
}

// The container rebuilt with chunk [id]'s data replaced by [data] (dropped if [keep] is false),
// sizes and padding fixed so that only the chunk itself is odd.
Bytes with_chunk(const Bytes& beam, const std::string& id, const Bytes& data, bool keep = true) {
    Bytes out(beam.begin(), beam.begin() + 12);
    for (const ChunkLocation& c : locate_chunks(beam)) {
        bool replaced = c.id == id;
        if (replaced && !keep) continue;
        Bytes body = replaced ? data : Bytes(beam.begin() + c.data_offset, beam.begin() + c.end_offset());
        out.insert(out.end(), c.id.begin(), c.id.end());
        out.resize(out.size() + 4);
        put_u32(out, out.size() - 4, std::uint32_t(body.size()));
        out.insert(out.end(), body.begin(), body.end());
        out.resize((out.size() + 3) / 4 * 4, 0);
    }
    put_u32(out, 4, std::uint32_t(out.size() - 8));
    return out;
}

// LitT stored uncompressed (a zero size word, as OTP 28 writes it), so that corrupting it
// exercises the external term decoder rather than zlib.
Bytes with_uncompressed_literals(const Bytes& beam) {
    ChunkLocation lit = find_chunk(beam, "LitT");
    uLongf raw_size = get_u32(beam, lit.data_offset);
    Bytes table(4 + raw_size, 0);
    const Bytef* compressed = beam.data() + lit.data_offset + 4;
    EXPECT_EQ(uncompress(table.data() + 4, &raw_size, compressed, uLong(lit.size_bytes - 4)), Z_OK);
    return with_chunk(beam, "LitT", table);
}

Bytes gzip(const Bytes& in) {
    z_stream zs{};
    EXPECT_EQ(deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
    Bytes out(deflateBound(&zs, uLong(in.size())) + 32);
    zs.next_in = const_cast<Bytef*>(in.data());
    zs.avail_in = uInt(in.size());
    zs.next_out = out.data();
    zs.avail_out = uInt(out.size());
    EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

// Reads one compact-term operand at [at] in a Code chunk (see beam_asm.erl) and returns its
// value; extended operands (lists, allocation lists, typed registers) are skipped whole.
std::uint64_t read_compact(const Bytes& code, std::size_t& at) {
    std::uint8_t b = code[at++];
    if ((b & 7) == 7) {  // extended: list, float register, allocation list, literal, typed register
        int ext = b >> 4;
        std::uint64_t n = ext == 5 ? 1 : read_compact(code, at);
        std::uint64_t following = ext == 1 ? n : ext == 3 ? 2 * n : ext == 5 ? 2 : 0;
        for (std::uint64_t i = 0; i < following; ++i) read_compact(code, at);
        return n;
    }
    if ((b & 0x08) == 0) return b >> 4;
    if ((b & 0x10) == 0) return std::uint64_t(b & 0xE0) << 3 | code[at++];
    std::size_t n = (b >> 5) + 2;
    if (n == 9) n = read_compact(code, at) + 9;
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < n; ++i) value = value << 8 | code[at++];
    return value;
}

// The file offset of the first instruction of the first function's body that is not a label
// or line, found by decoding the Code chunk.
std::size_t first_body_instruction_offset(const Bytes& beam) {
    ChunkLocation c = find_chunk(beam, "Code");
    std::size_t at = c.data_offset + 4 + get_u32(beam, c.data_offset);
    bool seen_func_info = false;
    while (at < c.end_offset()) {
        std::uint8_t number = beam[at];
        vm::Op op = vm::BEAM_NUMBER_TO_OP[number];
        if (op == vm::Op::Count) {
            ADD_FAILURE() << "erlc emitted opcode " << int(number) << ", which beamlet lacks";
            return 0;
        }
        if (seen_func_info && op != vm::Op::label && op != vm::Op::line) return at;
        if (op == vm::Op::func_info) seen_func_info = true;
        ++at;
        for (std::size_t i = 0; i < vm::op_info(op).arity(); ++i) read_compact(beam, at);
    }
    ADD_FAILURE() << "no function body in Code";
    return 0;
}

// The file offset of the first [wanted] instruction in the Code chunk, found by decoding it.
std::size_t first_instruction_offset(const Bytes& beam, vm::Op wanted) {
    ChunkLocation c = find_chunk(beam, "Code");
    std::size_t at = c.data_offset + 4 + get_u32(beam, c.data_offset);
    while (at < c.end_offset()) {
        vm::Op op = vm::BEAM_NUMBER_TO_OP[beam[at]];
        if (op == wanted) return at;
        if (op == vm::Op::Count) break;
        ++at;
        for (std::size_t i = 0; i < vm::op_info(op).arity(); ++i) read_compact(beam, at);
    }
    ADD_FAILURE() << "no " << vm::op_info(wanted).name << " in Code";
    return 0;
}

// Why a module that loaded from corrupted bytes cannot be trusted, or "" if it looks sound:
// checks what the loader promises beyond operand kinds.
std::string consistency_problem(const vm::GenericModule& code) {
    if (!vm::is_atom(code.name)) return "module name is not an atom";
    if (code.instrs.empty() || code.instrs.back().op != vm::Op::int_code_end) return "code does not end with int_code_end";
    for (const vm::LineItem& item : code.line_items)
        if (item.file_index >= code.files.size()) return "line item names a missing file";
    for (const vm::FunTableEntry& f : code.funs)
        if (f.label >= code.label_count) return "fun label out of range";
    for (const auto* table : {&code.exports, &code.locals})
        for (const vm::ExportEntry& e : *table)
            if (e.label >= code.label_count) return "export or local label out of range";
    for (const vm::GenericInstr& in : code.instrs) {
        if (in.first_operand + in.operand_count > code.operands.size()) return "operands out of range";
        if (in.op == vm::Op::bs_match_string) {
            vm::Word bits = code.operand(in, 2).value, offset = code.operand(in, 3).value;
            if (offset > code.strings.size() || (bits + 7) / 8 > code.strings.size() - offset)
                return "bs_match_string reads past StrT";
        }
        if (in.op == vm::Op::select_val || in.op == vm::Op::select_tuple_arity) {
            // (value, label) pairs: a value that is a register or a target that is not a label
            // would send the interpreter to a wild address.
            const vm::Operand& list = code.operand(in, 2);
            if (list.kind != vm::OperandKind::List || list.value % 2 != 0) return "bad jump table";
            for (std::uint32_t i = 0; i < list.value; i += 2) {
                const vm::Operand& value = code.operand(in, 3 + i);
                const vm::Operand& label = code.operand(in, 4 + i);
                if (value.kind != vm::OperandKind::Literal && value.kind != vm::OperandKind::Unsigned)
                    return "jump table value is not a constant";
                if (label.kind != vm::OperandKind::Label || label.value == 0) return "jump table target is not a label";
            }
        }
        // Registers these ops write to.
        if (in.op == vm::Op::get_map_elements || in.op == vm::Op::init_yregs) {
            bool pairs = in.op == vm::Op::get_map_elements;
            const vm::Operand& list = code.operand(in, pairs ? 2 : 0);
            if (list.kind != vm::OperandKind::List || (pairs && list.value % 2 != 0)) return "bad register list";
            for (std::uint32_t i = pairs ? 1 : 0; i < list.value; i += pairs ? 2 : 1) {
                vm::OperandKind kind = code.operand(in, (pairs ? 3 : 1) + i).kind;
                if (kind != vm::OperandKind::Y && (pairs ? kind != vm::OperandKind::X : true))
                    return "destination is not a register";
            }
        }
        if (in.op == vm::Op::bs_create_bin) {
            // Segments of six operands after the list header: type, seg, unit, flags, value, size.
            vm::Word n = code.operand(in, 5).value;
            for (vm::Word i = 0; i + 5 < n; i += 6) {
                const vm::Operand& type = code.operand(in, 6 + std::uint32_t(i));
                if (type.kind != vm::OperandKind::Literal || type.value != vm::atom("string")) continue;
                const vm::Operand& unit = code.operand(in, 6 + std::uint32_t(i) + 2);
                const vm::Operand& value = code.operand(in, 6 + std::uint32_t(i) + 4);
                const vm::Operand& size = code.operand(in, 6 + std::uint32_t(i) + 5);
                if (!vm::is_small(size.value) || vm::small_value(size.value) < 0) return "bad string segment size";
                vm::Word bytes = (vm::Word(vm::small_value(size.value)) * unit.value + 7) / 8;
                if (value.value > code.strings.size() || bytes > code.strings.size() - value.value)
                    return "bs_create_bin string segment reads past StrT";
            }
        }
    }
    return "";
}

// Loads [bytes] as BAD_PATH into a fresh Vm. Returns "" if that failed with an error naming the
// file, or succeeded with a consistent module that installs or is refused with a message;
// otherwise what went wrong.
std::string load_problem(const Bytes& bytes) {
    vm::Vm vm;
    bif::register_bifs(vm);
    auto code = load_beam(bytes, BAD_PATH, vm.exports);
    if (!code) {
        if (code.error().rfind(BAD_PATH + ": ", 0) != 0) return "error does not name the file: " + code.error();
        if (code.error().size() <= BAD_PATH.size() + 2) return "empty error message";
        return "";
    }
    std::string problem = consistency_problem(*code);
    if (!problem.empty()) return "loaded an inconsistent module: " + problem;
    if (auto installed = vm.install_module(*code); !installed && installed.error().empty())
        return "install_module failed without a message";
    return "";
}

// Collects problems over a sweep and reports the first few, so one bug does not flood the log.
class ProblemLog {
public:
    void check(const Bytes& bytes, const std::string& variant) {
        ++m_variants;
        std::string problem = load_problem(bytes);
        if (problem.empty()) return;
        if (m_problems.size() < 10) m_problems.push_back(variant + ": " + problem);
        ++m_problem_count;
    }
    void expect_none() const {
        std::string text;
        for (const std::string& p : m_problems) text += "\n  " + p;
        EXPECT_EQ(m_problem_count, 0u) << m_problem_count << " of " << m_variants << " variants:" << text;
        EXPECT_GT(m_variants, 0u);
    }

private:
    std::size_t m_variants = 0;
    std::size_t m_problem_count = 0;
    std::vector<std::string> m_problems;
};

// Every byte of [from, to) set to 0xFF, to 0x00, and each of its bits flipped in turn.
void corrupt_each_byte(const Bytes& beam, std::size_t from, std::size_t to, const std::string& label, ProblemLog& log) {
    Bytes variant = beam;
    for (std::size_t at = from; at < to; ++at) {
        std::uint8_t original = beam[at];
        std::vector<std::uint8_t> replacements = {0xFF, 0x00};
        for (int bit = 0; bit < 8; ++bit) replacements.push_back(std::uint8_t(original ^ (1u << bit)));
        for (std::uint8_t value : replacements) {
            if (value == original) continue;
            variant[at] = value;
            log.check(variant, label + " byte " + std::to_string(at) + " = " + std::to_string(value));
        }
        variant[at] = original;
    }
}

class BeamLoader : public ::testing::Test {
protected:
    void SetUp() override { bif::register_bifs(m_vm); }
    vm::Result<vm::GenericModule> load(const Bytes& bytes, const std::string& path = BAD_PATH) {
        return load_beam(bytes, path, m_vm.exports);
    }
    static bool has_entry(const std::vector<vm::ExportEntry>& table, const char* function, vm::Word arity) {
        return std::any_of(table.begin(), table.end(), [&](const vm::ExportEntry& e) {
            return e.function == vm::atom(function) && e.arity == arity;
        });
    }
    static bool has_import(const vm::GenericModule& code, const char* module, const char* function, vm::Word arity) {
        return std::any_of(code.imports.begin(), code.imports.end(), [&](const vm::ImportEntry& e) {
            return e.module == vm::atom(module) && e.function == vm::atom(function) && e.arity == arity;
        });
    }

    vm::Vm m_vm;
    const Bytes m_sample = read_bytes(SAMPLE_BEAM);
};

// The chunks whose corruption the sweeps cover; the FOR1 header is covered separately.
const std::vector<std::string> SWEPT_CHUNKS = {"AtU8", "Code", "ImpT", "ExpT", "LitT", "FunT", "StrT", "Line"};

TEST_F(BeamLoader, ValidModuleHasItsExportsImportsAtomsAndFunctions) {
    auto code = load(m_sample, SAMPLE_BEAM);
    ASSERT_TRUE(code.ok()) << code.error();
    EXPECT_EQ(code->name, vm::atom("loader_sample"));
    EXPECT_EQ(code->source_path, SAMPLE_BEAM);

    EXPECT_EQ(code->exports.size(), 6u);
    EXPECT_TRUE(has_entry(code->exports, "main", 0));
    EXPECT_TRUE(has_entry(code->exports, "kind", 1));
    EXPECT_TRUE(has_entry(code->exports, "add", 2));
    EXPECT_TRUE(has_entry(code->exports, "pick", 1));
    EXPECT_TRUE(has_entry(code->exports, "module_info", 0));
    EXPECT_TRUE(has_entry(code->exports, "module_info", 1));
    EXPECT_TRUE(has_entry(code->locals, "twice", 1));
    EXPECT_FALSE(has_entry(code->exports, "twice", 1));

    EXPECT_TRUE(has_import(*code, "io", "format", 2));
    EXPECT_TRUE(has_import(*code, "erlang", "integer_to_binary", 1));
    EXPECT_TRUE(has_import(*code, "erlang", "get_module_info", 1));

    // The LitT literal {alpha, [1, 2, 3], #{key => <<"value">>}} is an operand of pick/1.
    EXPECT_TRUE(std::any_of(code->operands.begin(), code->operands.end(), [](const vm::Operand& o) {
        return o.kind == vm::OperandKind::Literal && vm::is_tuple(o.value) && vm::tuple_arity(o.value) == 3 &&
               vm::tuple_element(o.value, 0) == vm::atom("alpha");
    }));
    ASSERT_EQ(code->funs.size(), 1u);
    EXPECT_EQ(code->funs[0].arity, 2u);  // FunT arity counts the free variable too
    EXPECT_EQ(code->funs[0].num_free, 1u);
    EXPECT_LT(code->funs[0].label, code->label_count);
    EXPECT_EQ(std::string(code->strings.begin(), code->strings.end()), "prefix");

    // One func_info per function: main, add, pick, twice, the fun and module_info/0,1.
    std::vector<std::string> functions;
    for (const vm::GenericInstr& in : code->instrs)
        if (in.op == vm::Op::func_info)
            functions.push_back(vm::atom_text(code->operand(in, 1).value) + "/" +
                                std::to_string(code->operand(in, 2).value));
    EXPECT_EQ(functions.size(), code->function_count);
    EXPECT_EQ(functions.front(), "main/0");
    EXPECT_NE(std::find(functions.begin(), functions.end(), "twice/1"), functions.end());
    EXPECT_EQ(code->instrs.back().op, vm::Op::int_code_end);

    // Line items point at the source file named in the Line chunk.
    ASSERT_GE(code->files.size(), 2u);
    EXPECT_TRUE(code->files[1].ends_with("loader_sample.erl")) << code->files[1];
    EXPECT_TRUE(std::any_of(code->line_items.begin(), code->line_items.end(),
                            [](const vm::LineItem& li) { return li.line == 10 && li.file_index == 1; }));  // add/2
    EXPECT_EQ(consistency_problem(*code), "");
}

TEST_F(BeamLoader, ValidModuleInstallsAndPointsItsExportsAtItsCode) {
    auto code = load(m_sample, SAMPLE_BEAM);
    ASSERT_TRUE(code.ok()) << code.error();
    auto installed = m_vm.install_module(*code);
    ASSERT_TRUE(installed.ok()) << installed.error();
    vm::Module* m = *installed;
    EXPECT_EQ(m_vm.find_module(vm::atom("loader_sample")), m);
    vm::Export* add = m_vm.exports.find(vm::atom("loader_sample"), vm::atom("add"), 2);
    ASSERT_NE(add, nullptr);
    EXPECT_TRUE(m->contains(add->address()));
    EXPECT_EQ(m_vm.exports.find(vm::atom("loader_sample"), vm::atom("twice"), 1), nullptr);
}

// The instructions of [function]/[arity] in [code], from its func_info to the next one.
std::vector<vm::Op> ops_of(const vm::GenericModule& code, const char* function, vm::Word arity) {
    std::vector<vm::Op> ops;
    bool inside = false;
    for (const vm::GenericInstr& in : code.instrs) {
        if (in.op == vm::Op::func_info)
            inside = code.operand(in, 1).value == vm::atom(function) && code.operand(in, 2).value == arity;
        else if (inside && in.op != vm::Op::label && in.op != vm::Op::line)
            ops.push_back(in.op);
    }
    return ops;
}

TEST_F(BeamLoader, BifRewriteRulesOfTheTableTurnPlusIntoIPlus) {
    auto code = load(m_sample, SAMPLE_BEAM);
    ASSERT_TRUE(code.ok()) << code.error();
    // add(A, B) -> A + B is gc_bif2 erlang:'+'/2 in the file; twice(N) -> 2 * N has no rule.
    EXPECT_EQ(ops_of(*code, "add", 2), (std::vector<vm::Op>{vm::Op::i_plus, vm::Op::return_}));
    EXPECT_EQ(ops_of(*code, "twice", 1), (std::vector<vm::Op>{vm::Op::gc_bif2, vm::Op::return_}));
}

TEST_F(BeamLoader, SpecialisationRulesOfTheTableChooseTheThreadedHandler) {
    auto code = load(m_sample, SAMPLE_BEAM);
    ASSERT_TRUE(code.ok()) << code.error();
    auto installed = m_vm.install_module(*code);
    ASSERT_TRUE(installed.ok()) << installed.error();
    // add/2's i_plus has x registers only: BEAMLET_SPECIALISE(i_plus, "...xxx", i_plus_xxx).
    vm::Export* add = m_vm.exports.find(vm::atom("loader_sample"), vm::atom("add"), 2);
    ASSERT_NE(add, nullptr);
    EXPECT_EQ(add->address()[0], vm::op_word(vm::Op::i_plus_xxx));
}

TEST_F(BeamLoader, FusionRulesOfTheTableJoinAdjacentPairsAndKeepTheSecondWord) {
    auto code = load(m_sample, SAMPLE_BEAM);
    ASSERT_TRUE(code.ok()) << code.error();
    auto installed = m_vm.install_module(*code);
    ASSERT_TRUE(installed.ok()) << installed.error();
    // main/0 builds [pick(...)] with test_heap 2,1 then put_list: BEAMLET_FUSE(test_heap,
    // put_list, i_test_heap_put_list) gives test_heap's word the pair's handler; put_list (three
    // words on) keeps its own for whatever enters it directly.
    vm::Export* main = m_vm.exports.find(vm::atom("loader_sample"), vm::atom("main"), 0);
    ASSERT_NE(main, nullptr);
    const vm::Word* code_words = main->address();
    const vm::FunctionInfo* info = (*installed)->function_at(code_words);
    ASSERT_NE(info, nullptr);
    const vm::Word* end = (*installed)->code.get() + info->end_offset;
    const vm::Word* pair = std::find(code_words, end, vm::op_word(vm::Op::i_test_heap_put_list));
    ASSERT_NE(pair, end);
    EXPECT_EQ(pair[1], 2u);  // test_heap's words
    EXPECT_EQ(pair[3], vm::op_word(vm::Op::put_list));
    EXPECT_EQ(std::find(code_words, end, vm::op_word(vm::Op::test_heap)), end);
}

TEST_F(BeamLoader, GzipCompressedBeamLoadsLikeThePlainFile) {
    auto plain = load(m_sample, SAMPLE_BEAM);
    auto zipped = load(gzip(m_sample), SAMPLE_BEAM);
    ASSERT_TRUE(plain.ok()) << plain.error();
    ASSERT_TRUE(zipped.ok()) << zipped.error();
    EXPECT_EQ(zipped->name, plain->name);
    EXPECT_EQ(zipped->instrs.size(), plain->instrs.size());
    EXPECT_EQ(zipped->operands.size(), plain->operands.size());
    EXPECT_EQ(zipped->exports.size(), plain->exports.size());
}

TEST_F(BeamLoader, UncompressedLiteralTableLoadsLikeTheCompressedOne) {
    auto code = load(with_uncompressed_literals(m_sample));
    ASSERT_TRUE(code.ok()) << code.error();
    EXPECT_EQ(consistency_problem(*code), "");
}

TEST_F(BeamLoader, MissingFileIsAnErrorNamingIt) {
    auto code = load_beam_file("/nonexistent/dir/missing.beam", m_vm.exports);
    ASSERT_FALSE(code.ok());
    EXPECT_EQ(code.error(), "/nonexistent/dir/missing.beam: cannot open file");
}

TEST_F(BeamLoader, GarbageIsAnErrorNamingTheFile) {
    std::mt19937 random(12345);
    Bytes zipped = gzip(m_sample);
    std::vector<std::pair<std::string, Bytes>> inputs = {
        {"empty file", {}},
        {"one byte", {0x46}},
        {"text file", Bytes{'-', 'm', 'o', 'd', 'u', 'l', 'e', '(', 'x', ')', '.', '\n'}},
        {"FOR1 only", Bytes{'F', 'O', 'R', '1'}},
        {"header without chunks", Bytes{'F', 'O', 'R', '1', 0, 0, 0, 4, 'B', 'E', 'A', 'M'}},
        {"header with size 0", Bytes{'F', 'O', 'R', '1', 0, 0, 0, 0, 'B', 'E', 'A', 'M'}},
        {"header with huge size", Bytes{'F', 'O', 'R', '1', 0xFF, 0xFF, 0xFF, 0xFF, 'B', 'E', 'A', 'M'}},
        {"gzip magic only", Bytes{0x1F, 0x8B}},
        {"gzip of garbage", gzip(Bytes{'n', 'o', 't', ' ', 'a', ' ', 'b', 'e', 'a', 'm'})},
        {"truncated gzip", Bytes(zipped.begin(), zipped.begin() + 100)},
    };
    for (std::size_t size : {3u, 16u, 100u, 1000u, 100000u}) {
        Bytes noise(size);
        for (auto& b : noise) b = std::uint8_t(random());
        inputs.push_back({"random " + std::to_string(size) + " bytes", noise});
        Bytes framed = noise;  // a valid-looking header over random chunks
        if (framed.size() >= 12) {
            std::copy_n("FOR1", 4, framed.begin());
            put_u32(framed, 4, std::uint32_t(framed.size() - 8));
            std::copy_n("BEAM", 4, framed.begin() + 8);
            inputs.push_back({"FOR1 header over random " + std::to_string(size) + " bytes", framed});
        }
    }
    for (auto& [what, bytes] : inputs) {
        auto code = load(bytes);
        ASSERT_FALSE(code.ok()) << what;
        EXPECT_TRUE(code.error().starts_with(BAD_PATH + ": ")) << what << ": " << code.error();
    }
}

TEST_F(BeamLoader, MissingRequiredChunkIsNamed) {
    for (const char* id : {"AtU8", "Code", "ImpT", "ExpT"}) {
        auto code = load(with_chunk(m_sample, id, {}, false));
        ASSERT_FALSE(code.ok()) << id;
        EXPECT_EQ(code.error(), BAD_PATH + ": missing chunk " + id);
    }
}

TEST_F(BeamLoader, UnsupportedOpcodeNamesModuleFunctionAndOpcode) {
    Bytes patched = m_sample;
    patched[first_body_instruction_offset(m_sample)] = 27;  // m_plus: OTP 25 knows it, beamlet does not
    auto code = load(patched);
    ASSERT_FALSE(code.ok());
    EXPECT_EQ(code.error(), BAD_PATH + ": module loader_sample: function main/0: unsupported opcode 27 (m_plus)");
}

TEST_F(BeamLoader, OpcodeBeyondOtp25IsUnsupported) {
    Bytes patched = m_sample;
    patched[first_body_instruction_offset(m_sample)] = 200;
    auto code = load(patched);
    ASSERT_FALSE(code.ok());
    EXPECT_TRUE(code.error().starts_with(BAD_PATH + ": module loader_sample: function main/0: unsupported opcode 200"))
        << code.error();
}

// The bugs the sweeps cannot reach by flipping one byte, each pinned down by hand.

TEST_F(BeamLoader, FuncInfoWithoutAFunctionNameIsAnError) {
    // func_info's function operand becomes the compact term for atom index 0 (nil).
    std::size_t function_operand = first_instruction_offset(m_sample, vm::Op::func_info) + 2;
    ASSERT_EQ(m_sample[function_operand] & 0x0F, 0x02) << "expected a one-byte atom operand";
    Bytes patched = m_sample;
    patched[function_operand] = 0x02;
    auto code = load(patched);
    ASSERT_FALSE(code.ok());
    EXPECT_EQ(code.error(), BAD_PATH + ": chunk Code: func_info: bad function name");
}

TEST_F(BeamLoader, CallToLabelZeroIsAnError) {
    // main/0's `call 2, {f,4}` becomes `call 2, {f,0}`: a jump to address 0 if it loaded.
    std::size_t label_operand = first_instruction_offset(m_sample, vm::Op::call) + 2;
    ASSERT_EQ(m_sample[label_operand] & 0x0F, 0x05) << "expected a one-byte label operand";
    Bytes patched = m_sample;
    patched[label_operand] = 0x05;
    auto code = load(patched);
    ASSERT_FALSE(code.ok());
    EXPECT_EQ(code.error(), BAD_PATH + ": chunk Code: function main/0: call: bad operand 2");
}

TEST_F(BeamLoader, CodeHeaderReachingPastTheChunkIsAnError) {
    Bytes patched = m_sample;
    ChunkLocation c = find_chunk(m_sample, "Code");
    for (std::size_t header_size : {c.size_bytes - 3, c.size_bytes}) {
        put_u32(patched, c.data_offset, std::uint32_t(header_size));
        auto code = load(patched);
        ASSERT_FALSE(code.ok());
        EXPECT_EQ(code.error(), BAD_PATH + ": chunk Code: bad header");
    }
}

TEST_F(BeamLoader, HugeLabelCountIsAnErrorNotAnAllocation) {
    Bytes patched = m_sample;
    put_u32(patched, find_chunk(m_sample, "Code").data_offset + 12, 0x7FFFFFFF);
    auto code = load(patched);
    ASSERT_FALSE(code.ok());
    EXPECT_EQ(code.error(), BAD_PATH + ": chunk Code: bad label count");
}

TEST_F(BeamLoader, MostNegativeAtomCountIsAnError) {
    Bytes patched = m_sample;
    put_u32(patched, find_chunk(m_sample, "AtU8").data_offset, 0x80000000);
    auto code = load(patched);
    ASSERT_FALSE(code.ok());
    EXPECT_EQ(code.error(), BAD_PATH + ": chunk AtU8: bad atom count");
}

TEST_F(BeamLoader, ImplausibleLiteralTableSizeIsAnError) {
    Bytes patched = m_sample;
    put_u32(patched, find_chunk(m_sample, "LitT").data_offset, 1u << 30);
    auto code = load(patched);
    ASSERT_FALSE(code.ok());
    EXPECT_EQ(code.error(), BAD_PATH + ": chunk LitT: implausible size");
}

TEST_F(BeamLoader, StringOutsideStrTIsAnError) {
    auto code = load(with_chunk(m_sample, "StrT", {'p', 'r', 'e'}));
    ASSERT_FALSE(code.ok());
    EXPECT_EQ(code.error(), BAD_PATH + ": chunk Code: function pick/1: bs_create_bin: string outside StrT");
}

TEST_F(BeamLoader, EntryLabelsOutsideTheCodeAreErrors) {
    ChunkLocation fun = find_chunk(m_sample, "FunT");
    Bytes patched = m_sample;
    put_u32(patched, fun.data_offset + 4 + 8, 0xFFFF);  // the first entry: function, arity, label
    auto code = load(patched);
    ASSERT_FALSE(code.ok());
    EXPECT_EQ(code.error(), BAD_PATH + ": chunk FunT: label out of range");

    patched = m_sample;
    put_u32(patched, find_chunk(m_sample, "ExpT").data_offset + 4 + 8, 0xFFFF);
    code = load(patched);
    ASSERT_FALSE(code.ok());
    EXPECT_EQ(code.error(), BAD_PATH + ": chunk ExpT: label out of range");
}

TEST_F(BeamLoader, TruncatedFileIsAnErrorNamingTheFile) {
    for (std::size_t size = 0; size < m_sample.size(); ++size) {
        auto code = load(Bytes(m_sample.begin(), m_sample.begin() + size));
        ASSERT_FALSE(code.ok()) << "truncated to " << size << " bytes";
        EXPECT_TRUE(code.error().starts_with(BAD_PATH + ": ")) << code.error();
    }
}

TEST_F(BeamLoader, TruncatingEachChunkNeverCrashes) {
    ProblemLog log;
    Bytes sample = with_uncompressed_literals(m_sample);
    for (const std::string& id : SWEPT_CHUNKS) {
        ChunkLocation c = find_chunk(sample, id);
        for (std::size_t size = 0; size < c.size_bytes; ++size) {
            Bytes data(sample.begin() + c.data_offset, sample.begin() + c.data_offset + size);
            log.check(with_chunk(sample, id, data), id + " cut to " + std::to_string(size) + " bytes");
        }
    }
    log.expect_none();
}

TEST_F(BeamLoader, CorruptingTheHeaderNeverCrashes) {
    ProblemLog log;
    corrupt_each_byte(m_sample, 0, 12, "FOR1 header", log);
    log.expect_none();
}

// One sweep per chunk, chunk header included, so a failure names the chunk in the test name.
class ChunkCorruption : public ::testing::TestWithParam<std::string> {};

TEST_P(ChunkCorruption, CorruptingEachByteNeverCrashes) {
    Bytes sample = read_bytes(SAMPLE_BEAM);
    ProblemLog log;
    ChunkLocation c = find_chunk(sample, GetParam());
    corrupt_each_byte(sample, c.header_offset, c.end_offset(), GetParam(), log);
    if (GetParam() == "LitT") {
        Bytes uncompressed = with_uncompressed_literals(sample);
        ChunkLocation u = find_chunk(uncompressed, "LitT");
        corrupt_each_byte(uncompressed, u.header_offset, u.end_offset(), "uncompressed LitT", log);
    }
    log.expect_none();
}

INSTANTIATE_TEST_SUITE_P(BeamLoader, ChunkCorruption, ::testing::ValuesIn(SWEPT_CHUNKS),
                         [](const auto& info) { return info.param; });

TEST(DecodeLiteral, EmptyBinaryAtTheEndDecodes) {
    vm::Vm vm;
    auto t = decode_literal(Bytes{131, 109, 0, 0, 0, 0}, vm.exports);
    ASSERT_TRUE(t.ok()) << t.error();
    auto atom = decode_literal(Bytes{131, 119, 0}, vm.exports);  // the empty atom ''
    ASSERT_TRUE(atom.ok()) << atom.error();
    EXPECT_EQ(vm::atom_text(*atom), "");
}

TEST(DecodeLiteral, TruncatedOrTrailingBytesAreErrors) {
    vm::Vm vm;
    EXPECT_EQ(decode_literal(Bytes{}, vm.exports).error(), "literal without the external format version byte");
    EXPECT_EQ(decode_literal(Bytes{131, 109, 0, 0, 0, 9, 1}, vm.exports).error(), "truncated literal");
    EXPECT_EQ(decode_literal(Bytes{131, 108, 0xFF, 0xFF, 0xFF, 0xFF}, vm.exports).error(), "truncated literal");
    EXPECT_EQ(decode_literal(Bytes{131, 106, 106}, vm.exports).error(), "trailing bytes after literal");
    EXPECT_EQ(decode_literal(Bytes{131, 103}, vm.exports).error(), "unsupported external term tag 103");
}

TEST(DecodeLiteral, DeepNestingDecodesWithoutRecursion) {
    // The VM's codec keeps the pending elements on a heap stack, not the C++ stack.
    vm::Vm vm;
    Bytes deep = {131};
    for (int i = 0; i < 100000; ++i) deep.insert(deep.end(), {104, 1});  // {{{...}}}
    deep.push_back(106);
    auto t = decode_literal(deep, vm.exports);
    ASSERT_TRUE(t.ok()) << t.error();
    vm::Term inner = *t;
    for (int i = 0; i < 100000; ++i) {
        ASSERT_TRUE(vm::is_tuple(inner));
        inner = vm::tuple_element(inner, 0);
    }
    EXPECT_EQ(inner, vm::NIL);
}

TEST(DecodeLiteral, IdentifiersAndLocalFunsAreRefused) {
    vm::Vm vm;
    // A pid (NEW_PID_EXT on nonode@nohost) is fine for binary_to_term, never a literal.
    Bytes pid = {131, 88, 119, 13};
    for (char c : std::string("nonode@nohost")) pid.push_back(std::uint8_t(c));
    pid.insert(pid.end(), {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0});
    EXPECT_EQ(decode_literal(pid, vm.exports).error(), "unsupported external term tag 88");
    // A large binary is a heap binary in literal memory (no reference count to collect).
    Bytes big = {131, 109, 0, 0, 1, 0};
    big.insert(big.end(), 256, 7);
    auto b = decode_literal(big, vm.exports);
    ASSERT_TRUE(b.ok()) << b.error();
    EXPECT_TRUE(vm::is_literal_ptr(vm::boxed_ptr(*b)));
    EXPECT_EQ(vm::boxed_ptr(*b)[0], vm::make_header(1 + 32, vm::Subtag::HeapBin));
}

TEST(DecodeLiteral, NestingUpToTheLimitDecodes) {
    vm::Vm vm;
    Bytes deep = {131};
    for (int i = 0; i < 10000; ++i) deep.insert(deep.end(), {108, 0, 0, 0, 1});  // [[[...]]]
    deep.push_back(106);
    deep.insert(deep.end(), 10000, 106);
    auto t = decode_literal(deep, vm.exports);
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_TRUE(vm::is_list(*t));

    Bytes maps = {131};
    for (int i = 0; i < 10000; ++i) maps.insert(maps.end(), {116, 0, 0, 0, 1, 106});  // #{[] => #{[] => ...}}
    maps.push_back(106);
    auto m = decode_literal(maps, vm.exports);
    ASSERT_TRUE(m.ok()) << m.error();
    EXPECT_TRUE(vm::is_map(*m));
}

}  // namespace
}  // namespace beamlet::loader
