// vm/breakpoint_site.cpp — function-entry breakpoints in threaded code and native patch sites.
#include "vm/breakpoint_site.hpp"

#include "vm/code_engine.hpp"
#include "vm/interpreter.hpp"
#include "vm/module.hpp"

namespace beamlet::vm {

namespace {
Word* first_instruction(const CodeInfo* ci) { return const_cast<Word*>(ci->code()); }
}  // namespace

Word breakpoint_word() { return op_word(Op::i_generic_breakpoint); }

__attribute__((no_sanitize("thread"))) void patch_code_word(Word* at, Word value) {
    __atomic_store_n(at, value, __ATOMIC_RELEASE);
}

__attribute__((no_sanitize("thread"))) Word read_code_word(const Word* at) {
    return __atomic_load_n(at, __ATOMIC_ACQUIRE);
}

bool threaded_breakpoint_set(const CodeInfo* ci) { return read_code_word(ci->code()) == breakpoint_word(); }

bool entry_breakpoint_set(const CodeEngine* engine, const CodeInfo* ci) {
    if (engine)
        if (int state = engine->breakpoint_state(ci); state >= 0) return state == 1;
    return threaded_breakpoint_set(ci);
}

void arm_entry_breakpoint(CodeEngine* engine, const CodeInfo* ci) {
    if (engine && engine->set_breakpoint(ci, true)) return;
    if (!threaded_breakpoint_set(ci)) patch_code_word(first_instruction(ci), breakpoint_word());
}

void disarm_entry_breakpoint(CodeEngine* engine, const CodeInfo* ci, Word original) {
    if (engine && engine->set_breakpoint(ci, false)) return;
    if (threaded_breakpoint_set(ci)) patch_code_word(first_instruction(ci), original);
}

}  // namespace beamlet::vm
