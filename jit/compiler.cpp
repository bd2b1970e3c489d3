// jit/compiler.cpp — BEAM instructions to LLVM IR, one tailcc function per resume point.
//
// One emitter per row of vm/instructions.def flagged Native, Emitter::emit<op>, reached
// through a table expanded from the rows: the build fails when a Native row has no emitter or
// an emitter's row is not flagged Native. The emitters mirror the interpreter's handlers
// (vm/interpreter.cpp) for their fast paths only; every slow path returns the instruction's
// threaded address so the interpreter runs the one implementation of it (DESIGN.md §5: "every
// slow path has one implementation").
#include "jit/compiler.hpp"

#include <array>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include "jit/runtime.hpp"
#include "vm/atom_table.hpp"
#include "vm/config.hpp"
#include "vm/interpreter.hpp"
#include "vm/vm.hpp"

namespace beamlet::jit {

using namespace vm;
using llvm::BasicBlock;
using llvm::Function;
using llvm::Value;

namespace {

// Rows flagged LoaderOnly (label, line, int_code_end) leave nothing in the threaded code.
bool emits_code(Op op) { return !(op_info(op).flags & LoaderOnly); }

class Emitter {
public:
    Emitter(Vm& vm, llvm::LLVMContext& context, llvm::Module& module, Module& mod, const GenericModule& g,
            const ThreadLayout& layout, Arch arch)
        : m_vm(vm), C(context), M(module), B(context), g(g), L(layout), m_arch(arch), m_off(process_offsets()) {
        i64 = llvm::Type::getInt64Ty(C);
        f64 = llvm::Type::getDoubleTy(C);
        ptr = llvm::PointerType::getUnqual(C);
        resume_ty = llvm::FunctionType::get(ptr, {ptr, ptr, ptr, ptr, ptr, i64}, false);
        m_base = mod.code.get();
        m_enter_word = op_word(Op::i_jit_enter);
    }

    void set_key(const std::string& key) {
        m_key = key;
        m_prefix = "bjm." + key + ".";
    }
    void set_breakpoints(BreakpointMode mode, const std::uint8_t* flags) {
        m_mode = mode;
        m_flags_base = flags;
    }
    // The symbols run() referred to, to be defined as absolute before linking.
    std::vector<std::pair<std::string, Word>> take_absolutes() { return std::move(m_absolutes); }

    std::vector<ResumePoint> run() {
        declare_regions();
        Function* trampoline = build_trampoline();
        (void)trampoline;
        for (std::size_t k = 0; k < m_points.size(); ++k)
            if (m_fns[k]) emit_region(m_points[k], m_fns[k]);
        return std::move(m_points);
    }

private:
    // ---- regions --------------------------------------------------------------------------------

    void declare_regions() {
        const CodeInfo* pending_entry = nullptr;
        for (std::size_t i = 0; i < g.instrs.size(); ++i) {
            const GenericInstr& in = g.instrs[i];
            if (in.op == Op::func_info) {
                // The function header was threaded where the marker of its first instruction
                // ends minus the header size.
                pending_entry = reinterpret_cast<const CodeInfo*>(m_base + header_before(i));
                continue;
            }
            if (L.marker_pos[i] == NO_POSITION) continue;
            ResumePoint rp;
            rp.instr = i;
            rp.marker = L.marker_pos[i];
            rp.entry_of = pending_entry;
            pending_entry = nullptr;
            Function* fn = nullptr;
            if (has_native_emitter(g, in)) {
                // Unique in the whole JIT (every module shares one JITDylib) and the same in
                // every run (cached objects define them).
                const char* prefix = !rp.entry_of ? "bjr." : m_mode == BreakpointMode::Patch ? PATCHABLE_PREFIX : "bje.";
                rp.symbol = prefix + m_key + "." + std::to_string(m_points.size());
                fn = Function::Create(resume_ty, llvm::GlobalValue::ExternalLinkage, rp.symbol, M);
                fn->setCallingConv(llvm::CallingConv::Tail);
                fn->addFnAttr(llvm::Attribute::NoUnwind);
                // No vector registers for moves: the backend merges neighbouring stack-slot
                // moves into 16-byte loads and stores, and such a load of a slot just stored
                // with 8 bytes cannot be forwarded from the store (a stall of ~12 cycles:
                // 27% of binary-trees' time). Floating-point arithmetic is explicit and stays.
                fn->addFnAttr(llvm::Attribute::NoImplicitFloat);
                fn->setDSOLocal(true);  // direct jumps between resume points, no PLT
                if (rp.entry_of && m_mode == BreakpointMode::Patch) make_patchable(fn, rp.entry_of);
                if (rp.entry_of && m_mode == BreakpointMode::Flag) rp.flag_index = m_flag_count++;
            }
            m_by_marker[rp.marker] = m_points.size();
            m_fns.push_back(fn);
            m_points.push_back(rp);
        }
    }

    // The offset of the CodeInfo of the function whose func_info is instruction [i]: the
    // marker (or first instruction) of the next instruction that emits code, minus its size.
    Word header_before(std::size_t i) const {
        for (std::size_t j = i + 1; j < g.instrs.size(); ++j) {
            if (!emits_code(g.instrs[j].op)) continue;
            Word at = L.marker_pos[j] != NO_POSITION ? L.marker_pos[j] : L.instr_pos[j];
            return at - sizeof(CodeInfo) / sizeof(Word);
        }
        return 0;
    }

    void make_patchable(Function* fn, const CodeInfo* ci) {
        fn->addFnAttr("patchable-function-entry", m_arch == Arch::X86_64 ? "5" : "2");
        // {count slots, 0, summary, CodeInfo*} right before the entry: the trampoline finds
        // them from its return address. The summary's low byte, set by tracing through the
        // writable alias, says what the breakpoint does for a process without the call flag:
        // 0 nothing (it returns at once), 1 call the handler (call_count or meta act for every
        // process), 2 add one to the count slots' word of the process's scheduler (a lone
        // call_count: tracing/breakpoints.hpp's CallCounter). 32 bytes keep the entry 16-byte
        // aligned.
        llvm::Constant* zero = llvm::ConstantInt::get(i64, 0);
        llvm::Constant* words[] = {zero, zero, zero,
                                   llvm::ConstantExpr::getPtrToInt(code_address(reinterpret_cast<const Word*>(ci)), i64)};
        fn->setPrefixData(llvm::ConstantArray::get(llvm::ArrayType::get(i64, 4), words));
        fn->setAlignment(llvm::Align(16));
    }

    // The breakpoint trampoline (jit/engine.hpp): stores the native state in the process,
    // calls beamlet_jit_breakpoint(p, x, ci) and reloads what tracing may have changed (trace
    // frames move the stack pointer and the continuation pointer).
    Function* build_trampoline() {
        auto* ty = llvm::FunctionType::get(llvm::Type::getVoidTy(C), false);
        Function* fn = Function::Create(ty, llvm::GlobalValue::InternalLinkage, TRAMPOLINE_NAME, M);
        fn->addFnAttr(llvm::Attribute::Naked);
        fn->addFnAttr(llvm::Attribute::NoInline);
        fn->addFnAttr(llvm::Attribute::NoUnwind);
        BasicBlock* bb = BasicBlock::Create(C, "", fn);
        B.SetInsertPoint(bb);
        std::string stop = std::to_string(m_off.stop), htop = std::to_string(m_off.htop), cp = std::to_string(m_off.cp);
        runtime_address("bp", reinterpret_cast<const void*>(&beamlet_jit_breakpoint));  // defined for the asm
        std::string text;
        std::string flags = std::to_string(m_off.all_trace_flags);
        std::string sched = std::to_string(m_off.scheduler_index);
        if (m_arch == Arch::X86_64) {
            // Entered by the patch site's `call`: the return address is the entry + 5, the
            // count slots at entry - 32, the summary byte at entry - 16 and the CodeInfo* at
            // entry - 8. Arguments: rdi p, rsi x, rdx E, rcx htop, r8 cp, r9 reds (rax, r10 and
            // r11 are free). The filter first: for a process without the call flag, nothing
            // to do (summary 0), or only a count (2).
            text = "testl $$1, " + flags + "(%rdi)\n jnz 1f\n"
                   "movq (%rsp), %rax\n movzbl -21(%rax), %r10d\n testl %r10d, %r10d\n jnz 2f\n retq\n"
                   "2:\n cmpl $$2, %r10d\n jne 1f\n"
                   "movq -37(%rax), %r11\n movslq " + sched + "(%rdi), %r10\n incq (%r11,%r10,8)\n retq\n"
                   "1:\n pushq %rdi\n pushq %rsi\n pushq %rdx\n pushq %rcx\n pushq %r8\n pushq %r9\n pushq %rbx\n"
                   "movq %rdx, " + stop + "(%rdi)\n movq %rcx, " + htop + "(%rdi)\n movq %r8, " + cp + "(%rdi)\n"
                   "movq 56(%rsp), %rdx\n movq -13(%rdx), %rdx\n"
                   "movq %rsp, %rbx\n andq $$-16, %rsp\n"
                   "movabsq $$bj.rt.bp, %rax\n callq *%rax\n"
                   "movq %rbx, %rsp\n"
                   "popq %rbx\n popq %r9\n popq %r8\n popq %rcx\n popq %rdx\n popq %rsi\n popq %rdi\n"
                   "movq " + stop + "(%rdi), %rdx\n movq " + htop + "(%rdi), %rcx\n movq " + cp + "(%rdi), %r8\n"
                   "retq";
        } else {
            // Entered by `bl` after `mov x17, x30`: x30 is the entry + 8, x17 the caller's
            // return address; the count slots at entry - 32, the summary byte at entry - 16,
            // the CodeInfo* at entry - 8. Arguments in x0..x5; x9, x10 and x16 are scratch.
            // The same filter as on x86-64 first.
            text = "ldr w16, [x0, #" + flags + "]\n tbnz w16, #0, 1f\n"
                   "ldurb w16, [x30, #-24]\n cbnz w16, 3f\n"
                   "mov x16, x30\n mov x30, x17\n br x16\n"
                   "3:\n cmp w16, #2\n b.ne 1f\n"
                   "ldur x16, [x30, #-40]\n ldrsw x9, [x0, #" + sched + "]\n"
                   "ldr x10, [x16, x9, lsl #3]\n add x10, x10, #1\n str x10, [x16, x9, lsl #3]\n"
                   "mov x16, x30\n mov x30, x17\n br x16\n"
                   "1:\n stp x0, x1, [sp, #-64]!\n stp x2, x3, [sp, #16]\n stp x4, x5, [sp, #32]\n stp x17, x30, [sp, #48]\n"
                   "str x2, [x0, #" + stop + "]\n str x3, [x0, #" + htop + "]\n str x4, [x0, #" + cp + "]\n"
                   "ldur x2, [x30, #-16]\n"
                   "ldr x16, 2f\n blr x16\n"
                   "ldp x17, x30, [sp, #48]\n ldp x4, x5, [sp, #32]\n ldp x2, x3, [sp, #16]\n ldp x0, x1, [sp], #64\n"
                   "ldr x2, [x0, #" + stop + "]\n ldr x3, [x0, #" + htop + "]\n ldr x4, [x0, #" + cp + "]\n"
                   "mov x16, x30\n mov x30, x17\n br x16\n"
                   ".p2align 3\n2: .xword bj.rt.bp";
        }
        auto* asm_ty = llvm::FunctionType::get(llvm::Type::getVoidTy(C), false);
        B.CreateCall(llvm::InlineAsm::get(asm_ty, text, "", true), {});
        B.CreateUnreachable();
        return fn;
    }

    // ---- emitting ---------------------------------------------------------------------------------

    // The flag-byte breakpoint (BreakpointMode::Flag): load the function's flag, and when it is
    // set call the breakpoint handler with the state in the process, as the trampoline does.
    void flag_breakpoint(const ResumePoint& rp) {
        llvm::Constant* flags = symbol(m_prefix + "flags", reinterpret_cast<Word>(m_flags_base));
        Value* at = B.CreateConstGEP1_64(llvm::Type::getInt8Ty(C), flags, rp.flag_index);
        llvm::LoadInst* flag = B.CreateLoad(llvm::Type::getInt8Ty(C), at);
        flag->setAtomic(llvm::AtomicOrdering::Monotonic);
        flag->setAlignment(llvm::Align(1));
        BasicBlock* hit = block(), *go = block();
        B.CreateCondBr(B.CreateICmpNE(flag, llvm::ConstantInt::get(llvm::Type::getInt8Ty(C), 0)), hit, go, unlikely());
        B.SetInsertPoint(hit);
        B.CreateStore(E, field(m_off.stop));
        B.CreateStore(htop, field(m_off.htop));
        B.CreateStore(cp, field(m_off.cp));
        auto* handler_ty = llvm::FunctionType::get(llvm::Type::getVoidTy(C), {ptr, ptr, ptr}, false);
        B.CreateCall(handler_ty, runtime_address("bp", reinterpret_cast<const void*>(&beamlet_jit_breakpoint)),
                     {p, x, code_address(reinterpret_cast<const Word*>(rp.entry_of))});
        Value* E2 = B.CreateLoad(ptr, field(m_off.stop));
        Value* htop2 = B.CreateLoad(ptr, field(m_off.htop));
        Value* cp2 = B.CreateLoad(ptr, field(m_off.cp));
        B.CreateBr(go);
        BasicBlock* from_hit = B.GetInsertBlock();
        B.SetInsertPoint(go);
        auto merge = [&](Value* before, Value* after) {
            llvm::PHINode* phi = B.CreatePHI(ptr, 2);
            phi->addIncoming(before, &go->getParent()->getEntryBlock());
            phi->addIncoming(after, from_hit);
            return phi;
        };
        E = merge(E, E2);
        htop = merge(htop, htop2);
        cp = merge(cp, cp2);
    }

    void emit_region(const ResumePoint& rp, Function* fn) {
        std::size_t start = rp.instr;
        BasicBlock* bb = BasicBlock::Create(C, "", fn);
        B.SetInsertPoint(bb);
        auto arg = fn->arg_begin();
        p = &*arg++;
        x = &*arg++;
        E = &*arg++;
        htop = &*arg++;
        cp = &*arg++;
        reds = &*arg++;
        if (rp.entry_of && m_mode == BreakpointMode::Flag) flag_breakpoint(rp);
        for (std::size_t i = start; i < g.instrs.size(); ++i) {
            const GenericInstr& in = g.instrs[i];
            if (!emits_code(in.op)) continue;
            if (i != start && L.marker_pos[i] != NO_POSITION) {
                goto_resume(i);  // falls through into the next resume point
                return;
            }
            if (!has_native_emitter(g, in)) {
                leave(instr_address(i));
                return;
            }
            if (!emit_instruction(i, in)) return;
        }
        B.CreateUnreachable();
    }

    const Word* instr_address(std::size_t i) const { return m_base + L.instr_pos[i]; }

    // The next instruction after [i] that emits code (it starts a resume point when [i] does
    // not continue natively).
    std::size_t next_instr(std::size_t i) const {
        for (std::size_t j = i + 1; j < g.instrs.size(); ++j)
            if (emits_code(g.instrs[j].op)) return j;
        return g.instrs.size();
    }

    // The threaded address a call at [i] continues at (the next instruction's marker).
    const Word* return_address(std::size_t i) const {
        std::size_t j = next_instr(i);
        return m_base + (L.marker_pos[j] != NO_POSITION ? L.marker_pos[j] : L.instr_pos[j]);
    }

    Value* word(Word w) { return llvm::ConstantInt::get(i64, w); }

    // Addresses are never baked into the code: each goes through a symbol the engine defines
    // as absolute when the module links, so the object code does not depend on where this
    // run put things, and a cached object links into any later run (jit/object_cache).
    llvm::Constant* symbol(const std::string& name, Word value) {
        if (m_defined.insert(name).second) m_absolutes.emplace_back(name, value);
        if (llvm::GlobalVariable* gv = M.getNamedGlobal(name)) return gv;
        auto* gv = new llvm::GlobalVariable(M, llvm::Type::getInt8Ty(C), false, llvm::GlobalValue::ExternalLinkage,
                                            nullptr, name);
        return gv;
    }
    // A threaded-code address of this module.
    llvm::Constant* code_address(const Word* at) {
        llvm::Constant* base = symbol(m_prefix + "code", reinterpret_cast<Word>(m_base));
        return llvm::ConstantExpr::getGetElementPtr(llvm::Type::getInt8Ty(C), base,
                                                    llvm::ConstantInt::get(i64, (at - m_base) * sizeof(Word)));
    }
    llvm::Constant* runtime_address(const char* name, const void* at) {
        return symbol(std::string("bj.rt.") + name, reinterpret_cast<Word>(at));
    }
    // A term operand: small integers and [] as they are; atoms and literal pointers (which
    // differ between runs) through a symbol.
    Value* term(Term t) {
        if (is_small_term(t) || t == NIL) return word(t);
        auto it = m_literal_index.find(t);
        std::size_t k = it != m_literal_index.end() ? it->second : (m_literal_index[t] = m_literal_index.size());
        return B.CreatePtrToInt(symbol(m_prefix + "lit." + std::to_string(k), t), i64);
    }
    static bool is_small_term(Term t) { return (t & TAG_IMMED1_MASK) == TAG_IMMED1_SMALL; }
    Value* field(std::size_t offset) { return B.CreateConstGEP1_64(llvm::Type::getInt8Ty(C), p, offset); }
    Value* slot(Value* base, SWord index) { return B.CreateConstGEP1_64(i64, base, std::uint64_t(index)); }

    Value* src(const Operand& o) {
        switch (o.kind) {
        case OperandKind::X: return B.CreateLoad(i64, slot(x, SWord(o.value)));
        case OperandKind::Y: return B.CreateLoad(i64, slot(E, SWord(o.value + 1)));
        default: return term(o.value);
        }
    }
    void dst(const Operand& o, Value* v) {
        B.CreateStore(v, o.kind == OperandKind::X ? slot(x, SWord(o.value)) : slot(E, SWord(o.value + 1)));
    }
    const Operand& op(const GenericInstr& in, std::uint32_t i) const { return g.operand(in, i); }

    void store_state() {
        B.CreateStore(E, field(m_off.stop));
        B.CreateStore(htop, field(m_off.htop));
        B.CreateStore(cp, field(m_off.cp));
        B.CreateStore(reds, field(m_off.jit_reds));
    }
    // Hands over to the interpreter at [at].
    void leave(Value* at) {
        store_state();
        B.CreateRet(at);
    }
    void leave(const Word* at) { leave(code_address(at)); }

    void tail_call(Value* callee) {
        llvm::CallInst* call = B.CreateCall(resume_ty, callee, {p, x, E, htop, cp, reds});
        call->setCallingConv(llvm::CallingConv::Tail);
        call->setTailCallKind(llvm::CallInst::TCK_MustTail);
        B.CreateRet(call);
    }

    // Continues at the resume point whose marker is at threaded offset [marker].
    void goto_marker(Word marker) {
        auto it = m_by_marker.find(marker);
        Function* fn = it == m_by_marker.end() ? nullptr : region_function(it->second);
        if (fn) tail_call(fn);
        else leave(code_address(m_base + marker));
    }
    void goto_resume(std::size_t instr) { goto_marker(L.marker_pos[instr]); }
    void goto_label(Word label) { goto_marker(L.label_pos[label]); }

    Function* region_function(std::size_t point) const { return m_fns[point]; }

    // Continues at threaded address [target] (a value): its native code when it is a resume
    // point with some, else the interpreter.
    void goto_address(Value* target) {
        Value* op0 = B.CreateLoad(i64, target);
        Value* native =
            B.CreateICmpEQ(op0, B.CreatePtrToInt(runtime_address("op_jit_enter", reinterpret_cast<const void*>(m_enter_word)), i64));
        BasicBlock* yes = block(), *no = block();
        B.CreateCondBr(native, yes, no);
        B.SetInsertPoint(yes);
        tail_call(B.CreateLoad(ptr, slot(target, 1)));
        B.SetInsertPoint(no);
        leave(target);
    }

    llvm::MDNode* likely() { return llvm::MDBuilder(C).createBranchWeights(1000, 1); }
    llvm::MDNode* unlikely() { return llvm::MDBuilder(C).createBranchWeights(1, 1000); }

    BasicBlock* block() { return BasicBlock::Create(C, "", B.GetInsertBlock()->getParent()); }

    // One reduction per call; out of them, switch out at [target] with [live] arguments.
    void count_reduction(Value* target, Word live) {
        reds = B.CreateSub(reds, word(1));
        BasicBlock* out = block(), *go = block();
        B.CreateCondBr(B.CreateICmpSLE(reds, word(0)), out, go, unlikely());
        B.SetInsertPoint(out);
        B.CreateStore(word(live), field(m_off.jit_live));
        store_state();
        B.CreateRet(B.CreateIntToPtr(B.CreateOr(B.CreatePtrToInt(target, i64), word(1)), ptr));
        B.SetInsertPoint(go);
    }

    // The interpreter's ENSURE_HEAP check. When a collection is due, instruction [i] is left to
    // the interpreter, which collects and carries on to the next resume point: no call in the
    // native code, so the fast path keeps everything in registers (no callee-saved spills).
    void ensure_heap(std::size_t i, Word need) {
        Value* free_bytes = B.CreateSub(B.CreatePtrToInt(E, i64), B.CreatePtrToInt(htop, i64));
        Value* cond = B.CreateICmpULT(free_bytes, word(need * sizeof(Word)));
        Value* mbuf = B.CreateLoad(i64, field(m_off.mbuf_words));
        Value* heap_size = B.CreateLoad(i64, field(m_off.heap_size_words));
        cond = B.CreateOr(cond, B.CreateICmpUGT(mbuf, heap_size));
        BasicBlock* gc = block(), *cont = block();
        B.CreateCondBr(cond, gc, cont, unlikely());
        B.SetInsertPoint(gc);
        leave(instr_address(i));
        B.SetInsertPoint(cont);
    }

    void allocate(std::size_t i, Word words, Word heap) {
        ensure_heap(i, words + 1 + heap);
        E = B.CreateConstGEP1_64(i64, E, -std::int64_t(words + 1));
        B.CreateStore(B.CreatePtrToInt(cp, i64), E);
        for (Word i = 1; i <= words; ++i) B.CreateStore(word(NIL), slot(E, SWord(i)));
    }

    // Branches to label [fail] when [cond] is false; emitting goes on with the next
    // instruction where it holds.
    void test(std::size_t, Value* cond, Word fail) {
        BasicBlock* pass = block(), *failed = block();
        B.CreateCondBr(cond, pass, failed);
        B.SetInsertPoint(failed);
        goto_label(fail);
        B.SetInsertPoint(pass);
    }

    // Like test(), but [known] false sends the instruction to the interpreter.
    void test_or_leave(std::size_t i, Value* known, Value* cond, Word fail) {
        BasicBlock* fast = block(), *slow = block();
        B.CreateCondBr(known, fast, slow, likely());
        B.SetInsertPoint(slow);
        leave(instr_address(i));
        B.SetInsertPoint(fast);
        test(i, cond, fail);
    }

    Value* tag(Value* t, Word mask) { return B.CreateAnd(t, word(mask)); }
    Value* is_small(Value* t) { return B.CreateICmpEQ(tag(t, TAG_IMMED1_MASK), word(TAG_IMMED1_SMALL)); }
    Value* is_immediate(Value* t) { return B.CreateICmpEQ(tag(t, TAG_PRIMARY_MASK), word(TAG_PRIMARY_IMMED1)); }
    Value* is_boxed(Value* t) { return B.CreateICmpEQ(tag(t, TAG_PRIMARY_MASK), word(TAG_PRIMARY_BOXED)); }
    Value* boxed_word(Value* t, Word index) {
        Value* base = B.CreateIntToPtr(B.CreateSub(t, word(TAG_PRIMARY_BOXED)), ptr);
        return B.CreateLoad(i64, slot(base, SWord(index)));
    }

    // ---- instructions -----------------------------------------------------------------------------
    //
    // Every row of vm/instructions.def flagged Native has its emitter: an explicit
    // specialisation of emit<op> below the class (OTP's BeamAsm declares its emit_<op> methods
    // from its op table in the same way). emit_instruction() dispatches through a table that
    // names emit<op> for each Native row, so a Native row without an emitter instantiates the
    // primary template, whose static_assert stops the build; an emitter for a row not flagged
    // Native matches no declaration (the requires clause), which stops the build too. An emitter
    // returns false when its instruction ended the native function.

    // Read only by the primary emit<op>, whose every instantiation is an op without an emitter.
    template <Op>
    static constexpr bool has_emitter = false;

    template <Op opcode>
        requires(is_native(opcode))
    bool emit(std::size_t, const GenericInstr&) {
        static_assert(has_emitter<opcode>, "a row of vm/instructions.def flagged Native has no emitter: write the "
                                           "specialisation Emitter::emit<Op::name> in jit/compiler.cpp (the opcode "
                                           "is named above)");
        return false;
    }

    using InstrEmitter = bool (Emitter::*)(std::size_t, const GenericInstr&);

    // emit<op> for a Native row, null for any other.
    template <Op opcode>
    static constexpr InstrEmitter emitter_of() {
        if constexpr (is_native(opcode)) return &Emitter::emit<opcode>;
        else return nullptr;
    }

    // Emits instruction [i], [in], whose row is flagged Native; false when it ended the native
    // function.
    bool emit_instruction(std::size_t i, const GenericInstr& in);

    // Hands instruction [i] to the interpreter, which runs it and goes on; the native function
    // ends here.
    bool interpret(std::size_t i) {
        leave(instr_address(i));
        return false;
    }

    // The cons cell [t] points to.
    Value* list_cell(Value* t) { return B.CreateIntToPtr(B.CreateSub(t, word(TAG_PRIMARY_LIST)), ptr); }

    // Pops a frame of [words] y registers, restoring cp.
    void drop_frame(Word words) {
        cp = B.CreateIntToPtr(B.CreateLoad(i64, E), ptr);
        E = B.CreateConstGEP1_64(i64, E, words + 1);
    }

    // The emitters that several instructions share, one template each; [opcode] picks the variant.

    // call, call_last, call_only: one reduction, then the callee's native code (its label's
    // resume point).
    template <Op opcode>
    bool local_call(std::size_t i, const GenericInstr& in) {
        if constexpr (opcode == Op::call) cp = code_address(return_address(i));
        if constexpr (opcode == Op::call_last) drop_frame(op(in, 2).value);
        Word target = L.label_pos[op(in, 1).value];
        count_reduction(code_address(m_base + target), op(in, 0).value);
        goto_marker(target);
        return false;
    }

    // call_ext, call_ext_last, call_ext_only: one reduction, then the export's current address
    // (native code when it is a resume point with some). BIFs run in place in the interpreter.
    template <Op opcode>
    bool remote_call(std::size_t i, const GenericInstr& in) {
        const ImportEntry& imp = g.imports[op(in, 1).value];
        Export* e = m_vm.exports.get(imp.module, imp.function, imp.arity);
        if (e->is_bif()) return calls_bif_in_place(*e) ? bif_call<opcode>(i, in) : interpret(i);
        if constexpr (opcode == Op::call_ext) cp = code_address(return_address(i));
        if constexpr (opcode == Op::call_ext_last) drop_frame(op(in, 2).value);
        // Export::address(): addresses[g_active_code_ix].
        Value* ix = B.CreateLoad(llvm::Type::getInt32Ty(C), runtime_address("code_ix", &g_active_code_ix));
        llvm::cast<llvm::LoadInst>(ix)->setAtomic(llvm::AtomicOrdering::Acquire);
        Value* addresses = symbol(m_prefix + "imp." + std::to_string(op(in, 1).value), reinterpret_cast<Word>(&e->addresses[0]));
        Value* entry = B.CreateGEP(ptr, addresses, B.CreateZExt(ix, i64));
        llvm::LoadInst* target = B.CreateLoad(ptr, entry);
        target->setAtomic(llvm::AtomicOrdering::Acquire);
        count_reduction(target, op(in, 0).value);
        goto_address(target);
        return false;
    }

    // The Export* of import [index] (a BIF's: the runtime calls its function).
    Value* bif_export(Word index) {
        const ImportEntry& imp = g.imports[index];
        Export* e = m_vm.exports.get(imp.module, imp.function, imp.arity);
        return symbol(m_prefix + "bif." + std::to_string(index), reinterpret_cast<Word>(e));
    }

    // call_runtime() for a BIF: the reductions go out and come back too (a BIF may charge
    // its work, as the interpreter's SWAPOUT/SWAPIN let it).
    Value* call_bif_runtime(const char* name, const void* fn, std::vector<Value*> args) {
        B.CreateStore(reds, field(m_off.slice_reds));
        Value* r = call_runtime(name, fn, i64, std::move(args));
        reds = B.CreateLoad(i64, field(m_off.slice_reds));
        return r;
    }

    // call_ext, call_ext_last, call_ext_only of a BIF that calls_bif_in_place() accepts: the
    // BIF on x0.., its result in x0, then the next instruction or the return. When the
    // runtime declines (traced, or failed) the interpreter makes the call.
    template <Op opcode>
    bool bif_call(std::size_t i, const GenericInstr& in) {
        Value* r = call_bif_runtime("call_bif", reinterpret_cast<const void*>(&beamlet_jit_call_bif),
                                    {p, bif_export(op(in, 1).value), x});
        BasicBlock* done = block(), *declined = block();
        B.CreateCondBr(B.CreateICmpNE(r, word(THE_NON_VALUE)), done, declined, likely());
        B.SetInsertPoint(declined);
        leave(instr_address(i));
        B.SetInsertPoint(done);
        dst(Operand{OperandKind::X, 0}, r);
        if constexpr (opcode == Op::call_ext) {
            std::size_t next = next_instr(i);
            if (L.marker_pos[next] != NO_POSITION) goto_resume(next);
            else leave(instr_address(next));
            return false;
        }
        if constexpr (opcode == Op::call_ext_last) drop_frame(op(in, 2).value);
        Value* to = cp;
        cp = llvm::ConstantPointerNull::get(ptr);
        goto_address(to);
        return false;
    }

    // bif0 .. gc_bif3: [fail] [bif] [args] [dst] (gc_bif: [live] after [fail]). A failure goes
    // to [fail], or (no fail label) to the interpreter, which runs the BIF again and raises.
    template <std::size_t n, std::uint32_t first_arg>
    bool guard_bif(std::size_t i, const GenericInstr& in) {
        std::vector<Value*> args = {p, bif_export(op(in, first_arg - 1).value)};
        for (std::uint32_t k = 0; k < 3; ++k) args.push_back(k < n ? src(op(in, first_arg + k)) : word(NIL));
        Value* r = call_bif_runtime("guard_bif", reinterpret_cast<const void*>(&beamlet_jit_guard_bif), std::move(args));
        if constexpr (first_arg > 1) {
            BasicBlock* done = block(), *failed = block();
            B.CreateCondBr(B.CreateICmpNE(r, word(THE_NON_VALUE)), done, failed, likely());
            B.SetInsertPoint(failed);
            if (Word fail = op(in, 0).value) goto_label(fail);
            else leave(instr_address(i));
            B.SetInsertPoint(done);
        }
        dst(op(in, first_arg + std::uint32_t(n)), r);
        return true;
    }

    // select_val, select_tuple_arity: a chain of comparisons, then the fail label ([src] [fail]
    // [list of value, label]).
    template <Op opcode>
    bool select(const GenericInstr& in) {
        Value* v = src(op(in, 0));
        if constexpr (opcode == Op::select_tuple_arity) {
            BasicBlock* boxed = block(), *not_boxed = block();
            B.CreateCondBr(is_boxed(v), boxed, not_boxed);
            B.SetInsertPoint(not_boxed);
            goto_label(op(in, 1).value);
            B.SetInsertPoint(boxed);
            Value* header = boxed_word(v, 0);
            BasicBlock* tuple = block(), *not_tuple = block();
            B.CreateCondBr(B.CreateICmpEQ(tag(header, HEADER_SUBTAG_MASK | TAG_PRIMARY_MASK), word(make_arityval(0))),
                           tuple, not_tuple);
            B.SetInsertPoint(not_tuple);
            goto_label(op(in, 1).value);
            B.SetInsertPoint(tuple);
            v = header;  // compared with make_arityval(arity) below
        }
        Word n = op(in, 2).value;
        for (Word k = 0; k < n; k += 2) {
            const Operand& value = op(in, 3 + std::uint32_t(k));
            Value* expected;
            if constexpr (opcode == Op::select_val) {
                expected = term(value.value);
            } else {
                // Arities come as unsigned operands (the threader makes them small integers).
                Word arity = value.kind == OperandKind::Unsigned ? value.value : Word(small_value(value.value));
                expected = word(make_arityval(arity));
            }
            BasicBlock* hit = block(), *miss = block();
            B.CreateCondBr(B.CreateICmpEQ(v, expected), hit, miss);
            B.SetInsertPoint(hit);
            goto_label(op(in, 4 + std::uint32_t(k)).value);
            B.SetInsertPoint(miss);
        }
        goto_label(op(in, 1).value);
        return false;
    }

    // is_lt, is_ge on two small integers or two floats (compared as doubles, as the term
    // order compares them: -0.0 and 0.0 are equal, and a float is never a NaN); other terms
    // are the interpreter's.
    template <Op opcode>
    bool order_test(std::size_t i, const GenericInstr& in) {
        Value* a = src(op(in, 1));
        Value* b = src(op(in, 2));
        BasicBlock* smalls = block(), *other = block(), *floats = block(), *slow = block(), *decided = block();
        B.CreateCondBr(is_small(B.CreateAnd(a, b)), smalls, other, likely());
        B.SetInsertPoint(smalls);
        Value* small_cond = opcode == Op::is_lt ? B.CreateICmpSLT(a, b) : B.CreateICmpSGE(a, b);
        B.CreateBr(decided);
        B.SetInsertPoint(other);
        constexpr Word float_header = make_header(1, Subtag::Float);
        Value* a_float = is_boxed_with_header(a, float_header);
        BasicBlock* check_b = block();
        B.CreateCondBr(a_float, check_b, slow);
        B.SetInsertPoint(check_b);
        B.CreateCondBr(is_boxed_with_header(b, float_header), floats, slow);
        B.SetInsertPoint(slow);
        leave(instr_address(i));
        B.SetInsertPoint(floats);
        Value* fa = B.CreateBitCast(boxed_word(a, 1), f64);
        Value* fb = B.CreateBitCast(boxed_word(b, 1), f64);
        Value* float_cond = opcode == Op::is_lt ? B.CreateFCmpOLT(fa, fb) : B.CreateFCmpOGE(fa, fb);
        BasicBlock* from_floats = B.GetInsertBlock();
        B.CreateBr(decided);
        B.SetInsertPoint(decided);
        llvm::PHINode* cond = B.CreatePHI(llvm::Type::getInt1Ty(C), 2);
        cond->addIncoming(small_cond, smalls);
        cond->addIncoming(float_cond, from_floats);
        test(i, cond, op(in, 0).value);
        return true;
    }

    // is_eq_exact, is_ne_exact, is_eq, is_ne: equal words are equal; different words are
    // different when one of them (=:=) or both (==, where 1 == 1.0) are immediates; anything
    // else is the interpreter's.
    template <Op opcode>
    bool equality_test(std::size_t i, const GenericInstr& in) {
        Value* a = src(op(in, 1));
        Value* b = src(op(in, 2));
        Value* same = B.CreateICmpEQ(a, b);
        constexpr bool exact = opcode == Op::is_eq_exact || opcode == Op::is_ne_exact;
        Value* decided = exact ? B.CreateOr(is_immediate(a), is_immediate(b)) : B.CreateAnd(is_immediate(a), is_immediate(b));
        Value* known = B.CreateOr(same, decided);
        constexpr bool want_equal = opcode == Op::is_eq_exact || opcode == Op::is_eq;
        test_or_leave(i, known, want_equal ? same : B.CreateNot(same), op(in, 0).value);
        return true;
    }

    // is_tuple, is_tagged_tuple: a boxed term whose header is a tuple's (of [arity] with
    // [atom] first, for is_tagged_tuple).
    template <Op opcode>
    bool tuple_test(std::size_t i, const GenericInstr& in) {
        Value* t = src(op(in, 1));
        Word fail = op(in, 0).value;
        BasicBlock* boxed = block(), *failed = block();
        B.CreateCondBr(is_boxed(t), boxed, failed);
        B.SetInsertPoint(failed);
        goto_label(fail);
        B.SetInsertPoint(boxed);
        Value* header = boxed_word(t, 0);
        Value* cond;
        if constexpr (opcode == Op::is_tuple) {
            cond = B.CreateICmpEQ(tag(header, HEADER_SUBTAG_MASK | TAG_PRIMARY_MASK), word(make_arityval(0)));
        } else {
            Value* arity_ok = B.CreateICmpEQ(header, word(make_arityval(op(in, 2).value)));
            BasicBlock* check_tag = block(), *bad = block();
            B.CreateCondBr(arity_ok, check_tag, bad);
            B.SetInsertPoint(bad);
            goto_label(fail);
            B.SetInsertPoint(check_tag);
            cond = B.CreateICmpEQ(boxed_word(t, 1), term(op(in, 3).value));
        }
        test(i, cond, fail);
        return true;
    }

    // i_plus, i_minus on small integers whose result is small; the rest (bignums, floats,
    // errors) is the interpreter's.
    template <Op opcode>
    bool small_arith(std::size_t i, const GenericInstr& in) {
        Value* a = src(op(in, 3));
        Value* b = src(op(in, 4));
        // On tagged words: a + (b - tag) (or a - (b - tag)) is the tagged result, and the
        // machine's overflow flag says whether it is still a small integer.
        Value* untagged_b = B.CreateSub(b, word(TAG_IMMED1_SMALL));
        llvm::Intrinsic::ID id = opcode == Op::i_plus ? llvm::Intrinsic::sadd_with_overflow : llvm::Intrinsic::ssub_with_overflow;
        Value* pair = B.CreateBinaryIntrinsic(id, a, untagged_b);
        Value* tagged = B.CreateExtractValue(pair, 0);
        Value* fits = B.CreateNot(B.CreateExtractValue(pair, 1));
        Value* fast = B.CreateAnd(is_small(B.CreateAnd(a, b)), fits);
        BasicBlock* ok = block(), *slow = block();
        B.CreateCondBr(fast, ok, slow, likely());
        B.SetInsertPoint(slow);
        leave(instr_address(i));
        B.SetInsertPoint(ok);
        dst(op(in, 5), tagged);
        return true;
    }

    // fadd, fsub, fmul, fdiv with OTP's check: a result that is not finite is badarith, which
    // the interpreter raises when it runs the instruction again.
    template <Op opcode>
    bool float_arith(std::size_t i, const GenericInstr& in) {
        Value* a = B.CreateLoad(f64, float_reg(op(in, 1).value));
        Value* b = B.CreateLoad(f64, float_reg(op(in, 2).value));
        Value* r = opcode == Op::fadd   ? B.CreateFAdd(a, b)
                   : opcode == Op::fsub ? B.CreateFSub(a, b)
                   : opcode == Op::fmul ? B.CreateFMul(a, b)
                                    : B.CreateFDiv(a, b);
        Value* finite = B.CreateFCmpONE(B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, r), llvm::ConstantFP::getInfinity(f64));
        BasicBlock* ok = block(), *slow = block();
        B.CreateCondBr(finite, ok, slow, likely());
        B.SetInsertPoint(slow);
        leave(instr_address(i));
        B.SetInsertPoint(ok);
        B.CreateStore(r, float_reg(op(in, 3).value));
        return true;
    }

    // Calls a runtime function of jit/runtime.hpp with the native state in the process (as the
    // interpreter's SWAPOUT), and takes the state back after it.
    Value* call_runtime(const char* name, const void* fn, llvm::Type* result, std::vector<Value*> args) {
        B.CreateStore(E, field(m_off.stop));
        B.CreateStore(htop, field(m_off.htop));
        B.CreateStore(cp, field(m_off.cp));
        std::vector<llvm::Type*> types;
        for (Value* a : args) types.push_back(a->getType());
        auto* fn_ty = llvm::FunctionType::get(result, types, false);
        Value* r = B.CreateCall(fn_ty, runtime_address(name, fn), args);
        E = B.CreateLoad(ptr, field(m_off.stop));
        htop = B.CreateLoad(ptr, field(m_off.htop));
        cp = B.CreateLoad(ptr, field(m_off.cp));
        return r;
    }

    // True when [t] is boxed and its header word is [header].
    Value* is_boxed_with_header(Value* t, Word header) {
        BasicBlock* boxed = block(), *done = block();
        BasicBlock* from = B.GetInsertBlock();
        B.CreateCondBr(is_boxed(t), boxed, done);
        B.SetInsertPoint(boxed);
        Value* same = B.CreateICmpEQ(boxed_word(t, 0), word(header));
        B.CreateBr(done);
        B.SetInsertPoint(done);
        llvm::PHINode* phi = B.CreatePHI(llvm::Type::getInt1Ty(C), 2);
        phi->addIncoming(llvm::ConstantInt::getFalse(C), from);
        phi->addIncoming(same, boxed);
        return phi;
    }

    // Float register [n]: the scheduler's Registers::fr, at a fixed distance from its x array.
    Value* float_reg(Word n) {
        return B.CreateConstGEP1_64(llvm::Type::getInt8Ty(C), x,
                                    offsetof(Registers, fr) - offsetof(Registers, x) + n * sizeof(double));
    }

    Vm& m_vm;
    llvm::LLVMContext& C;
    llvm::Module& M;
    llvm::IRBuilder<> B;
    const GenericModule& g;
    const ThreadLayout& L;
    Arch m_arch;
    ProcessOffsets m_off;
    llvm::Type* i64;
    llvm::Type* f64;
    llvm::PointerType* ptr;
    llvm::FunctionType* resume_ty;
    Word* m_base;
    Word m_enter_word;
    std::vector<ResumePoint> m_points;
    std::vector<Function*> m_fns;                              // per resume point (null: none)
    std::string m_key;                                         // the module's identity (module_key)
    std::string m_prefix;                                      // "bjm.<key>." for its symbols
    std::vector<std::pair<std::string, Word>> m_absolutes;     // symbols the engine defines
    std::unordered_set<std::string> m_defined;
    std::unordered_map<Term, std::size_t> m_literal_index;
    BreakpointMode m_mode = BreakpointMode::Patch;
    const std::uint8_t* m_flags_base = nullptr;
    std::size_t m_flag_count = 0;

    std::unordered_map<Word, std::size_t> m_by_marker;        // marker offset -> m_points index
    // The current function's state.
    Value *p = nullptr, *x = nullptr, *E = nullptr, *htop = nullptr, *cp = nullptr, *reds = nullptr;
};

// ---- the emitters, one per row of vm/instructions.def flagged Native ----------------------------
//
// Each mirrors the interpreter's handler (vm/interpreter.cpp) for its fast path only.

// Moves and frames.

template <> bool Emitter::emit<Op::move>(std::size_t, const GenericInstr& in) {
    dst(op(in, 1), src(op(in, 0)));
    return true;
}
template <> bool Emitter::emit<Op::swap>(std::size_t, const GenericInstr& in) {
    Value* a = src(op(in, 0));
    Value* b = src(op(in, 1));
    dst(op(in, 0), b);
    dst(op(in, 1), a);
    return true;
}
template <> bool Emitter::emit<Op::init>(std::size_t, const GenericInstr& in) {
    dst(op(in, 0), word(NIL));
    return true;
}
template <> bool Emitter::emit<Op::init_yregs>(std::size_t, const GenericInstr& in) {
    for (Word k = 0; k < op(in, 0).value; ++k) dst(op(in, 1 + std::uint32_t(k)), word(NIL));
    return true;
}
template <> bool Emitter::emit<Op::allocate>(std::size_t i, const GenericInstr& in) {
    allocate(i, op(in, 0).value, 0);
    return true;
}
template <> bool Emitter::emit<Op::allocate_zero>(std::size_t i, const GenericInstr& in) {
    allocate(i, op(in, 0).value, 0);  // allocate sets the y registers to nil anyway
    return true;
}
template <> bool Emitter::emit<Op::allocate_heap>(std::size_t i, const GenericInstr& in) {
    allocate(i, op(in, 0).value, op(in, 1).value);
    return true;
}
template <> bool Emitter::emit<Op::allocate_heap_zero>(std::size_t i, const GenericInstr& in) {
    allocate(i, op(in, 0).value, op(in, 1).value);
    return true;
}
template <> bool Emitter::emit<Op::test_heap>(std::size_t i, const GenericInstr& in) {
    ensure_heap(i, op(in, 0).value);
    return true;
}
template <> bool Emitter::emit<Op::deallocate>(std::size_t, const GenericInstr& in) {
    drop_frame(op(in, 0).value);
    return true;
}
template <> bool Emitter::emit<Op::trim>(std::size_t, const GenericInstr& in) {
    Value* saved = B.CreateLoad(i64, E);
    E = B.CreateConstGEP1_64(i64, E, op(in, 0).value);
    B.CreateStore(saved, E);
    return true;
}

// Lists and tuples.

template <> bool Emitter::emit<Op::get_list>(std::size_t, const GenericInstr& in) {
    Value* cell = list_cell(src(op(in, 0)));
    Value* hd = B.CreateLoad(i64, cell);
    Value* tl = B.CreateLoad(i64, slot(cell, 1));
    dst(op(in, 1), hd);
    dst(op(in, 2), tl);
    return true;
}
template <> bool Emitter::emit<Op::get_hd>(std::size_t, const GenericInstr& in) {
    dst(op(in, 1), B.CreateLoad(i64, slot(list_cell(src(op(in, 0))), 0)));
    return true;
}
template <> bool Emitter::emit<Op::get_tl>(std::size_t, const GenericInstr& in) {
    dst(op(in, 1), B.CreateLoad(i64, slot(list_cell(src(op(in, 0))), 1)));
    return true;
}
template <> bool Emitter::emit<Op::put_list>(std::size_t, const GenericInstr& in) {
    Value* hd = src(op(in, 0));
    Value* tl = src(op(in, 1));
    B.CreateStore(hd, htop);
    B.CreateStore(tl, slot(htop, 1));
    Value* cons = B.CreateOr(B.CreatePtrToInt(htop, i64), word(TAG_PRIMARY_LIST));
    htop = B.CreateConstGEP1_64(i64, htop, 2);
    dst(op(in, 2), cons);
    return true;
}
template <> bool Emitter::emit<Op::get_tuple_element>(std::size_t, const GenericInstr& in) {
    dst(op(in, 2), boxed_word(src(op(in, 0)), op(in, 1).value + 1));
    return true;
}
template <> bool Emitter::emit<Op::put_tuple2>(std::size_t, const GenericInstr& in) {
    Word n = op(in, 1).value;
    std::vector<Value*> elems;
    for (Word k = 0; k < n; ++k) elems.push_back(src(op(in, 2 + std::uint32_t(k))));
    B.CreateStore(word(make_arityval(n)), htop);
    for (Word k = 0; k < n; ++k) B.CreateStore(elems[k], slot(htop, SWord(k + 1)));
    Value* tuple = B.CreateOr(B.CreatePtrToInt(htop, i64), word(TAG_PRIMARY_BOXED));
    htop = B.CreateConstGEP1_64(i64, htop, n + 1);
    dst(op(in, 0), tuple);
    return true;
}

// Calls and returns.

template <> bool Emitter::emit<Op::call>(std::size_t i, const GenericInstr& in) { return local_call<Op::call>(i, in); }
template <> bool Emitter::emit<Op::call_last>(std::size_t i, const GenericInstr& in) { return local_call<Op::call_last>(i, in); }
template <> bool Emitter::emit<Op::call_only>(std::size_t i, const GenericInstr& in) { return local_call<Op::call_only>(i, in); }
template <> bool Emitter::emit<Op::call_ext>(std::size_t i, const GenericInstr& in) { return remote_call<Op::call_ext>(i, in); }
template <> bool Emitter::emit<Op::call_ext_last>(std::size_t i, const GenericInstr& in) {
    return remote_call<Op::call_ext_last>(i, in);
}
template <> bool Emitter::emit<Op::call_ext_only>(std::size_t i, const GenericInstr& in) {
    return remote_call<Op::call_ext_only>(i, in);
}
// Guard BIFs, called in place.
template <> bool Emitter::emit<Op::bif0>(std::size_t i, const GenericInstr& in) { return guard_bif<0, 1>(i, in); }
template <> bool Emitter::emit<Op::bif1>(std::size_t i, const GenericInstr& in) { return guard_bif<1, 2>(i, in); }
template <> bool Emitter::emit<Op::bif2>(std::size_t i, const GenericInstr& in) { return guard_bif<2, 2>(i, in); }
template <> bool Emitter::emit<Op::gc_bif1>(std::size_t i, const GenericInstr& in) { return guard_bif<1, 3>(i, in); }
template <> bool Emitter::emit<Op::gc_bif2>(std::size_t i, const GenericInstr& in) { return guard_bif<2, 3>(i, in); }
template <> bool Emitter::emit<Op::gc_bif3>(std::size_t i, const GenericInstr& in) { return guard_bif<3, 3>(i, in); }

template <> bool Emitter::emit<Op::return_>(std::size_t, const GenericInstr&) {
    Value* to = cp;
    cp = llvm::ConstantPointerNull::get(ptr);
    goto_address(to);
    return false;
}

// Jumps and tests.

template <> bool Emitter::emit<Op::jump>(std::size_t, const GenericInstr& in) {
    goto_label(op(in, 0).value);
    return false;
}
template <> bool Emitter::emit<Op::select_val>(std::size_t, const GenericInstr& in) { return select<Op::select_val>(in); }
template <> bool Emitter::emit<Op::select_tuple_arity>(std::size_t, const GenericInstr& in) {
    return select<Op::select_tuple_arity>(in);
}
template <> bool Emitter::emit<Op::is_lt>(std::size_t i, const GenericInstr& in) { return order_test<Op::is_lt>(i, in); }
template <> bool Emitter::emit<Op::is_ge>(std::size_t i, const GenericInstr& in) { return order_test<Op::is_ge>(i, in); }
template <> bool Emitter::emit<Op::is_eq_exact>(std::size_t i, const GenericInstr& in) {
    return equality_test<Op::is_eq_exact>(i, in);
}
template <> bool Emitter::emit<Op::is_ne_exact>(std::size_t i, const GenericInstr& in) {
    return equality_test<Op::is_ne_exact>(i, in);
}
template <> bool Emitter::emit<Op::is_eq>(std::size_t i, const GenericInstr& in) { return equality_test<Op::is_eq>(i, in); }
template <> bool Emitter::emit<Op::is_ne>(std::size_t i, const GenericInstr& in) { return equality_test<Op::is_ne>(i, in); }
template <> bool Emitter::emit<Op::is_nil>(std::size_t i, const GenericInstr& in) {
    test(i, B.CreateICmpEQ(src(op(in, 1)), word(NIL)), op(in, 0).value);
    return true;
}
template <> bool Emitter::emit<Op::is_nonempty_list>(std::size_t i, const GenericInstr& in) {
    test(i, B.CreateICmpEQ(tag(src(op(in, 1)), TAG_PRIMARY_MASK), word(TAG_PRIMARY_LIST)), op(in, 0).value);
    return true;
}
template <> bool Emitter::emit<Op::is_atom>(std::size_t i, const GenericInstr& in) {
    test(i, B.CreateICmpEQ(tag(src(op(in, 1)), TAG_IMMED2_MASK), word(TAG_IMMED2_ATOM)), op(in, 0).value);
    return true;
}
template <> bool Emitter::emit<Op::is_integer>(std::size_t i, const GenericInstr& in) {
    // Small integers here; boxed terms (bignums or not) go to the interpreter.
    Value* t = src(op(in, 1));
    Value* known = B.CreateNot(is_boxed(t));
    test_or_leave(i, known, is_small(t), op(in, 0).value);
    return true;
}
template <> bool Emitter::emit<Op::is_float>(std::size_t i, const GenericInstr& in) {
    test(i, is_boxed_with_header(src(op(in, 1)), make_header(1, Subtag::Float)), op(in, 0).value);
    return true;
}
template <> bool Emitter::emit<Op::is_tuple>(std::size_t i, const GenericInstr& in) { return tuple_test<Op::is_tuple>(i, in); }
template <> bool Emitter::emit<Op::is_tagged_tuple>(std::size_t i, const GenericInstr& in) {
    return tuple_test<Op::is_tagged_tuple>(i, in);
}
template <> bool Emitter::emit<Op::test_arity>(std::size_t i, const GenericInstr& in) {
    // As the interpreter: the operand is known to be a tuple.
    Value* t = src(op(in, 1));
    test(i, B.CreateICmpEQ(boxed_word(t, 0), word(make_arityval(op(in, 2).value))), op(in, 0).value);
    return true;
}

// Integer and float arithmetic.

template <> bool Emitter::emit<Op::i_plus>(std::size_t i, const GenericInstr& in) { return small_arith<Op::i_plus>(i, in); }
template <> bool Emitter::emit<Op::i_minus>(std::size_t i, const GenericInstr& in) { return small_arith<Op::i_minus>(i, in); }
template <> bool Emitter::emit<Op::fmove>(std::size_t i, const GenericInstr& in) {
    const Operand& from = op(in, 0);
    const Operand& to = op(in, 1);
    if (to.kind == OperandKind::FloatReg && from.kind == OperandKind::Literal && !is_float(from.value))
        return interpret(i);  // not from erlc
    if (to.kind == OperandKind::FloatReg) {
        // From a float register, a float literal (its value is a constant) or a term the
        // compiler knows to be a float.
        Value* d = from.kind == OperandKind::FloatReg ? B.CreateLoad(f64, float_reg(from.value))
                   : from.kind == OperandKind::Literal ? llvm::ConstantFP::get(f64, float_value(from.value))
                                                      : B.CreateBitCast(boxed_word(src(from), 1), f64);
        B.CreateStore(d, float_reg(to.value));
    } else if (from.kind == OperandKind::FloatReg) {
        // A boxed float on the heap (a test_heap made room): [header][double].
        B.CreateStore(word(make_header(1, Subtag::Float)), htop);
        B.CreateStore(B.CreateLoad(f64, float_reg(from.value)), slot(htop, 1));
        Value* boxed = B.CreateOr(B.CreatePtrToInt(htop, i64), word(TAG_PRIMARY_BOXED));
        htop = B.CreateConstGEP1_64(i64, htop, FLOAT_WORDS);
        dst(to, boxed);
    } else {
        dst(to, src(from));
    }
    return true;
}
template <> bool Emitter::emit<Op::fconv>(std::size_t i, const GenericInstr& in) {
    // A float or a small integer; a bignum (or badarith) is the interpreter's.
    Value* t = src(op(in, 0));
    BasicBlock* small = block(), *other = block(), *is_flt = block(), *slow = block(), *done = block();
    B.CreateCondBr(is_small(t), small, other, likely());
    B.SetInsertPoint(small);
    Value* from_small = B.CreateSIToFP(B.CreateAShr(t, word(TAG_IMMED1_SIZE)), f64);
    B.CreateBr(done);
    B.SetInsertPoint(other);
    B.CreateCondBr(is_boxed_with_header(t, make_header(1, Subtag::Float)), is_flt, slow, likely());
    B.SetInsertPoint(slow);
    leave(instr_address(i));
    B.SetInsertPoint(is_flt);
    Value* from_float = B.CreateBitCast(boxed_word(t, 1), f64);
    B.CreateBr(done);
    B.SetInsertPoint(done);
    llvm::PHINode* d = B.CreatePHI(f64, 2);
    d->addIncoming(from_small, small);
    d->addIncoming(from_float, is_flt);
    B.CreateStore(d, float_reg(op(in, 1).value));
    return true;
}
template <> bool Emitter::emit<Op::fadd>(std::size_t i, const GenericInstr& in) { return float_arith<Op::fadd>(i, in); }
template <> bool Emitter::emit<Op::fsub>(std::size_t i, const GenericInstr& in) { return float_arith<Op::fsub>(i, in); }
template <> bool Emitter::emit<Op::fmul>(std::size_t i, const GenericInstr& in) { return float_arith<Op::fmul>(i, in); }
template <> bool Emitter::emit<Op::fdiv>(std::size_t i, const GenericInstr& in) { return float_arith<Op::fdiv>(i, in); }
template <> bool Emitter::emit<Op::fnegate>(std::size_t, const GenericInstr& in) {
    Value* a = B.CreateLoad(f64, float_reg(op(in, 1).value));
    B.CreateStore(B.CreateFSub(llvm::ConstantFP::get(f64, 0.0), a), float_reg(op(in, 2).value));  // -(0.0) is 0.0
    return true;
}

// Messages.

template <> bool Emitter::emit<Op::loop_rec>(std::size_t i, const GenericInstr& in) {
    // The message at the save pointer; with none, the interpreter fetches the inbox (and
    // traces 'receive') or jumps to the wait.
    Value* save = B.CreateLoad(ptr, field(m_off.queue_save));
    Value* node = B.CreateLoad(ptr, save);
    BasicBlock* have = block(), *none = block();
    B.CreateCondBr(B.CreateIsNotNull(node), have, none, likely());
    B.SetInsertPoint(none);
    leave(instr_address(i));
    B.SetInsertPoint(have);
    dst(op(in, 1), B.CreateLoad(i64, B.CreateConstGEP1_64(llvm::Type::getInt8Ty(C), node, m_off.node_term)));
    return true;
}
template <> bool Emitter::emit<Op::loop_rec_end>(std::size_t i, const GenericInstr& in) {
    // The save pointer past the current message, one reduction, back to loop_rec; the last
    // reduction is the interpreter's (it switches the process out).
    BasicBlock* go = block(), *out = block();
    B.CreateCondBr(B.CreateICmpSGT(reds, word(1)), go, out, likely());
    B.SetInsertPoint(out);
    leave(instr_address(i));
    B.SetInsertPoint(go);
    reds = B.CreateSub(reds, word(1));
    Value* save = B.CreateLoad(ptr, field(m_off.queue_save));
    Value* node = B.CreateLoad(ptr, save);
    B.CreateStore(B.CreateConstGEP1_64(llvm::Type::getInt8Ty(C), node, m_off.node_next), field(m_off.queue_save));
    goto_label(op(in, 0).value);
    return false;
}
template <> bool Emitter::emit<Op::remove_message>(std::size_t, const GenericInstr&) {
    call_runtime("remove_message", reinterpret_cast<const void*>(&beamlet_jit_remove_message), llvm::Type::getVoidTy(C), {p});
    return true;
}
template <> bool Emitter::emit<Op::send>(std::size_t i, const GenericInstr&) {
    // To a pid here; names, ports and aliases (which may raise or suspend) are the interpreter's.
    Value* sent = call_runtime("send", reinterpret_cast<const void*>(&beamlet_jit_send), llvm::Type::getInt1Ty(C), {p, x});
    BasicBlock* done = block(), *other = block();
    B.CreateCondBr(sent, done, other, likely());
    B.SetInsertPoint(other);
    leave(instr_address(i));
    B.SetInsertPoint(done);
    return true;
}

bool Emitter::emit_instruction(std::size_t i, const GenericInstr& in) {
    // Indexed by Op; expanded from the table, so a Native row never goes without its emitter.
    static constexpr std::array<InstrEmitter, OP_COUNT> EMITTERS = {
#define BEAMLET_OP(name, number, signature, flags) emitter_of<Op::name>(),
#include "vm/instructions.def"
#undef BEAMLET_OP
    };
    return (this->*EMITTERS[std::size_t(in.op)])(i, in);
}

}  // namespace

std::string module_key(const Module& module) {
    // FNV-1a over the module name and the .beam bytes it was loaded from (the code and its
    // layout follow from them). Purged code stays mapped with its symbols (vm.cpp), so the
    // same bytes loaded again in this run get a generation suffix: new names, compiled anew.
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&](const void* data, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) h = (h ^ static_cast<const std::uint8_t*>(data)[i]) * 1099511628211ull;
    };
    const std::string& name = vm::atom_text(module.name);
    mix(name.data(), name.size());
    mix(&module.content_hash, sizeof module.content_hash);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    static std::mutex mutex;
    static std::unordered_map<std::string, std::unordered_map<const Module*, unsigned>> loads;
    std::lock_guard lock(mutex);
    auto& instances = loads[hex];
    auto [it, fresh] = instances.try_emplace(&module, unsigned(instances.size()));
    (void)fresh;
    return it->second == 0 ? std::string(hex) : std::string(hex) + "g" + std::to_string(it->second);
}

CompiledModule compile_module(Vm& vm, Module& module, const GenericModule& code, const ThreadLayout& layout, Arch arch,
                              const std::string& triple, const std::string& data_layout, BreakpointMode mode,
                              const std::uint8_t* flags) {
    auto context = std::make_unique<llvm::LLVMContext>();
    auto ir = std::make_unique<llvm::Module>(vm::atom_text(module.name), *context);
    ir->setTargetTriple(triple);
    ir->setDataLayout(data_layout);
    Emitter emitter(vm, *context, *ir, module, code, layout, arch);
    emitter.set_key(module_key(module));
    emitter.set_breakpoints(mode, flags);
    CompiledModule out;
    out.points = emitter.run();
    out.absolutes = emitter.take_absolutes();
    ir->setModuleIdentifier(module_key(module));
    // BEAMLET_JIT_DUMP=DIR writes each module's IR to DIR/MODULE.ll (for llc / reading).
    if (const std::optional<std::string>& dir = vm::config().jit_dump) {
        std::error_code ec;
        llvm::raw_fd_ostream out_file(*dir + "/" + vm::atom_text(module.name) + ".ll", ec);
        if (!ec) ir->print(out_file, nullptr);
    }
    out.ir = llvm::orc::ThreadSafeModule(std::move(ir), std::move(context));
    return out;
}

llvm::orc::ThreadSafeModule runtime_module(const std::string& triple, const std::string& data_layout) {
    auto context = std::make_unique<llvm::LLVMContext>();
    auto ir = std::make_unique<llvm::Module>("beamlet_jit_runtime", *context);
    ir->setTargetTriple(triple);
    ir->setDataLayout(data_layout);
    llvm::LLVMContext& C = *context;
    auto* i64 = llvm::Type::getInt64Ty(C);
    auto* ptr = llvm::PointerType::getUnqual(C);
    auto* resume_ty = llvm::FunctionType::get(ptr, {ptr, ptr, ptr, ptr, ptr, i64}, false);
    // ptr bj.enter(ptr fn, ptr p, ptr x, ptr E, ptr htop, ptr cp, i64 reds): C calling
    // convention outside, tailcc inside.
    auto* enter_ty = llvm::FunctionType::get(ptr, {ptr, ptr, ptr, ptr, ptr, ptr, i64}, false);
    Function* enter = Function::Create(enter_ty, llvm::GlobalValue::ExternalLinkage, "bj.enter", *ir);
    llvm::IRBuilder<> B(BasicBlock::Create(C, "", enter));
    std::vector<Value*> args;
    auto it = enter->arg_begin();
    Value* fn = &*it++;
    for (; it != enter->arg_end(); ++it) args.push_back(&*it);
    llvm::CallInst* call = B.CreateCall(resume_ty, fn, args);
    call->setCallingConv(llvm::CallingConv::Tail);
    B.CreateRet(call);
    return llvm::orc::ThreadSafeModule(std::move(ir), std::move(context));
}

}  // namespace beamlet::jit
