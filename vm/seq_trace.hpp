// vm/seq_trace.hpp — sequential tracing's token: how it travels with messages, its serials
// (OTP's Lamport clock), and the events it makes (delivered by the tracing layer through
// TraceHooks::seq_trace_event to the system tracer).
//
// The token is [] or {Flags, Label, Serial, From, LastCnt}. A send by a process with a token
// takes the next serial of its clock and carries the token; a receive that takes a message
// adopts the message's token (or drops its own for a message sent without one), moving its
// clock past the token's serial. A process without a token pays one comparison per send and
// per receive.
#pragma once

#include "vm/mailbox.hpp"
#include "vm/term.hpp"

namespace beamlet::vm {

struct Process;
struct Vm;

// The token's flag bits (OTP's).
enum : Word {
    SEQ_SEND = 1,
    SEQ_RECEIVE = 2,
    SEQ_PRINT = 4,
    SEQ_TIMESTAMP = 8,
    SEQ_STRICT_MONOTONIC = 16,
    SEQ_MONOTONIC = 32,
};

// The elements of a token tuple.
inline Word seq_flags(Term token) { return Word(small_value(tuple_element(token, 0))); }
inline Term seq_label(Term token) { return tuple_element(token, 1); }
inline Word seq_serial(Term token) { return Word(small_value(tuple_element(token, 2))); }
inline Word seq_lastcnt(Term token) { return Word(small_value(tuple_element(token, 4))); }

// A token tuple on [p]'s heap.
Term make_seq_token(Process* p, Word flags, Term label, Word serial, Term from, Word lastcnt);

// [p]'s token as of now: [] once seq_trace:reset_trace/0 has voided it. The tuple is the
// process's own, updated in place: what Erlang code gets is seq_token_copy's.
Term current_seq_token(Process* p);
Term seq_token_copy(Process* p);

// [sender] (with a token) sends [msg] to [to]: its clock ticks, its token takes the new serial,
// the send event goes out; returns the token the message carries.
Term seq_trace_send(Process* sender, Term to, Term msg);

// [p] takes message [m] out of its queue: it adopts the message's token (receive event), or
// drops its own for a message sent without one.
void seq_trace_receive(Process* p, const Message& m);

// The flag bit of token component [type] (send, 'receive', print, the timestamps), or 0.
Word seq_flag_of(Term type);

// erlang:seq_trace(Component, Value), also the {set_seq_token, C, V} match-spec action:
// sets one component of [p]'s token (making one, {0, 0, 0, self(), LastCnt}, if it has
// none); returns the component's old value, or 0 for a bad component or value.
Term seq_trace_set(Process* p, Term type, Term value);

// [parent] (with a token) spawned [child], which is not running yet. OTP 25 spawns through a
// spawn_request signal that the child takes with the token, and a spawn_reply it sends back:
// both are traced sends ([request] and [reply] are those messages), and the child starts with
// the token.
void seq_trace_spawn(Process* parent, Process* child, Term request, Term reply);

// [child], not running yet, was spawned by another node's process [from] with [token] (in a
// fragment of the caller's; copied) (OTP's SPAWN_REQUEST_TT). The sender traced two sends,
// the request and then the argument list, and the token is the second's: the child reports
// [request] received with the serial before the token's, then, after its spawn reply went out,
// the argument list [args] with the token's own (seq_trace_adopt_arguments), as erts does.
void seq_trace_adopt_spawn(Process* child, Term token, Term from, Term request);
void seq_trace_adopt_arguments(Process* child, Term token, Term from, Term args);

// Another node's process [parent] asked, with [token], for a spawn this node refuses
// ([request] as seq_trace_adopt_spawn's, [reply] {spawn_reply, Ref, error, Reason}): the
// request is reported received and the reply sent, by the node itself, as erts does; the
// reply's token goes to [reply_token], in the fragment returned (the caller's to free).
HeapFragment* seq_trace_refused_spawn(Vm& vm, Term token, Term parent, Term request, Term reply, Term* reply_token);

// [child], not running yet, starts with a copy of [parent]'s token, no message exchanged (the
// main process that init starts for `beamlet trace -e seq_trace`).
void seq_trace_inherit(Process* parent, Process* child);

// seq_trace:print/1,2: a print event when [p] has a token (and [label], if given, is its
// label); false if nothing was printed.
bool seq_trace_print(Process* p, Term label, bool match_label, Term info);

}  // namespace beamlet::vm
