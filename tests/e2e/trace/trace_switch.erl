-module(trace_switch).
-export([main/0, f/1, outer/1]).
-import(e2e_trace, [worker/0, stop_wait/2, name/2]).

%% Switching one pattern between global and local: the traced status follows the last setting
%% (trace_info traced -> global / local), and so does which calls are caught: with global only
%% the remote call ?MODULE:f/1 is traced, with local also the local call f/1 made by outer/1.
%% Each trace_pattern call on the single function returns 1.
f(X) -> X.
outer(X) -> f(X + 1000).

main() ->
    W = worker(),
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
    stop_wait(W, stop),
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
