// tracing/code_change.hpp — tracing's part in code loading: when a module's current code is
// replaced or deleted, every session's breakpoints on it (functions and exports) are cleared
// first, as OTP's finish_loading does, but through the staged sequence (thread-progress waits,
// no stop-the-world): other processes keep running while the module is swapped. The new code
// then gets the on_load patterns only (vm::TraceHooks::module_loading).
#pragma once

#include "tracing/staged_change.hpp"

namespace beamlet::tracing {

// For a process holding the code modification permission: clears every session's trace
// patterns on the current code of [module], then runs [then] (still holding it), whose result
// is the BIF's. With nothing traced, [then] runs at once.
vm::Term clear_module_tracing(vm::Process* p, vm::Term module, AfterChange then);

}  // namespace beamlet::tracing
