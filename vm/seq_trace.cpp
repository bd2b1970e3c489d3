// vm/seq_trace.cpp — sequential tracing's token (see seq_trace.hpp).
#include "vm/seq_trace.hpp"

#include <algorithm>

#include "vm/atom_table.hpp"
#include "vm/copy.hpp"
#include "vm/node.hpp"
#include "vm/process.hpp"
#include "vm/term_order.hpp"
#include "vm/trace_hooks.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

namespace {

// Serials wrap at 27 bits, as OTP's (they stay small integers on every platform).
constexpr Word SERIAL_MASK = (Word(1) << 27) - 1;

void emit(Vm& vm, Term token, Term kind, Term from, Term to, Term msg) {
    Term tracer = vm.seq_tracer.load(std::memory_order_acquire);
    if (!tracer || !vm.services.trace) return;
    vm.services.trace->seq_trace_event(tracer, token, kind, from, to, msg);
}

void emit(Process* p, Term token, Term kind, Term from, Term to, Term msg) { emit(p->vm, token, kind, from, to, msg); }

}  // namespace

Term make_seq_token(Process* p, Word flags, Term label, Word serial, Term from, Word lastcnt) {
    Term* hp = p->alloc(6);
    hp[0] = make_arityval(5);
    hp[1] = make_small(SWord(flags));
    hp[2] = label;
    hp[3] = make_small(SWord(serial & SERIAL_MASK));
    hp[4] = from;
    hp[5] = make_small(SWord(lastcnt & SERIAL_MASK));
    return make_boxed(hp);
}

Term current_seq_token(Process* p) {
    Word epoch = p->vm.seq_epoch.load(std::memory_order_acquire);
    if (p->seq_epoch != epoch) {
        p->seq_token = NIL;
        p->seq_clock = p->seq_lastcnt = 0;
        p->seq_epoch = epoch;
    }
    return p->seq_token;
}

namespace {
// The next serial of [p]'s clock, written into its token in place: the token tuple is the
// process's alone (readers get copies, messages carry copies), and what changes is immediates.
Term tick(Process* p, Term token) {
    p->seq_clock = (p->seq_clock + 1) & SERIAL_MASK;
    Term* t = boxed_ptr(token);
    t[3] = make_small(SWord(p->seq_clock));
    t[4] = p->id;
    t[5] = make_small(SWord(p->seq_lastcnt & SERIAL_MASK));
    return token;
}
}  // namespace

Term seq_token_copy(Process* p) {
    Term token = current_seq_token(p);
    if (token == NIL) return NIL;
    return make_seq_token(p, seq_flags(token), seq_label(token), seq_serial(token), tuple_element(token, 3),
                          seq_lastcnt(token));
}

Term seq_trace_send(Process* sender, Term to, Term msg) {
    Term token = current_seq_token(sender);
    if (token == NIL) return NIL;
    tick(sender, token);
    if (seq_flags(token) & SEQ_SEND) emit(sender, token, atoms::send, sender->id, to, msg);
    return token;
}

void seq_trace_receive(Process* p, const Message& m) {
    if (m.seq_token == 0) return;  // from the runtime: the receiver's token stays
    Term token = m.seq_token;
    if (token != NIL && m.seq_epoch != p->vm.seq_epoch.load(std::memory_order_acquire)) token = NIL;
    current_seq_token(p);
    if (token == NIL) {
        p->seq_token = NIL;
        return;
    }
    // The token lives in the message's fragment, which joins this heap: a GC root from here.
    p->seq_token = token;
    p->seq_lastcnt = seq_serial(token);
    p->seq_clock = std::max(p->seq_clock, seq_serial(token));
    if (seq_flags(token) & SEQ_RECEIVE) emit(p, token, atoms::receive, tuple_element(token, 3), p->id, m.term);
}

bool seq_trace_print(Process* p, Term label, bool match_label, Term info) {
    Term token = current_seq_token(p);
    if (token == NIL) return false;
    if (match_label && !terms_exact_equal(label, seq_label(token))) return false;
    // The serial moves on whether or not the token asks for print events (OTP).
    tick(p, token);
    if (seq_flags(token) & SEQ_PRINT) emit(p, token, atom("print"), p->id, NIL, info);
    return true;
}

Word seq_flag_of(Term type) {
    if (type == atoms::send) return SEQ_SEND;
    if (type == atoms::receive) return SEQ_RECEIVE;
    if (type == atom("print")) return SEQ_PRINT;
    if (type == atom("timestamp")) return SEQ_TIMESTAMP;
    if (type == atom("strict_monotonic_timestamp")) return SEQ_STRICT_MONOTONIC;
    if (type == atom("monotonic_timestamp")) return SEQ_MONOTONIC;
    return 0;
}

Term seq_trace_set(Process* p, Term type, Term value) {
    Term token = current_seq_token(p);
    if (type == atom("sequential_trace_token")) {
        if (value != NIL) return 0;
        p->seq_token = NIL;
        return token;
    }
    Word flag = seq_flag_of(type);
    bool is_label = type == atom("label"), is_serial = type == atom("serial");
    bool boolean = value == atoms::true_ || value == atoms::false_;
    bool serial_value = is_tuple(value) && tuple_arity(value) == 2 && is_small(tuple_element(value, 0)) &&
                        is_small(tuple_element(value, 1));  // OTP takes any small integers
    if (flag ? !boolean : is_serial ? !serial_value : !is_label) return 0;
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
        Term* hp = p->alloc(3);
        hp[0] = make_arityval(2);
        hp[1] = make_small(SWord(lastcnt));
        hp[2] = make_small(SWord(serial));
        old = make_boxed(hp);
        lastcnt = Word(small_value(tuple_element(value, 0)));
        serial = Word(small_value(tuple_element(value, 1)));
        p->seq_lastcnt = lastcnt;
        p->seq_clock = serial;
    }
    p->seq_token = make_seq_token(p, flags, label, serial, from, lastcnt);
    return old;
}

namespace {
// [token] copied onto [p]'s heap.
Term copy_token_to(Process* p, Term token) {
    Word size = term_size_words(token);
    Term* hp = p->alloc(size);
    return copy_term(token, &hp, &p->off_heap_first);
}

// [p] takes [token], sent by [from] with [msg]: OTP's receive rule, with its event.
void adopt(Process* p, Term token, Term from, Term msg) {
    p->seq_token = token;
    p->seq_lastcnt = seq_serial(token);
    p->seq_clock = std::max(p->seq_clock, seq_serial(token));
    if (seq_flags(token) & SEQ_RECEIVE) emit(p, token, atoms::receive, from, p->id, msg);
}
}  // namespace

void seq_trace_spawn(Process* parent, Process* child, Term request, Term reply) {
    Term token = seq_trace_send(parent, child->id, request);
    if (token == NIL) return;
    child->seq_epoch = parent->seq_epoch;
    adopt(child, copy_token_to(child, token), parent->id, request);
    // The reply is a signal the parent handles, not a message it receives: the receive is
    // reported, but the parent keeps its own token (OTP).
    Term answer = seq_trace_send(child, parent->id, reply);
    if (seq_flags(answer) & SEQ_RECEIVE) emit(parent, answer, atoms::receive, child->id, parent->id, reply);
}

void seq_trace_adopt_spawn(Process* child, Term token, Term from, Term request) {
    child->seq_epoch = child->vm.seq_epoch.load(std::memory_order_acquire);
    // The request was the first of the two sends that made the token: it is reported one
    // serial before the token's (erts' erl_create_process does the same).
    Term before = copy_token_to(child, token);
    Word serial = seq_serial(before);
    boxed_ptr(before)[3] = make_small(SWord(serial ? serial - 1 : 0));
    adopt(child, before, from, request);
}

HeapFragment* seq_trace_refused_spawn(Vm& vm, Term token, Term parent, Term request, Term reply, Term* reply_token) {
    // erts' dist_spawn_error: the request is reported received by this node one serial before
    // the token's, then the reply sent by the node with the next (the node's token).
    HeapFragment* frag = copy_to_fragment(token, reply_token);
    Term* t = boxed_ptr(*reply_token);
    Word serial = seq_serial(*reply_token);
    Word before = serial ? serial - 1 : 0;
    t[3] = make_small(SWord(before));
    Term node = this_node().name;
    if (seq_flags(*reply_token) & SEQ_RECEIVE) emit(vm, *reply_token, atoms::receive, parent, node, request);
    t[5] = make_small(SWord(before));
    t[3] = make_small(SWord((before + 1) & SERIAL_MASK));
    t[4] = node;
    if (seq_flags(*reply_token) & SEQ_SEND) emit(vm, *reply_token, atoms::send, node, parent, reply);
    return frag;
}

void seq_trace_adopt_arguments(Process* child, Term token, Term from, Term args) {
    adopt(child, copy_token_to(child, token), from, args);
}

void seq_trace_inherit(Process* parent, Process* child) {
    Term token = current_seq_token(parent);
    if (token == NIL) return;
    child->seq_epoch = parent->seq_epoch;
    child->seq_token = copy_token_to(child, token);
    child->seq_clock = parent->seq_clock;
    child->seq_lastcnt = parent->seq_lastcnt;
}

}  // namespace beamlet::vm
