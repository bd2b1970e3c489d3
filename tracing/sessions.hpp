// tracing/sessions.hpp — TraceSession: a set of trace settings with one tracer; the legacy
// session serves erlang:trace/3 and trace_pattern (DESIGN.md §6). OTP 27's trace module
// sessions come next; the legacy session is session 0.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

#include "vm/term.hpp"

namespace beamlet::vm {

struct TraceSession {
    vm::Word id = 0;
    vm::Term name = 0;             // the atom legacy for the legacy session
    vm::Term tracer = 0;           // 0 for the legacy session: each erlang:trace/3 names one
    // Flags and tracer given to new processes (erlang:trace(new, ...)), under [mutex].
    std::mutex mutex;
    std::uint32_t new_procs_flags = 0;
    vm::Term new_procs_tracer = 0;
};

}  // namespace beamlet::vm

namespace beamlet::tracing {

// The legacy session used by erlang:trace/3, trace_pattern/2,3 and trace_info/2.
vm::TraceSession& legacy_session();

}  // namespace beamlet::tracing
