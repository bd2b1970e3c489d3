// tracing/sessions.hpp — TraceSession: a set of trace settings with one tracer; the legacy
// session (session 0, named legacy, without a tracer of its own) serves erlang:trace/3,
// trace_pattern/2,3 and trace_info/2; the OTP 27 trace module creates the others (DESIGN.md §6).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "vm/term.hpp"
#include "vm/trace_hooks.hpp"

namespace beamlet::matchspec {
class MatchSpec;
}

namespace beamlet::tracing {
using matchspec::MatchSpec;

// A session's send or 'receive' pattern in one generation (OTP's send_tracing[ix] /
// receive_tracing[ix]): whether events of that kind are traced at all, and the match spec
// that selects them (null: all). Written in the staging generation under the code
// modification permission; running code reads the active one (tracing/staged_change.hpp).
struct MessagePattern {
    bool on = true;
    MatchSpec* ms = nullptr;
};

// A session's pattern for modules loaded from now on (trace_pattern(on_load, ...)): the kinds
// (tracing::BpFlags: local or global call tracing, meta, call_count, call_time, call_memory),
// the match specs (null: true; one reference each) and the meta tracer.
struct OnLoadPattern {
    std::uint32_t flags = 0;
    MatchSpec* ms = nullptr;
    MatchSpec* meta_ms = nullptr;
    vm::Term meta_tracer = 0;
};
}  // namespace beamlet::tracing

namespace beamlet::vm {

// beamlet's overload protection for a session (beyond OTP): at most [rate_max] events per
// [rate_ms] milliseconds, and no event while the tracer process has [max_queue] messages or
// more (0: no such limit). When a limit trips, events are dropped and counted; the session is
// paused (it delivers again once the window turns or the queue is down to half the limit) or
// stopped for good ([stop]).
struct TraceLimits {
    std::uint64_t rate_max = 0;
    std::uint64_t rate_ms = 0;
    std::uint32_t max_queue = 0;
    bool stop = false;
};

enum class OverloadState : std::uint8_t { Running, Paused, Stopped };

struct TraceSession {
    vm::Word id = 0;               // internal: 0 is the legacy session
    vm::Word weak_id = 0;          // the Id of the weak handle {Name, Id}: 0, 1, ... in creation order
    vm::Term name = 0;             // the atom legacy for the legacy session
    vm::Tracer tracer;             // none for the legacy session: each erlang:trace/3 names one
    // Flags and tracer given to new processes (erlang:trace(new, ...)), under [mutex]; changed
    // through tracing::set_new_procs_flags.
    std::mutex mutex;
    std::uint32_t new_procs_flags = 0;
    vm::Tracer new_procs_tracer;
    // The same for new ports (erlang:trace(new_ports, ...), trace:port(S, new, ...)).
    std::uint32_t new_ports_flags = 0;
    vm::Tracer new_ports_tracer;
    // The on_load pattern: set on every function of modules loaded from now on. Under [mutex].
    tracing::OnLoadPattern on_load;
    // The send and 'receive' patterns, one per breakpoint generation.
    tracing::MessagePattern send_pattern[2];
    tracing::MessagePattern receive_pattern[2];
    std::atomic<bool> alive{true};
    // Overload protection: [limited] is the fast test delivery makes; the limits are written
    // under [mutex] before it is set; the counters and the state move as events go out.
    std::atomic<bool> limited{false};
    TraceLimits limits;
    std::atomic<std::uint64_t> delivered{0}, dropped{0};
    std::atomic<std::int64_t> window_start_ms{0};
    std::atomic<std::uint64_t> window_count{0};
    std::atomic<OverloadState> overload{OverloadState::Running};
};

}  // namespace beamlet::vm

namespace beamlet::tracing {

// The legacy session used by erlang:trace/3, trace_pattern/2,3 and trace_info/2.
vm::TraceSession& legacy_session();

// A new session named [name] with [tracer] (trace:session_create/3).
vm::TraceSession* create_session(vm::Term name, vm::Tracer tracer);
// The live session whose weak handle is {[name], [weak_id]}, or null.
vm::TraceSession* find_session(vm::Term name, vm::Word weak_id);
// Every live session, the legacy one included.
std::vector<vm::TraceSession*> live_sessions();
// Sets ([on]) or clears [flags] in [session]'s flags for new processes, with [tracer] when
// setting. Keeps the count of sessions that have any (OTP's erts_new_procs_trace_cnt).
void set_new_procs_flags(vm::TraceSession* session, std::uint32_t flags, vm::Tracer tracer, bool on);
// How many live sessions give new processes flags: spawn skips the sessions when 0.
int new_procs_sessions();
// The same for new ports (open_port).
void set_new_ports_flags(vm::TraceSession* session, std::uint32_t flags, vm::Tracer tracer, bool on);
int new_ports_sessions();
// Marks [session] dead: it can no longer be found. Session objects are never freed (a
// GenericBp may still name it until consolidation; they are small).
void retire_session(vm::TraceSession* session);
// Whether any session besides the legacy one is alive: a program that uses OTP 27's trace
// module gets OTP 27's rules where they differ from erl 25's (set_on_link through link/1).
bool sessions_in_use();

}  // namespace beamlet::tracing
