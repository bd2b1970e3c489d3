// tracing/call_stats.hpp — call_time and call_memory accounting: which function a process is
// being charged for in each session, and adding what it used to that function's table when it
// moves on (a call, a return, a schedule out). The tables themselves (CallTimeData) belong to
// the breakpoint generations (tracing/breakpoints.hpp). Mirrors the accounting half of beam_bp.c.
#pragma once

#include <atomic>

#include "vm/process.hpp"

namespace beamlet::vm {
struct GenericBp;
}

namespace beamlet::tracing {

// A traced function is named by its breakpoint chain: a function header's, or a BIF export's.
using BpChain = std::atomic<vm::GenericBp*>;

// [p]'s accounting in [session], created empty if missing (owner thread only).
vm::CallAccounting& accounting_of(vm::Process* p, vm::TraceSession* session);

// Charges what [p] used since the last event to the function it was in (with the calls to it
// not yet counted), then starts charging [next] (null: nothing), counting one call to it if
// [call]; returns the chain charged before. [memory]: call_memory, else call_time.
const BpChain* charge(vm::Process* p, vm::CallAccounting& a, bool memory, const BpChain* next, bool call);

// [p] is scheduled out ([out]) or in: time spent scheduled out is not charged.
void schedule_break(vm::Process* p, bool out);

}  // namespace beamlet::tracing
