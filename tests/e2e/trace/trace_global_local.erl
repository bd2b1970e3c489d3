-module(trace_global_local).
-export([main/0, f/1, count/1, via_h/1]).

%% Global versus local call trace patterns. A global pattern only catches calls that go through
%% the export entry: fully qualified calls (?MODULE:f(X), M:f(X)), external funs
%% (fun ?MODULE:f/1), apply/3 and erlang:apply/3, also when made from another module (lists:map).
%% A local pattern catches every call of the function: local calls f(X), local funs (fun f/1),
%% recursive local calls, and functions that are not exported (a global pattern on a
%% non-exported function matches 0 functions). Turning {M,'_','_'} off counts the exported
%% functions (incl. module_info/0,1) for global and every function in the code, including
%% compiler-generated fun and list comprehension functions, for local.
f(X) -> {f, X}.

count(0) -> done;
count(N) -> count(N - 1).

via_h(X) -> h(X).

h(X) -> {h, X}.

cases() ->
    M = ?MODULE,
    [{"remote call", fun() -> ?MODULE:f(1) end},
     {"local call", fun() -> f(2) end},
     {"external fun", fun() -> F = fun ?MODULE:f/1, F(3) end},
     {"apply/3", fun() -> apply(?MODULE, f, [4]) end},
     {"erlang:apply/3", fun() -> erlang:apply(?MODULE, f, [5]) end},
     {"variable module", fun() -> M:f(6) end},
     {"local fun", fun() -> G = fun f/1, G(7) end},
     {"lists:map external fun", fun() -> lists:map(fun ?MODULE:f/1, [800, 900]) end},
     {"lists:map local fun", fun() -> lists:map(fun f/1, [1000]) end},
     {"recursion from remote", fun() -> ?MODULE:count(2) end},
     {"recursion from local", fun() -> count(1) end},
     {"non-exported via export", fun() -> ?MODULE:via_h(1100) end}].

main() ->
    W = start_worker(),
    io:format("trace worker: ~p~n", [erlang:trace(W, true, [call])]),
    lists:foreach(
      fun(Flags) ->
              io:format("== ~p~n", [Flags]),
              io:format("pattern f/1: ~p~n", [erlang:trace_pattern({?MODULE, f, 1}, true, Flags)]),
              io:format("pattern count/1: ~p~n", [erlang:trace_pattern({?MODULE, count, 1}, true, Flags)]),
              io:format("pattern h/1: ~p~n", [erlang:trace_pattern({?MODULE, h, 1}, true, Flags)]),
              [show(Label, run(W, F)) || {Label, F} <- cases()],
              io:format("off: ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false, Flags)])
      end,
      [[global], [local]]),
    stop_worker(W),
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
