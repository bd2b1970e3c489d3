-module(trace_bif).
-export([main/0, value/0]).
-import(e2e_trace, [worker/0, stop_wait/2, name/2]).

%% Global call tracing of a BIF export: trace_pattern({erlang, atom_to_list, 1}, true, [global])
%% matches 1 function; calls of erlang:atom_to_list/1 made by a traced process, whether written
%% erlang:atom_to_list(X), auto-imported atom_to_list(X) (also an external call in the .beam),
%% through apply/3 or an external fun, produce {trace, Pid, call, {erlang, atom_to_list, [X]}}.
%% The atom comes from a remote call so that the compiler cannot fold atom_to_list(A) away.
value() -> abc.

main() ->
    W = worker(),
    A = ?MODULE:value(),
    io:format("trace worker: ~p~n", [erlang:trace(W, true, [call])]),
    show("before pattern", run(W, fun() -> erlang:atom_to_list(A) end)),
    io:format("pattern: ~p~n", [erlang:trace_pattern({erlang, atom_to_list, 1}, true, [global])]),
    io:format("traced: ~p~n", [erlang:trace_info({erlang, atom_to_list, 1}, traced)]),
    io:format("match_spec: ~p~n", [erlang:trace_info({erlang, atom_to_list, 1}, match_spec)]),
    show("erlang:atom_to_list", run(W, fun() -> erlang:atom_to_list(A) end)),
    show("atom_to_list", run(W, fun() -> atom_to_list(A) end)),
    show("apply", run(W, fun() -> apply(erlang, atom_to_list, [A]) end)),
    show("external fun", run(W, fun() -> F = fun erlang:atom_to_list/1, F(A) end)),
    show("other BIF", run(W, fun() -> erlang:atom_to_binary(A, utf8) end)),
    show("result unchanged", run(W, fun() -> "abc" = erlang:atom_to_list(A) end)),
    show("non-tail call", run(W, fun() -> L = erlang:atom_to_list(A), {ok, L} end)),
    io:format("arity flag: ~p~n", [erlang:trace(W, true, [arity])]),
    show("with arity", run(W, fun() -> erlang:atom_to_list(A) end)),
    io:format("arity off: ~p~n", [erlang:trace(W, false, [arity])]),
    Other = worker(),
    show("untraced process", run(Other, fun() -> erlang:atom_to_list(A) end)),
    io:format("pattern off: ~p~n", [erlang:trace_pattern({erlang, atom_to_list, 1}, false, [global])]),
    io:format("traced: ~p~n", [erlang:trace_info({erlang, atom_to_list, 1}, traced)]),
    show("after pattern off", run(W, fun() -> erlang:atom_to_list(A) end)),
    io:format("trace worker off: ~p~n", [erlang:trace(W, false, [call])]),
    stop_wait(W, stop),
    stop_wait(Other, stop),
    ok.

show(Label, Msgs) -> io:format("~s: ~p~n", [Label, Msgs]).

%% ---- worker harness: main is the tracer of the worker (e2e_trace:worker/0).
%% run(W, F): W runs F; returns the call trace messages that came of it.
run(W, F) ->
    e2e_trace:run(W, F),
    collect([{W, worker}]).

%% Trace messages that arrived, in arrival order, with pids replaced by names.
collect(Names) ->
    receive
        {trace, P, call, What} -> [{trace, name(P, Names), call, What} | collect(Names)]
    after 20 -> []
    end.
