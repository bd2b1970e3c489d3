// tools/cli_trace.hpp — `beamlet trace` and `beamlet profile`: a program traced from the
// command line in a trace session of its own, so that it never disturbs a program that traces
// itself.
//
// With --node, the traced processes are another node's (beamlet or erl): this VM becomes a
// hidden node, and OTP's dbg traces the nodes, its relay on each sending the trace messages
// here (cli_trace_event/1), where they are written as the VM's own events would be.
//
// The Erlang half (bif/lib/beamlet_cli_trace.erl) runs inside the VM: it compiles the call
// patterns to match specs, creates the session with this file's native tracer module
// `beamlet_cli_tracer` as its tracer, selects the processes, starts the program, and ends the
// trace (limits, the program's end). This half receives the events: on the thread of each
// event it only copies the event's terms into a heap fragment and queues them (as delivering a
// trace message to a process would cost); a writer thread formats them as they come — OTP-like
// text, JSON lines, Chrome's Trace Event format — or collects them for the pictures drawn at
// the end (a sequence diagram, a flame graph). Output is written as it happens: an interrupted
// run leaves complete files up to the interruption.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace beamlet::vm {
struct Vm;
}

namespace beamlet::tools {

enum class TraceFormat : std::uint8_t { Text, Json, Chrome, Sequence, Flame };

// What `beamlet trace` / `beamlet profile` was asked to do.
struct CliTraceOptions {
    bool profile = false;               // beamlet profile: call_count/call_time/call_memory tables
    std::vector<std::string> patterns;  // call patterns ('m:f/2', 'm:f(X) when X > 1 -> return')
    std::string procs = "main";         // main (and what it spawns), all, new, or a registered name
    std::vector<std::string> nodes;     // --node: trace these running nodes instead of a program
    std::vector<std::string> events;    // send, receive, procs, running, gc, seq_trace, ports
    bool global = false;                // global call patterns (remote calls only) instead of local
    TraceFormat format = TraceFormat::Text;
    std::string output;                 // a file; empty: stdout (text, json) or a default name
    std::uint64_t max_events = 0;       // stop after this many events (0: no limit)
    std::uint64_t rate_max = 0;         // stop when more than rate_max events come in rate_ms
    std::uint64_t rate_ms = 0;
    std::uint64_t time_limit_ms = 0;    // stop tracing after this long
    bool progress = false;              // a progress line on stderr
    unsigned depth = 30;                // terms printed as ~P with this depth (0: no limit)
    bool per_process = false;           // profile: a table per process
    std::string sort = "time";          // profile: time, calls, memory, name
};

// The format named [name] (text, json, chrome, seq, flame); false if there is none.
bool parse_trace_format(const std::string& name, TraceFormat* out);

class CliTrace {
public:
    CliTrace(vm::Vm& vm, CliTraceOptions options);
    ~CliTrace();
    CliTrace(const CliTrace&) = delete;
    CliTrace& operator=(const CliTrace&) = delete;

    // Registers the native tracer module and the BIFs the Erlang half calls
    // (beamlet:cli_trace_spec/0, cli_trace_note/1, cli_trace_finish/1). Before the run.
    void install();
    // Writes out everything received so far (SIGINT: the files stay complete and valid).
    void flush();
    // The output file could not be opened (or written): the run fails with this message.
    const std::string& error() const;

    struct Impl;

private:
    std::unique_ptr<Impl> m_impl;
};

}  // namespace beamlet::tools
