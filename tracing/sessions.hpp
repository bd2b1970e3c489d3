// tracing/sessions.hpp — TraceSession: a set of trace settings with one tracer; the legacy
// session serves erlang:trace/3 and trace_pattern (DESIGN.md §6). OTP 27's trace module
// sessions come next; the legacy session is session 0.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "vm/term.hpp"

namespace beamlet::tracing {
class MatchSpec;
}

namespace beamlet::vm {

struct TraceSession {
    vm::Word id = 0;               // internal: 0 is the legacy session
    vm::Word weak_id = 0;          // the Id of the weak handle {Name, Id}: 0, 1, ... in creation order
    vm::Term name = 0;             // the atom legacy for the legacy session
    vm::Term tracer = 0;           // 0 for the legacy session: each erlang:trace/3 names one
    // Flags and tracer given to new processes (erlang:trace(new, ...)), under [mutex].
    std::mutex mutex;
    std::uint32_t new_procs_flags = 0;
    vm::Term new_procs_tracer = 0;
    // The on_load pattern (tracing::BPF_LOCAL_TRACE or BPF_GLOBAL_TRACE): set on every
    // function of modules loaded from now on. Under [mutex].
    std::uint32_t on_load_flags = 0;
    tracing::MatchSpec* on_load_ms = nullptr;  // its match spec (null: true); one reference
    std::atomic<bool> alive{true};
};

}  // namespace beamlet::vm

namespace beamlet::tracing {

// The legacy session used by erlang:trace/3, trace_pattern/2,3 and trace_info/2.
vm::TraceSession& legacy_session();

// A new session named [name] with [tracer] (trace:session_create/3).
vm::TraceSession* create_session(vm::Term name, vm::Term tracer);
// The live session whose weak handle is {[name], [weak_id]}, or null.
vm::TraceSession* find_session(vm::Term name, vm::Word weak_id);
// Every live session, the legacy one included.
std::vector<vm::TraceSession*> live_sessions();
// Marks [session] dead: it can no longer be found. Session objects are never freed (a
// GenericBp may still name it until consolidation; they are small).
void retire_session(vm::TraceSession* session);

}  // namespace beamlet::tracing
