// tests/unit/jit/compiler_test.cpp — the BEAM -> LLVM IR compiler on a real erlc-compiled
// module, for both targets: the IR is valid, every function entry with native code is a
// patchable `bjf.` function whose object code starts with the expected NOPs, and the
// breakpoint trampoline (inline asm) assembles for x86-64 and AArch64. AArch64 is checked from
// the object file because no AArch64 machine runs these tests.
#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include "jit/compiler.hpp"
#include "loader/beam_loader.hpp"
#include "tools/boot.hpp"
#include "vm/atom_table.hpp"
#include "vm/interpreter.hpp"

namespace beamlet::jit {
namespace {

using Bytes = std::vector<std::uint8_t>;

// Threads modules with resume points as the JIT would, without compiling them.
class LayoutOnly : public vm::CodeEngine {
public:
    std::string compile(vm::Module&, const vm::GenericModule&, const vm::ThreadLayout&) override { return {}; }
    std::unique_ptr<vm::NativeCode> prepare(vm::Module&, const vm::GenericModule&, const vm::ThreadLayout&,
                                            std::string*) override {
        return nullptr;
    }
    void adopt(vm::Module&, vm::NativeCode&) override {}
    bool set_breakpoint(const vm::CodeInfo*, bool) override { return false; }
    int breakpoint_state(const vm::CodeInfo*) const override { return -1; }
    void set_every_process(const vm::CodeInfo*, bool, std::int64_t*) override {}
};

void initialize_targets() {
    static std::once_flag once;
    std::call_once(once, [] {
        LLVMInitializeX86TargetInfo();
        LLVMInitializeX86Target();
        LLVMInitializeX86TargetMC();
        LLVMInitializeX86AsmPrinter();
        LLVMInitializeX86AsmParser();
        LLVMInitializeAArch64TargetInfo();
        LLVMInitializeAArch64Target();
        LLVMInitializeAArch64TargetMC();
        LLVMInitializeAArch64AsmPrinter();
        LLVMInitializeAArch64AsmParser();
    });
}

struct Compiled {
    std::vector<ResumePoint> points;
    std::map<std::string, Bytes> entries;  // bjf. symbol -> its first 8 bytes
    bool has_trampoline = false;
    bool verified = false;
};

Compiled compile_sample(Arch arch, const std::string& triple) {
    initialize_targets();
    tools::BootOptions options;
    options.code_path = {BEAMLET_UNIT_DATA_DIR};
    tools::Runtime runtime(options);
    LayoutOnly layout_only;
    runtime.vm().services.code_engine = &layout_only;
    auto code = loader::load_beam_file(std::string(BEAMLET_UNIT_DATA_DIR) + "/loader_sample.beam", runtime.vm().exports);
    EXPECT_TRUE(code);
    vm::ThreadLayout layout;
    auto module = vm::thread_module(runtime.vm(), *code, &layout);
    EXPECT_TRUE(module);
    runtime.vm().services.code_engine = nullptr;

    std::string error;
    const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
    EXPECT_NE(target, nullptr) << error;
    std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
        triple, "generic", "", llvm::TargetOptions(), llvm::Reloc::PIC_, llvm::CodeModel::Small, llvm::CodeGenOptLevel::Less));
    CompiledModule compiled = compile_module(runtime.vm(), **module, *code, layout, arch, triple,
                                             machine->createDataLayout().getStringRepresentation());
    Compiled out;
    out.points = compiled.points;
    llvm::SmallVector<char, 0> object;
    compiled.ir.withModuleDo([&](llvm::Module& m) {
        out.verified = !llvm::verifyModule(m, &llvm::errs());
        llvm::raw_svector_ostream stream(object);
        llvm::legacy::PassManager passes;
        EXPECT_FALSE(machine->addPassesToEmitFile(passes, stream, nullptr, llvm::CodeGenFileType::ObjectFile));
        passes.run(m);
    });
    auto file = llvm::object::ObjectFile::createObjectFile(
        llvm::MemoryBufferRef(llvm::StringRef(object.data(), object.size()), "module.o"));
    EXPECT_TRUE(static_cast<bool>(file));
    if (!file) {
        llvm::consumeError(file.takeError());
        return out;
    }
    for (const llvm::object::SymbolRef& symbol : (*file)->symbols()) {
        std::string name = llvm::cantFail(symbol.getName()).str();
        if (name == TRAMPOLINE_NAME) out.has_trampoline = true;
        if (name.rfind(PATCHABLE_PREFIX, 0) != 0) continue;
        std::uint64_t at = llvm::cantFail(symbol.getValue());
        llvm::StringRef text = llvm::cantFail(llvm::cantFail(symbol.getSection())->getContents());
        out.entries[name] = Bytes(text.begin() + at, text.begin() + at + 8);
    }
    return out;
}

void expect_patchable_entries(const Compiled& c, const Bytes& nops) {
    EXPECT_TRUE(c.verified);
    EXPECT_TRUE(c.has_trampoline);
    std::size_t entries = 0;
    for (const ResumePoint& rp : c.points)
        if (rp.entry_of && !rp.symbol.empty()) {
            ++entries;
            auto it = c.entries.find(rp.symbol);
            ASSERT_NE(it, c.entries.end()) << rp.symbol;
            EXPECT_EQ(Bytes(it->second.begin(), it->second.begin() + nops.size()), nops) << rp.symbol;
        }
    EXPECT_GT(entries, 3u);
    EXPECT_EQ(entries, c.entries.size());
}

TEST(JitCompiler, X86_64EntriesArePatchableAndTheTrampolineAssembles) {
    expect_patchable_entries(compile_sample(Arch::X86_64, "x86_64-linux-gnu"), {0x0F, 0x1F, 0x44, 0x00, 0x08});
}

TEST(JitCompiler, AArch64EntriesArePatchableAndTheTrampolineAssembles) {
    expect_patchable_entries(compile_sample(Arch::AArch64, "aarch64-linux-gnu"),
                             {0x1F, 0x20, 0x03, 0xD5, 0x1F, 0x20, 0x03, 0xD5});
}

TEST(JitCompiler, ResumePointsCoverEveryFunctionEntry) {
    Compiled c = compile_sample(Arch::X86_64, "x86_64-linux-gnu");
    std::size_t entries = 0;
    for (const ResumePoint& rp : c.points) entries += rp.entry_of != nullptr;
    // loader_sample's functions, each with exactly one entry resume point.
    EXPECT_GE(entries, 5u);
    for (const ResumePoint& rp : c.points) {
        if (rp.symbol.empty()) continue;
        EXPECT_TRUE(rp.symbol.rfind(rp.entry_of ? "bjf." : "bjr.", 0) == 0) << rp.symbol;  // patch mode
    }
}

}  // namespace
}  // namespace beamlet::jit
