// vm/entry_code.cpp — code words that belong to no module (see entry_code.hpp).
#include "vm/entry_code.hpp"

#include <mutex>

#include "vm/atom_table.hpp"
#include "vm/interpreter.hpp"
#include "vm/trace_frames.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

const Word* normal_exit_code() {
    static const Word code[1] = {op_word(Op::i_normal_exit)};
    return code;
}

const Word* trace_return_code() {
    static const Word code[1] = {op_word(Op::i_trace_return)};
    return code;
}

const Word* trap_resume_code() {
    static const Word code[1] = {op_word(Op::i_trap_resume)};
    return code;
}

namespace {
// erlang:hibernate/3's code: loop_rec (no message: to wait) x3; call_ext_only 0
// beamlet:hibernate_wake/0, which calls M:F(A) from the one frame on the stack; wait (back to
// loop_rec). The woken process calls M:F(A) with the message still in its queue.
Word g_hibernate_code[8];
}  // namespace

const Word* hibernate_code(Vm& vm) {
    static std::once_flag once;
    std::call_once(once, [&] {
        Word* code = g_hibernate_code;
        code[0] = op_word(Op::loop_rec);
        code[1] = reinterpret_cast<Word>(&code[6]);
        code[2] = 3 * sizeof(Term);
        code[3] = op_word(Op::call_ext_only);
        code[4] = 0;
        code[5] = reinterpret_cast<Word>(vm.exports.get(atom("beamlet"), atom("hibernate_wake"), 0));
        code[6] = op_word(Op::wait);
        code[7] = reinterpret_cast<Word>(&code[0]);
    });
    return g_hibernate_code;
}

bool in_hibernate_code(const Word* ip) { return ip >= g_hibernate_code && ip < g_hibernate_code + 8; }

void prepare_call(Process* p, const Export* e, const std::vector<Term>& args) {
    prepare_call_address(p, e->address(), args);
}

void prepare_call(Process* p, const Export* e, const Term* args, Word n) {
    p->ip = e->address();
    p->cp = normal_exit_code();
    p->saved_x.assign(args, args + n);
    p->arity = n;
}

void prepare_call_address(Process* p, const Word* address, const std::vector<Term>& args) {
    p->ip = address;
    p->cp = normal_exit_code();
    p->saved_x = args;
    p->arity = args.size();
}

}  // namespace beamlet::vm
