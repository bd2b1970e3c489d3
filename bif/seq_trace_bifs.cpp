// bif/seq_trace_bifs.cpp — the BIFs under OTP's seq_trace module (kernel's seq_trace.erl runs
// unchanged on them): erlang:seq_trace/2, seq_trace_info/1, seq_trace_print/1,2, and the
// sequential_tracer and reset_seq_trace system flags. The token itself is vm/seq_trace.*.
#include "bif/bifs.hpp"
#include "bif/trace_bifs.hpp"
#include "tracing/process_flags.hpp"
#include "vm/seq_trace.hpp"

namespace beamlet::bif {

using namespace vm;


// erlang:seq_trace(Component, Value): vm/seq_trace.cpp's seq_trace_set.
Term bif_erlang_seq_trace(Process* p, Term* a) {
    Term old = seq_trace_set(p, a[0], a[1]);
    return old ? old : p->badarg();
}

// erlang:seq_trace_info(Component): {Component, Value}, or [] without a token.
Term bif_erlang_seq_trace_info(Process* p, Term* a) {
    Term type = a[0];
    Word flag = seq_flag_of(type);
    bool is_label = type == atom("label"), is_serial = type == atom("serial");
    if (!flag && !is_label && !is_serial) return p->badarg();
    Term token = current_seq_token(p);
    if (token == NIL) return flag ? make_tuple_on(p, {type, atoms::false_}) : NIL;  // as OTP: flags are false
    Term value = flag ? make_bool(seq_flags(token) & flag)
                 : is_label ? seq_label(token)
                            : make_tuple_on(p, {make_small(SWord(seq_lastcnt(token))), make_small(SWord(seq_serial(token)))});
    return make_tuple_on(p, {type, value});
}

Term bif_erlang_seq_trace_print1(Process* p, Term* a) { return make_bool(seq_trace_print(p, NIL, false, a[0])); }

Term bif_erlang_seq_trace_print2(Process* p, Term* a) { return make_bool(seq_trace_print(p, a[0], true, a[1])); }

// system_flag(sequential_tracer, Tracer): a pid, a tracer module {Module, State} (its
// enabled(trace_status, State, undefined) must answer trace) or false; the old one (false if
// none).
Term set_sequential_tracer(Process* p, Term tracer) {
    Term word = 0;
    if (is_pid(tracer)) {
        if (!p->vm.find_process(tracer)) return p->badarg();
        word = tracer;
    } else if (is_port(tracer)) {
        word = Tracer::port(tracer).word();  // gets term_to_binary's bytes, as a port tracer does
    } else if (is_tuple(tracer) && tuple_arity(tracer) == 2 && is_atom(tuple_element(tracer, 0))) {
        Tracer t = module_tracer(p->vm, tuple_element(tracer, 0), tuple_element(tracer, 1));
        if (!t || !tracing::tracer_alive(p->vm, t)) return p->badarg();
        word = t.word();
    } else if (tracer != atoms::false_) {
        return p->badarg();
    }
    Term old = p->vm.seq_tracer.exchange(word, std::memory_order_acq_rel);
    return old ? tracing::tracer_term(p, Tracer::from_word(old)) : atoms::false_;
}

// system_flag(reset_seq_trace, true): every token, in processes and in queues, is void from
// now on (each process notices at its next send, receive or token access).
Term reset_seq_trace(Process* p) {
    p->vm.seq_epoch.fetch_add(1, std::memory_order_acq_rel);
    current_seq_token(p);
    return atoms::true_;
}

Term sequential_tracer_info(Process* p) {
    Term t = p->vm.seq_tracer.load(std::memory_order_acquire);
    // A tracer module that answers remove to trace_status is dropped when read (OTP's
    // erts_get_system_seq_tracer).
    if (t && is_small(t) && !tracing::tracer_alive(p->vm, Tracer::from_word(t))) {
        p->vm.seq_tracer.compare_exchange_strong(t, 0, std::memory_order_acq_rel);
        t = 0;
    }
    return make_tuple_on(p, {atom("sequential_tracer"), t ? tracing::tracer_term(p, Tracer::from_word(t)) : atoms::false_});
}

}  // namespace beamlet::bif
