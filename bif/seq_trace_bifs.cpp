// bif/seq_trace_bifs.cpp — the BIFs under OTP's seq_trace module (kernel's seq_trace.erl runs
// unchanged on them): erlang:seq_trace/2, seq_trace_info/1, seq_trace_print/1,2, and the
// sequential_tracer and reset_seq_trace system flags. The token itself is vm/seq_trace.*.
#include "bif/bifs.hpp"
#include "vm/seq_trace.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

// The flag bit of token component [type], or 0 if [type] is not a flag.
Word flag_of(Term type) {
    if (type == atoms::send) return SEQ_SEND;
    if (type == atoms::receive) return SEQ_RECEIVE;
    if (type == atom("print")) return SEQ_PRINT;
    if (type == atom("timestamp")) return SEQ_TIMESTAMP;
    if (type == atom("strict_monotonic_timestamp")) return SEQ_STRICT_MONOTONIC;
    if (type == atom("monotonic_timestamp")) return SEQ_MONOTONIC;
    return 0;
}

bool is_serial_value(Term t) {
    return is_tuple(t) && tuple_arity(t) == 2 && is_small(tuple_element(t, 0)) && small_value(tuple_element(t, 0)) >= 0 &&
           is_small(tuple_element(t, 1)) && small_value(tuple_element(t, 1)) >= 0;
}

}  // namespace

// erlang:seq_trace(Component, Value): sets one component, making a token if there is none
// ({0, 0, 0, self(), LastCnt}); returns the component's old value. sequential_trace_token
// with [] clears the token and returns it.
Term bif_erlang_seq_trace(Process* p, Term* a) {
    Term type = a[0], value = a[1];
    Term token = current_seq_token(p);
    if (type == atom("sequential_trace_token")) {
        if (value != NIL) return p->badarg();
        p->seq_token = NIL;
        return token;
    }
    Word flag = flag_of(type);
    bool is_label = type == atom("label"), is_serial = type == atom("serial");
    bool boolean = value == atoms::true_ || value == atoms::false_;
    if (flag ? !boolean : is_serial ? !is_serial_value(value) : !is_label) return p->badarg();
    Word flags = token == NIL ? 0 : seq_flags(token);
    Term label = token == NIL ? make_small(0) : seq_label(token);
    Word serial = token == NIL ? 0 : seq_serial(token);
    Word lastcnt = token == NIL ? p->seq_lastcnt : seq_lastcnt(token);
    Term from = token == NIL ? p->id : tuple_element(token, 3);
    Term old;
    if (flag) {
        old = make_bool(flags & flag);
        flags = value == atoms::true_ ? flags | flag : flags & ~flag;
    } else if (is_label) {
        old = label;
        label = value;
    } else {
        old = make_tuple_on(p, {make_small(SWord(lastcnt)), make_small(SWord(serial))});
        lastcnt = Word(small_value(tuple_element(value, 0)));
        serial = Word(small_value(tuple_element(value, 1)));
        p->seq_lastcnt = lastcnt;
        p->seq_clock = serial;
    }
    p->seq_token = make_seq_token(p, flags, label, serial, from, lastcnt);
    return old;
}

// erlang:seq_trace_info(Component): {Component, Value}, or [] without a token.
Term bif_erlang_seq_trace_info(Process* p, Term* a) {
    Term type = a[0];
    Word flag = flag_of(type);
    bool is_label = type == atom("label"), is_serial = type == atom("serial");
    if (!flag && !is_label && !is_serial) return p->badarg();
    Term token = current_seq_token(p);
    if (token == NIL) return NIL;
    Term value = flag ? make_bool(seq_flags(token) & flag)
                 : is_label ? seq_label(token)
                            : make_tuple_on(p, {make_small(SWord(seq_lastcnt(token))), make_small(SWord(seq_serial(token)))});
    return make_tuple_on(p, {type, value});
}

Term bif_erlang_seq_trace_print1(Process* p, Term* a) { return make_bool(seq_trace_print(p, NIL, false, a[0])); }

Term bif_erlang_seq_trace_print2(Process* p, Term* a) { return make_bool(seq_trace_print(p, a[0], true, a[1])); }

// system_flag(sequential_tracer, Tracer): a pid or false; the old one (false if none).
Term set_sequential_tracer(Process* p, Term tracer) {
    if (tracer != atoms::false_ && !is_pid(tracer)) return p->badarg();
    if (is_pid(tracer) && !p->vm.find_process(tracer)) return p->badarg();
    Term old = p->vm.seq_tracer.exchange(tracer == atoms::false_ ? 0 : tracer, std::memory_order_acq_rel);
    return old ? old : atoms::false_;
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
    return make_tuple_on(p, {atom("sequential_tracer"), t ? t : atoms::false_});
}

}  // namespace beamlet::bif
