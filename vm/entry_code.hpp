// vm/entry_code.hpp — the few words of threaded code that belong to no module: where a
// process's outermost frame returns, where a trapped BIF resumes, erlang:hibernate/3's
// wait-then-apply loop (trace frames' return code is vm/trace_frames.hpp's); and starting a
// process at a function.
#pragma once

#include <vector>

#include "vm/term.hpp"

namespace beamlet::vm {

struct Export;
struct Process;
struct Vm;

// The one instruction every process's outermost frame returns to (i_normal_exit).
const Word* normal_exit_code();
// The instruction a trapped process resumes at (i_trap_resume).
const Word* trap_resume_code();

// erlang:hibernate/3's wait-then-apply code, and whether [ip] is in it.
const Word* hibernate_code(Vm& vm);
bool in_hibernate_code(const Word* ip);

// Sets up [p] to call [export_entry] with [args] when it next runs.
void prepare_call(Process* p, const Export* export_entry, const std::vector<Term>& args);
void prepare_call(Process* p, const Export* export_entry, const Term* args, Word n);

// Sets up [p] to run the code at [address] with [args] in x registers.
void prepare_call_address(Process* p, const Word* address, const std::vector<Term>& args);

}  // namespace beamlet::vm
