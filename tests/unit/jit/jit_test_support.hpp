// tests/unit/jit/jit_test_support.hpp — IR builders shared by the jit unit tests: patchable
// functions, the counting trampoline, and a look at page protections.
#pragma once

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "jit/engine.hpp"

namespace beamlet::jit::test {

// The value of the 16-byte prefix data {0, PREFIX_TAG} placed before each patchable function,
// as the compiler will place {0, header*} (jit-design.md §0 (i)).
inline constexpr std::uint64_t PREFIX_TAG = 0x1122334455667788;

// Defines `i64 [name](i64 a, i64 b) = a + b`, with [entry_nops] in "patchable-function-entry"
// (none if empty) and the 16-byte prefix data {0, PREFIX_TAG}.
inline llvm::Function* define_add(llvm::Module& module, const std::string& name, const std::string& entry_nops) {
    auto& context = module.getContext();
    auto* i64 = llvm::Type::getInt64Ty(context);
    auto* type = llvm::FunctionType::get(i64, {i64, i64}, false);
    auto* function = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, name, module);
    if (!entry_nops.empty()) function->addFnAttr("patchable-function-entry", entry_nops);
    function->setPrefixData(llvm::ConstantStruct::getAnon({llvm::ConstantInt::get(i64, 0), llvm::ConstantInt::get(i64, PREFIX_TAG)}));
    llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", function));
    builder.CreateRet(builder.CreateAdd(function->getArg(0), function->getArg(1)));
    return function;
}

// Defines the module-local trampoline: a naked function that atomically increments the i64
// global [counter] and returns to the patch site's continuation.
inline void define_counting_trampoline(llvm::Module& module, const std::string& counter) {
    auto& context = module.getContext();
    new llvm::GlobalVariable(module, llvm::Type::getInt64Ty(context), false, llvm::GlobalValue::ExternalLinkage,
                             llvm::ConstantInt::get(llvm::Type::getInt64Ty(context), 0), counter);
    auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), false);
    auto* trampoline = llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage, TRAMPOLINE_NAME, module);
    trampoline->addFnAttr(llvm::Attribute::Naked);
    trampoline->addFnAttr(llvm::Attribute::NoInline);
#if defined(__x86_64__)
    // Entered by `call` from the site: the return address goes back to the function body.
    const std::string code = "lock incq " + counter + "(%rip)\n\tret";
#else
    // Entered by `bl` from the site with the caller's LR saved in x17: x9-x11 are scratch at a
    // function entry; return to the site's continuation through x16 with LR restored.
    const std::string code = "mov x16, x30\n\tmov x30, x17\n\tadrp x9, " + counter + "\n\tadd x9, x9, :lo12:" + counter +
                             "\n1:\n\tldaxr x10, [x9]\n\tadd x10, x10, #1\n\tstlxr w11, x10, [x9]\n\tcbnz w11, 1b\n\tret x16";
#endif
    llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", trampoline));
    builder.CreateCall(llvm::InlineAsm::get(type, code, "~{memory}", true));
    builder.CreateUnreachable();
}

// What a test module contains besides `bjf.add.[tag]`.
struct ModuleShape {
    bool entry_nops = true;  // "patchable-function-entry" on bjf.add.[tag]
    bool trampoline = true;  // the trampoline and its counter bjt_hits_[tag]
};

// A module for [engine] with `bjf.add.[tag]` and, per [shape], the counting trampoline.
inline llvm::orc::ThreadSafeModule make_add_module(const Engine& engine, const std::string& tag, ModuleShape shape = {}) {
    auto context = std::make_unique<llvm::LLVMContext>();
    auto module = std::make_unique<llvm::Module>("test_" + tag, *context);
    module->setTargetTriple(engine.triple());
    module->setDataLayout(engine.data_layout());
    define_add(*module, std::string(PATCHABLE_PREFIX) + "add." + tag,
               shape.entry_nops ? (engine.arch() == Arch::X86_64 ? "5" : "2") : "");
    if (shape.trampoline) define_counting_trampoline(*module, "bjt_hits_" + tag);
    return llvm::orc::ThreadSafeModule(std::move(module), std::move(context));
}

// The permissions ("r-xs", "rw-s", "---s", …) of the mapping holding [address], from
// /proc/self/maps; empty if none does.
inline std::string page_permissions(const void* address) {
    const auto target = reinterpret_cast<std::uintptr_t>(address);
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        std::istringstream fields(line);
        std::uintptr_t start = 0, end = 0;
        char dash = 0;
        std::string permissions;
        fields >> std::hex >> start >> dash >> end >> permissions;
        if (target >= start && target < end) return permissions;
    }
    return "";
}

}  // namespace beamlet::jit::test
