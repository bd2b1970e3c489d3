-module(trace_off).
-export([main/0, a/1, b/1]).

%% Turning things off: a pattern set to false stops the messages for that function only; the
%% other traced function keeps producing them. Turning process tracing off stops all messages
%% even though the patterns are still set, and turning it on again resumes them. A pattern that
%% is turned off and on again traces again. trace/3 with How=false on an untraced process or
%% with flags it does not have still returns 1.
a(X) -> {a, X}.
b(X) -> {b, X}.

main() ->
    W = start_worker(),
    Calls = fun() -> ?MODULE:a(1), ?MODULE:b(2), ?MODULE:a(3) end,
    io:format("pattern a: ~p~n", [erlang:trace_pattern({?MODULE, a, 1}, true)]),
    io:format("pattern b: ~p~n", [erlang:trace_pattern({?MODULE, b, 1}, true)]),
    io:format("trace: ~p~n", [erlang:trace(W, true, [call])]),
    show("both on", run(W, Calls)),
    io:format("pattern a false: ~p~n", [erlang:trace_pattern({?MODULE, a, 1}, false)]),
    io:format("a traced: ~p~n", [erlang:trace_info({?MODULE, a, 1}, traced)]),
    show("a off", run(W, Calls)),
    io:format("pattern a false again: ~p~n", [erlang:trace_pattern({?MODULE, a, 1}, false)]),
    io:format("pattern a true: ~p~n", [erlang:trace_pattern({?MODULE, a, 1}, true)]),
    show("a on again", run(W, Calls)),
    io:format("process off: ~p~n", [erlang:trace(W, false, [call])]),
    io:format("flags: ~p~n", [erlang:trace_info(W, flags)]),
    show("process off", run(W, Calls)),
    io:format("process off again: ~p~n", [erlang:trace(W, false, [call])]),
    io:format("process on: ~p~n", [erlang:trace(W, true, [call])]),
    show("process on again", run(W, Calls)),
    io:format("pattern {M,'_','_'} false: ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false)]),
    show("all patterns off", run(W, Calls)),
    io:format("pattern {M,'_','_'} true: ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, true)]),
    show("all exported on", run(W, Calls)),
    io:format("pattern {M,a,'_'} false: ~p~n", [erlang:trace_pattern({?MODULE, a, '_'}, false)]),
    show("a off by wildcard arity", run(W, Calls)),
    io:format("off: ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false)]),
    io:format("process off: ~p~n", [erlang:trace(W, false, [call])]),
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
