// tracing/events.cpp — send, 'receive', procs, scheduling and GC events.
//
// Event terms are built in C++ arrays and copied into the trace message by delivery, so no
// event touches a process heap except where a message match spec builds its result.
#include "tracing/events.hpp"

#include "tracing/breakpoints.hpp"
#include "tracing/call_trace.hpp"
#include "tracing/delivery.hpp"
#include "matchspec/match_spec.hpp"
#include "tracing/process_flags.hpp"
#include "tracing/sessions.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/entry_code.hpp"
#include "vm/module.hpp"
#include "vm/node.hpp"
#include "vm/vm.hpp"

namespace beamlet::tracing {

using namespace vm;

namespace {

// Runs a message pattern's match spec on [args] for [p]; false when the event is not traced,
// else [extra] gets the {message, X} value (0: none). [silent_applies]: the process's silent
// flag suppresses the event (only when there is a match spec, as in OTP).
bool run_message_pattern(Vm& vm, Process* p, const TracerRef& ref, const MessagePattern& pattern, Term* args,
                         Word n, Term* extra) {
    *extra = 0;
    if (!pattern.on) return false;
    if (!pattern.ms) return true;
    TraceActions actions(vm, ref.session);
    MatchSpec::Result r = pattern.ms->run(p, args, n, actions);
    std::uint32_t flags = actions.changed ? process_trace_ref(p, ref.session).flags : ref.flags;
    if (flags & TRACE_SILENT) return false;
    if (!r.matched || r.message == atoms::false_) return false;
    if (r.message != atoms::true_) *extra = r.message;
    return true;
}

// {M, F, Arity} of the function [p] is in (where it resumes), or 0 if it cannot be told.
// A process that has not run yet is in its initial call, as OTP reports it (a fun is started
// through erlang:apply/2).
struct CurrentFunction {
    Term words[4] = {make_arityval(3), 0, 0, 0};
    Term term = make_small(0);

    explicit CurrentFunction(Process* p) {
        if (!p->ever_ran) {
            if (p->initial_call[0]) set(p->initial_call[0], p->initial_call[1], p->initial_call[2]);
            return;
        }
        if (!p->ip) return;
        if (p->ip == trap_resume_code() && p->trapped_in) {  // in a trapping BIF
            set(p->trapped_in->module, p->trapped_in->function, make_small(SWord(p->trapped_in->arity)));
            return;
        }
        if (const Module* m = p->vm.module_containing(p->ip))
            if (const FunctionInfo* f = m->function_at(p->ip)) set(m->name, f->name, make_small(SWord(f->arity)));
    }
    void set(Term m, Term f, Term a) {
        words[1] = m;
        words[2] = f;
        words[3] = a;
        term = make_boxed(words);
    }
};

// Words of off-heap binaries referenced from [p]'s young heap ([old]: from the old heap).
Word binary_words(Process* p, bool old) {
    Word bytes = 0;
    for (Term* bin = p->off_heap_first; bin; bin = reinterpret_cast<Term*>(bin[4])) {
        bool on_old = bin >= p->old_heap && bin < p->old_hend;
        if (on_old == old) bytes += bin[1];
    }
    return (bytes + sizeof(Word) - 1) / sizeof(Word);
}

// OTP's binary virtual heap sizes (BIN_VH_MIN_SIZE): beamlet does not grow them.
constexpr Word BIN_VHEAP_BLOCK_WORDS = 46422;

}  // namespace

void trace_send(Vm& vm, Process* sender, Term to, Term msg, bool exists) {
    unsigned ix = active_bp_index();
    for_each_ref(sender, TRACE_SEND, [&](const TracerRef& ref) {
        Term args[2] = {to, msg};
        Term extra;
        if (!run_message_pattern(vm, sender, ref, ref.session->send_pattern[ix], args, 2, &extra)) return;
        TraceEvent e{sender->id, exists ? atoms::send : atoms::send_to_non_existing_process, {msg, to}, extra};
        deliver_for(vm, sender, ref, e);
    });
}

void trace_receive(Vm& vm, Process* p, Term sender, Term msg) {
    unsigned ix = active_bp_index();
    for_each_ref(p, TRACE_RECEIVE, [&](const TracerRef& ref) {
        // [SenderNode, Sender, Msg]: a local sender with this node's name; a message from
        // another node with that node's name and no sender (erts keeps only the node of a
        // distribution message); one from the runtime from this node, sender undefined.
        Term args[3] = {this_node().name, sender ? sender : atoms::undefined, msg};
        if (is_external(sender)) args[0] = node_of(sender).name, args[1] = atoms::undefined;
        Term extra;
        if (!run_message_pattern(vm, p, ref, ref.session->receive_pattern[ix], args, 3, &extra)) return;
        deliver_for(vm, p, ref, TraceEvent{p->id, atoms::receive, {msg, 0}, extra});
    });
}

void trace_receive_timeout(Vm& vm, Process* p) {
    unsigned ix = active_bp_index();
    for_each_ref(p, TRACE_RECEIVE, [&](const TracerRef& ref) {
        // OTP matches a timeout as a message from the clock service.
        Term args[3] = {atoms::clock_service, atoms::undefined, atoms::timeout};
        Term extra;
        if (!run_message_pattern(vm, p, ref, ref.session->receive_pattern[ix], args, 3, &extra)) return;
        deliver_for(vm, p, ref, TraceEvent{p->id, atoms::receive, {atoms::timeout, 0}, extra});
    });
}

void trace_proc(Vm& vm, Process* p, Term what, Term arg, Term arg2) {
    for_each_ref(p, TRACE_PROCS, [&](const TracerRef& ref) {
        deliver_for(vm, p, ref, TraceEvent{p->id, what, {arg, arg2}});
    });
}

void trace_proc_to(Vm& vm, Process* p, const std::vector<TracerRef>& refs, Term what, Term arg) {
    for (const TracerRef& ref : refs) deliver_for(vm, p, ref, TraceEvent{p->id, what, {arg, 0}});
}

void trace_sched(Vm& vm, Process* p, SchedEvent event) {
    static constexpr Term tags[] = {atoms::in, atoms::out, atoms::in_exiting, atoms::out_exiting, atoms::out_exited};
    bool exiting = event != SchedEvent::In && event != SchedEvent::Out;
    std::uint32_t needs = exiting ? TRACE_EXITING : (TRACE_RUNNING | TRACE_RUNNING_PROCS);
    CurrentFunction where(p);
    Term mfa = exiting ? make_small(0) : where.term;
    for_each_ref(p, needs, [&](const TracerRef& ref) {
        deliver_for(vm, p, ref, TraceEvent{p->id, tags[int(event)], {mfa, 0}});
    });
}

void trace_gc(Vm& vm, Process* p, bool end, bool major, Word words) {
    static constexpr Term tags[] = {atoms::gc_minor_start, atoms::gc_minor_end, atoms::gc_major_start,
                                    atoms::gc_major_end};
    static const Term keys[] = {atom("wordsize"),       atom("old_heap_block_size"), atom("heap_block_size"),
                                atom("mbuf_size"),      atom("recent_size"),         atom("stack_size"),
                                atom("old_heap_size"),  atom("heap_size"),           atom("bin_vheap_size"),
                                atom("bin_vheap_block_size"), atom("bin_old_vheap_size"),
                                atom("bin_old_vheap_block_size")};
    constexpr std::size_t N = std::size(keys);
    // The sizes in words, as OTP's erts_process_gc_info reports them.
    const Word values[N] = {words,
                            Word(p->old_hend - p->old_heap),
                            Word(p->hend - p->heap),
                            p->mbuf_words,
                            Word(p->high_water - p->heap),
                            Word(p->hend - p->stop),
                            Word(p->old_htop - p->old_heap),
                            Word(p->htop - p->heap),
                            binary_words(p, false),
                            BIN_VHEAP_BLOCK_WORDS,
                            binary_words(p, true),
                            BIN_VHEAP_BLOCK_WORDS};
    Term tuples[N][3];
    Term cells[N][2];
    Term info = NIL;
    for (std::size_t i = N; i-- > 0;) {
        tuples[i][0] = make_arityval(2);
        tuples[i][1] = keys[i];
        tuples[i][2] = make_small(SWord(values[i]));
        info = make_cons_on(cells[i], make_boxed(tuples[i]), info);
    }
    Term tag = tags[(major ? 2 : 0) + (end ? 1 : 0)];
    for_each_ref(p, TRACE_GC, [&](const TracerRef& ref) { deliver_for(vm, p, ref, TraceEvent{p->id, tag, {info, 0}}); });
}

// ---- ports ---------------------------------------------------------------------------------------

void trace_port(Vm& vm, Port* port, Term what, Term arg, Term arg2) {
    for_each_ref(port, TRACE_PORTS, [&](const TracerRef& ref) {
        deliver_for(vm, port, ref, TraceEvent{port->id, what, {arg, arg2}});
    });
}

void trace_port_sched(Vm& vm, Port* port, Term what, Term command) {
    for_each_ref(port, TRACE_RUNNING_PORTS, [&](const TracerRef& ref) {
        deliver_for(vm, port, ref, TraceEvent{port->id, what, {command, 0}});
    });
}

// The send and 'receive' patterns select what processes send and receive: ports are traced
// whatever they say (OTP's trace_port_send and trace_port_receive run none).
void trace_port_send(Vm& vm, Port* port, Term to, Term msg, bool exists) {
    for_each_ref(port, TRACE_SEND, [&](const TracerRef& ref) {
        TraceEvent e{port->id, exists ? atoms::send : atoms::send_to_non_existing_process, {msg, to}};
        deliver_for(vm, port, ref, e);
    });
}

void trace_port_receive(Vm& vm, Port* port, Term msg) {
    for_each_ref(port, TRACE_RECEIVE, [&](const TracerRef& ref) {
        deliver_for(vm, port, ref, TraceEvent{port->id, atoms::receive, {msg, 0}});
    });
}

}  // namespace beamlet::tracing
