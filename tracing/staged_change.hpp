// tracing/staged_change.hpp — the one driver of staged trace changes (breakpoints and the
// send / 'receive' patterns): seize the code modification permission, prepare and stage the
// change, then install, commit, uninstall, consolidate and free, each after a thread-progress
// wait, while the calling process is suspended and every other process keeps running.
// Mirrors erts_finish_breakpointing in OTP's erl_bif_trace.c; used by the trace
// BIFs and by session destroy.
#pragma once

#include <functional>
#include <memory>

#include "tracing/breakpoints.hpp"
#include "vm/process.hpp"

namespace beamlet::tracing {

// The steps after staging, in order.
enum class ChangeStep : std::uint8_t { Install, Commit, Uninstall, Consolidate, Free };

// Fills [change] (matches functions, compiles nothing: that is done before) for the process
// holding the permission; returns the BIF's result, or THE_NON_VALUE after raising.
using PrepareChange = std::function<vm::Term(vm::Process*, BreakpointChange&)>;

// Runs a staged change for the calling BIF of [p]: traps until [p] holds the code modification
// permission, lets [prepare] fill [change], stages it and runs the steps. The BIF returns what
// this returns; its final result is what [prepare] returned, once every step is done.
vm::Term run_staged_change(vm::Process* p, std::shared_ptr<BreakpointChange> change, PrepareChange prepare);

// What runs after the last step of a change made by a process that keeps the permission.
using AfterChange = std::function<vm::Term(vm::Process*)>;

// The steps of [change] (staged by the caller's [prepare]) for a process that already holds the
// code modification permission: after the last one, [then] runs, still holding it, and its
// result is the BIF's. Code loading clears breakpoints of replaced code with it.
vm::Term run_held_staged_change(vm::Process* p, std::shared_ptr<BreakpointChange> change, AfterChange then);

}  // namespace beamlet::tracing
