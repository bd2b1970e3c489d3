-module(trace_bif).
-export([main/0, value/0]).

%% Global call tracing of a BIF export: trace_pattern({erlang, atom_to_list, 1}, true, [global])
%% matches 1 function; calls of erlang:atom_to_list/1 made by a traced process, whether written
%% erlang:atom_to_list(X), auto-imported atom_to_list(X) (also an external call in the .beam),
%% through apply/3 or an external fun, produce {trace, Pid, call, {erlang, atom_to_list, [X]}}.
%% The atom comes from a remote call so that the compiler cannot fold atom_to_list(A) away.
value() -> abc.

main() ->
    W = start_worker(),
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
    Other = start_worker(),
    show("untraced process", run(Other, fun() -> erlang:atom_to_list(A) end)),
    io:format("pattern off: ~p~n", [erlang:trace_pattern({erlang, atom_to_list, 1}, false, [global])]),
    io:format("traced: ~p~n", [erlang:trace_info({erlang, atom_to_list, 1}, traced)]),
    show("after pattern off", run(W, fun() -> erlang:atom_to_list(A) end)),
    io:format("trace worker off: ~p~n", [erlang:trace(W, false, [call])]),
    stop_worker(W),
    stop_worker(Other),
    ok.

show(Label, Msgs) -> io:format("~s: ~p~n", [Label, Msgs]).

%% ---- worker harness: the worker runs funs on request; main is the tracer.
start_worker() -> spawn(fun worker_loop/0).

worker_loop() ->
    receive
        {run, F, From} -> F(), From ! {done, self()}, worker_loop();
        stop -> ok
    end.

run(W, F) ->
    W ! {run, F, self()},
    receive {done, W} -> ok end,
    collect([{W, worker}]).

%% Trace messages that arrived, in arrival order, with pids replaced by names.
collect(Names) ->
    receive
        {trace, P, call, What} -> [{trace, name(P, Names), call, What} | collect(Names)]
    after 20 -> []
    end.

name(P, Names) ->
    case lists:keyfind(P, 1, Names) of
        {P, N} -> N;
        false -> other
    end.

stop_worker(W) ->
    Ref = monitor(process, W),
    W ! stop,
    receive {'DOWN', Ref, process, W, _} -> ok end.
