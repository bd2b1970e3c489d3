%% A tracer module in plain Erlang (beamlet runs it like a NIF tracer: in the tracee's
%% context, no message per event unless it sends one). State is {Collector, Answers}:
%% enabled/3 answers what Answers holds for the tag (trace when it has none); trace/5 sends
%% the collector what a tracer process would have received.
-module(erl_tracer_mod).
-export([enabled/3, enabled_send/3, trace/5, trace_receive/5]).

enabled(trace_status, _, _) -> trace;
enabled(Tag, {_, Answers}, _) -> maps:get(Tag, Answers, trace).

%% The specific callback wins over enabled/3 for sends.
enabled_send(Tag, {_, Answers}, _) -> maps:get(Tag, Answers, trace).

trace(Tag, {Collector, _}, Tracee, Term, Opts) ->
    Collector ! message(Tag, Tracee, Term, Opts),
    ok.

%% The specific callback wins over trace/5 for receives.
trace_receive(Tag, {Collector, _}, Tracee, Term, Opts) ->
    Collector ! message(Tag, Tracee, Term, Opts),
    ok.

message(Tag, Tracee, Term, #{extra := Extra}) -> {trace, Tracee, Tag, Term, Extra};
message(Tag, Tracee, Term, _) -> {trace, Tracee, Tag, Term}.
