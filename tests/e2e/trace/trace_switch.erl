-module(trace_switch).
-export([main/0, f/1, outer/1]).

%% Switching one pattern between global and local: the traced status follows the last setting
%% (trace_info traced -> global / local), and so does which calls are caught: with global only
%% the remote call ?MODULE:f/1 is traced, with local also the local call f/1 made by outer/1.
%% Each trace_pattern call on the single function returns 1.
f(X) -> X.
outer(X) -> f(X + 1000).

main() ->
    W = start_worker(),
    io:format("trace: ~p~n", [erlang:trace(W, true, [call])]),
    Calls = fun() -> ?MODULE:f(1), ?MODULE:outer(2) end,
    lists:foreach(
      fun(Flags) ->
              R = erlang:trace_pattern({?MODULE, f, 1}, true, Flags),
              {traced, T} = erlang:trace_info({?MODULE, f, 1}, traced),
              io:format("~p -> ~p, traced ~p~n", [Flags, R, T]),
              show("  messages", run(W, Calls))
      end,
      [[global], [local], [global], [], [local], [local], [global]]),
    io:format("off: ~p~n", [erlang:trace_pattern({?MODULE, f, 1}, false)]),
    {traced, T} = erlang:trace_info({?MODULE, f, 1}, traced),
    io:format("traced ~p~n", [T]),
    show("messages", run(W, Calls)),
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
