// vm/breakpoint_site.hpp — where a function-entry breakpoint is switched on and off: the
// breakpoint instruction written over the first word of the function's threaded code (the
// interpreter), or the native-code engine's patch site (the JIT, VmServices::code_engine) when
// the function has a native entry. tracing/ decides what a hit does (its GenericBp chains);
// this decides where the breakpoint stands, for both engines (DESIGN.md §1: tracing/ and jit/
// meet here).
#pragma once

#include "vm/term.hpp"

namespace beamlet::vm {

class CodeEngine;
struct CodeInfo;

// The threaded code's breakpoint instruction (i_generic_breakpoint).
Word breakpoint_word();
// The one write running code can observe in a function's code: an aligned word store, as in
// OTP ("assume aligned word-size writes are atomic"). Readers execute the word with plain
// loads, so TSan is told nothing about it (the designed race).
void patch_code_word(Word* at, Word value);
Word read_code_word(const Word* at);

// True if [ci]'s threaded code starts with the breakpoint instruction.
bool threaded_breakpoint_set(const CodeInfo* ci);
// True if [ci]'s entry breakpoint is on: [engine]'s patch site when the function has a native
// entry, else the threaded code's word.
bool entry_breakpoint_set(const CodeEngine* engine, const CodeInfo* ci);
// Switches [ci]'s entry breakpoint on: [engine]'s patch site, or the breakpoint instruction
// over the first word (the threaded word then stays the native code's resume marker).
// Idempotent; under the code modification permission.
void arm_entry_breakpoint(CodeEngine* engine, const CodeInfo* ci);
// Switches it off; [original] is the first word the breakpoint stood over. Idempotent.
void disarm_entry_breakpoint(CodeEngine* engine, const CodeInfo* ci, Word original);

}  // namespace beamlet::vm
