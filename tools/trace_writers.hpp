// tools/trace_writers.hpp — the outputs of `beamlet trace`: one writer per format, fed the
// events in order by one thread (tools/cli_trace.cpp). Text and JSON lines and the Chrome
// trace are written as events come; the sequence diagram and the flame graph are drawn when
// the trace ends (tools/svg_render.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tools/cli_trace.hpp"
#include "vm/heap.hpp"
#include "vm/term.hpp"

namespace beamlet::vm {
struct Vm;
}

namespace beamlet::tools {

// One trace event as the tracer received it: trace(Tag, _, Tracee, Term, #{extra => Extra}),
// its terms copied into [fragment] (the writer frees it).
struct TraceRecord {
    std::int64_t ns = 0;          // since the trace began
    vm::Term tag = 0;             // call, return_from, send, 'receive', spawn, in, gc_minor_start, ...
    vm::Term tracee = 0;          // a pid, a port, or a seq_trace label
    vm::Term term = 0;            // the fourth element of OTP's trace tuple
    vm::Term extra = 0;           // the fifth (0: none)
    vm::Term to_pid = 0;          // a send to a registered name: the pid it named then (0: none)
    int scheduler = 0;
    vm::HeapFragment* fragment = nullptr;
    // Names found on the event's thread for pids met there for the first time (the writer may
    // come to them after they exited): {pid, name}, the name empty when there is none.
    std::vector<std::pair<vm::Term, std::string>> names;
};

// The display name of process [pid] now: "main", its registered name, its initial call
// (m:f/a; not for funs), or empty; nothing if there is no such process (yet, or any more).
std::optional<std::string> process_name(vm::Vm& vm, vm::Term pid);

class TraceWriter {
public:
    virtual ~TraceWriter() = default;
    // One event, in order (the writer thread).
    virtual void event(const TraceRecord& r) = 0;
    // Text that is not an event (beamlet profile's tables), from any thread.
    virtual void raw(const std::string& text) = 0;
    // Whether every traced call is followed by its return (or exception) event: the text
    // writer indents by call depth then. Before the first event.
    virtual void calls_return(bool) {}
    // Writes out what is buffered.
    virtual void flush() = 0;
    // The trace is over: closes the output (a Chrome trace's array, a picture). Returns a
    // short summary for stderr ("written to FILE").
    virtual std::string finish() = 0;
};

// The writer for [options]' format and output; null with [*error] set when the output cannot
// be opened.
std::unique_ptr<TraceWriter> make_trace_writer(vm::Vm& vm, const CliTraceOptions& options, std::string* error);

}  // namespace beamlet::tools
