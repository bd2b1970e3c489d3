// vm/services.hpp — VmServices: the one seam out of vm/. Everything vm/ needs from a layer above
// it (tracing, the native-code engine, NIFs, the term printer, process_info, ETS) is a member
// here, owned by the Vm and filled in by the composition root (tools/boot.cpp) before the first
// process runs (DESIGN.md §1). A null member means that layer is not wired (unit tests of vm/
// alone): each call site says what happens then.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "vm/term.hpp"

namespace beamlet::vm {

class CodeEngine;
class TraceHooks;
struct CodeInfo;
struct MonitorEntry;
struct Port;
struct Process;
struct Vm;

// Calls native code compiled for a resume point (the interpreter's i_jit_enter).
using JitEntryFn = const Word* (*)(const void* fn, Process* p, Term* x, Term* E, Term* htop, const Word* cp,
                                   SWord reds);
// Calls the NIF bound to the function of [ci] with [p]'s x registers (the i_call_nif
// instruction). The result, or THE_NON_VALUE after p->raise().
using NifCallFn = Term (*)(Process* p, const CodeInfo* ci, Term* x);
// Prints [t] as ~p does, continuing at [column] (crash reports, process dumps).
using TermPrinterFn = std::string (*)(Term t, int column);
// Answers a process_info request {Ref, Item} from [from] about [p] (null: [p] is dead), on
// [p]'s thread.
using InfoRequestFn = void (*)(Vm& vm, Process* p, Term from, Term request);

// A layer's state that lives as long as the VM and must hear of exiting processes that used it
// (ETS: its table registry; a process that owned or fixed a table has Process::ets_user set).
class ProcessResources {
public:
    virtual ~ProcessResources() = default;
    // [p] is exiting, on its own thread, before its links and monitors hear of it. What is
    // left to do comes back as work a slice at a time (true once done; null: nothing left),
    // done by the exiting process scheduled out in between, as OTP's exit deletes tables.
    virtual std::function<bool()> process_exited(Process* p) = 0;
};

// A layer's state that lives as long as the VM (bif/persistent_term.cpp: the stored terms).
class VmResource {
public:
    virtual ~VmResource() = default;
};

// The I/O layer (io/): the VM's standard output and the poller behind ports' descriptors.
class IoServices {
public:
    virtual ~IoServices() = default;
    // Writes [bytes] to [fd] (1 or 2), in order with everything else written there.
    virtual void write(int fd, std::string_view bytes) = 0;
    // Writes out what is buffered for fd 1.
    virtual void flush() = 0;
    // flush(), cheaply skipped when nothing is buffered (a scheduler going idle).
    virtual void flush_if_pending() = 0;
    // No descriptor readiness is reported any more (VM exit, once the ports are closed and
    // before the schedulers go). Idempotent.
    virtual void stop() = 0;
    // Reports the readiness that is there now, without waiting (a scheduler about to sleep
    // looks itself, as OTP's schedulers poll: the I/O thread's wake-up is off the path).
    // False if another thread is looking already.
    virtual bool poll_now() { return false; }
};

// A distribution channel as its port knows it: set on the port by erlang:setnode/3, which
// makes the port's input packets the distribution's (DistServices::input).
class DistChannel {
public:
    virtual ~DistChannel() = default;
};

// The distribution layer (dist/): what reaches another node. Every signal a local process
// sends to a remote one goes through here: the VM and the BIFs call it where the target is
// another node's pid, name or alias; it turns them into control messages on the connection,
// setting one up first if there is none (OTP's auto-connect), and turns what arrives into the
// signals local processes get.
class DistServices {
public:
    virtual ~DistServices() = default;
    // [msg] from [sender] (null: the runtime) to another node's pid or alias [to], or to the
    // name [to] registered on [node] (0 for a pid or alias). [token]: the seq_trace token the
    // message carries (0 or NIL: none). True when the connection is busy (its queue past
    // OTP's dist_buf_busy_limit) and [sender], with [may_wait], is to wait until it is not:
    // the message went, and the sender is resumed (Vm::resume_suspended) later.
    virtual bool send(Process* sender, Term to, Term node, Term msg, Term token, bool may_wait) = 0;
    // An exit signal from local [from] to another node's pid [to]: a link's ([linked], the
    // sender exited) or exit/2's.
    virtual void exit_signal(Term from, Term to, Term reason, bool linked, Term token) = 0;
    // link/1 from [p] to another node's pid [to] (stable_external): false when the node cannot
    // be reached (the caller then gets noconnection, as OTP's).
    virtual bool link(Process* p, Term to) = 0;
    // unlink/1 from [p] of another node's pid [to].
    virtual void unlink(Process* p, Term to) = 0;
    // A monitor [m] (as [p] holds it: m.node the target's node, m.other the target pid or 0
    // for a name) on another node: false when the node cannot be reached.
    virtual bool monitor(Process* p, const MonitorEntry& m) = 0;
    // [p] drops its monitor [m] on another node (demonitor, or [p]'s exit).
    virtual void demonitor(Term watcher, const MonitorEntry& m) = 0;
    // Local [who] is gone (with [reason]): the monitor [m] a remote process held on it fires.
    virtual void monitor_exit(const MonitorEntry& m, Term who, Term reason) = 0;
    // group_leader(Leader, Pid) for another node's pid [pid], from [from].
    virtual void group_leader(Term from, Term leader, Term pid) = 0;
    // The turn of a distribution port whose output queue has packets: they are written.
    virtual void output(Port& port) = 0;
    // A packet read from a distribution port (setnode/3 set its channel), in the port's turn.
    virtual void input(Port& port, std::string_view packet) = 0;
    // The port of [channel] closed with [reason]: its connection is down.
    virtual void channel_closed(const std::shared_ptr<DistChannel>& channel, Term reason) = 0;
};

struct VmServices {
    // tracing/: breakpoints reached by running code, process, port and seq_trace events
    // (vm/trace_hooks.hpp). Null: nothing is traced.
    TraceHooks* trace = nullptr;
    // The native-code engine (--engine jit), or null: modules are only interpreted.
    CodeEngine* code_engine = nullptr;
    // Set by the native-code engine when it starts, before any module has native code.
    JitEntryFn jit_entry = nullptr;
    // nif/: runs NIFs bound to functions (set when NIFs are installed).
    NifCallFn nif_call = nullptr;
    // bif/: the term printer. Null: crash reports are not written, terms print as "?".
    TermPrinterFn print_term = nullptr;
    // bif/: process_info requests. Null: requests get no answer.
    InfoRequestFn answer_info_request = nullptr;
    // ets/: the tables, which end with the VM.
    std::unique_ptr<ProcessResources> ets;
    // bif/: persistent_term's terms; they go before the tables (an ETS table id stored as a
    // persistent term, as rpc stores its nodes observer's, is a reference to its table).
    std::unique_ptr<VmResource> persistent_terms;
    // io/: standard input and output, the poller and the drivers' shared state. Null: output
    // goes straight to the descriptors, unbuffered, and no port can be opened.
    std::unique_ptr<IoServices> io;
    // dist/: other nodes. Null: this node cannot be distributed (signals to other nodes are
    // lost, as OTP's when no connection can be made).
    std::unique_ptr<DistServices> dist;

    // [t] printed by print_term, or "?" when no printer is wired.
    std::string show(Term t, int column = 0) const { return print_term ? print_term(t, column) : std::string("?"); }
};

}  // namespace beamlet::vm
