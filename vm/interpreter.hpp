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

// Sets up [p] to call [export_entry] with [args] when it next runs.
void prepare_call(Process* p, const Export* export_entry, const std::vector<Term>& args);
void prepare_call(Process* p, const Export* export_entry, const Term* args, Word n);

// Sets up [p] to run the code at [address] with [args] in x registers.
void prepare_call_address(Process* p, const Word* address, const std::vector<Term>& args);

// The threaded-code word of [op] (its handler address).
Word op_word(Op op);

// erlang:hibernate/3's wait-then-apply code, and whether [ip] is in it.
const Word* hibernate_code(Vm& vm);
bool in_hibernate_code(const Word* ip);

// process_info(P, current_stacktrace) for [p], not running (or asking about itself): the
// frames of its code position, continuation and stack, at most 8.
Term current_stacktrace(Process* p);

// The return addresses of [p]'s call chain (its continuation and those saved on its stack),
// innermost first, at most [max]: process_dump's stack dump.
std::vector<const Word*> return_addresses(Process* p, std::size_t max);

}  // namespace beamlet::vm
