// vm/stack_trace.hpp — stack traces as OTP builds them: the [{M, F, ArityOrArgs, Location}]
// list of a raised exception, of a process that is not running (process_info's
// current_stacktrace), and the bare return addresses of a call chain (process_dump).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "vm/term.hpp"

namespace beamlet::vm {

struct Process;

// How many frames a stacktrace keeps (erlang:system_flag(backtrace_depth, N); 8 by default, as
// in OTP). set_backtrace_depth returns the previous value.
int backtrace_depth();
int set_backtrace_depth(int depth);

// The stacktrace of [p]'s pending exception: the failing BIF (if any), the function at [I],
// the continuation [cp] and the frames on the stack from [E] up, at most backtrace_depth() (at
// least one); [x] holds
// the arguments of a function_clause.
Term build_stacktrace_list(Process* p, const Word* I, const Word* cp, const Term* E, const Term* x);

// process_info(P, current_stacktrace) for [p], not running (or asking about itself): the
// frames of its code position, continuation and stack, at most backtrace_depth().
Term current_stacktrace(Process* p);

// The return addresses of [p]'s call chain (its continuation and those saved on its stack),
// innermost first, at most [max]: process_dump's stack dump.
std::vector<const Word*> return_addresses(Process* p, std::size_t max);

// A source file name of a module's line table (UTF-8, as the Line chunk's atoms hold it) as
// the list of its characters, as in OTP's {file, Name} locations.
Term file_name_list(Process* p, const std::string& file);
// The same list in the literal arena, made once when a module is loaded, for stack traces to
// copy rather than decode.
Term file_name_literal(const std::string& file);
// [m]'s file [index] as a list on [p]'s heap (a copy of its literal when the loader made one).
struct Module;
Term module_file_name(Process* p, const Module* m, Word index);

// {A, B} and [I1, ..., In] on [p]'s heap (shared with the interpreter's exception code).
Term make_tuple2(Process* p, Term a, Term b);
Term list_from(Process* p, const Term* items, Word n);

}  // namespace beamlet::vm
