// vm/interpreter.hpp — the threaded-code interpreter: module installation and process execution.
#pragma once

#include <vector>

#include "vm/generic_code.hpp"
#include "vm/module.hpp"
#include "vm/process.hpp"
#include "vm/result.hpp"

namespace beamlet::vm {

struct Vm;

// Why run_process() returned.
enum class RunResult {
    Yield,    // out of reductions; runnable again
    Wait,     // waiting for a message (or a timeout)
    Exited,   // the process finished; p->exit_reason says why
    Suspended,  // a trapping BIF waits for its condition (p->suspend_for)
};

// Per-scheduler register file: the x registers and float registers of the running process.
struct Registers {
    Term x[MAX_X_REGS + 8];
    double fr[MAX_FLOAT_REGS];
};

// Runs [p] for one time slice.
RunResult run_process(Process* p, Registers& regs);

struct ThreadLayout;

// Threads [code] into interpreter code: builds the Module with its function headers. With a
// native-code engine, [layout] (if given) receives where each instruction and marker went.
Result<std::unique_ptr<Module>> thread_module(Vm& vm, const GenericModule& code, ThreadLayout* layout = nullptr);

// The threaded-code word of [op] (its handler address).
Word op_word(Op op);

// Gives [fe] its code ([code], or none for a stand-in) and its detour, and routes its calls
// to the first (or, without code, to the second).
void init_fun_entry(FunEntry& fe, const Word* code);


}  // namespace beamlet::vm
