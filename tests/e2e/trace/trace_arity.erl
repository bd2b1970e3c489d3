-module(trace_arity).
-export([main/0, f/0, f/1, g/3]).

%% The arity flag: call trace messages carry {M, F, Arity} instead of {M, F, Args}.
%% arity can be added and removed on its own while call stays on; arity without call gives no
%% call trace messages. trace_info(Pid, flags) lists both flags.
f() -> zero.
f(X) -> X.
g(A, B, C) -> {A, B, C}.

main() ->
    W = start_worker(),
    io:format("pattern f: ~p~n", [erlang:trace_pattern({?MODULE, f, '_'}, true)]),
    io:format("pattern g/3: ~p~n", [erlang:trace_pattern({?MODULE, g, 3}, true)]),
    Calls = fun() -> ?MODULE:f(), ?MODULE:f(x), ?MODULE:g(1, [2], {3}) end,
    io:format("trace [call, arity]: ~p~n", [erlang:trace(W, true, [call, arity])]),
    io:format("flags: ~p~n", [flags(W)]),
    show("call+arity", run(W, Calls)),
    io:format("arity off: ~p~n", [erlang:trace(W, false, [arity])]),
    io:format("flags: ~p~n", [flags(W)]),
    show("call", run(W, Calls)),
    io:format("arity on: ~p~n", [erlang:trace(W, true, [arity])]),
    io:format("flags: ~p~n", [flags(W)]),
    show("call+arity again", run(W, Calls)),
    io:format("call off: ~p~n", [erlang:trace(W, false, [call])]),
    io:format("flags: ~p~n", [flags(W)]),
    show("arity only", run(W, Calls)),
    io:format("all off: ~p~n", [erlang:trace(W, false, [arity])]),
    io:format("flags: ~p~n", [flags(W)]),
    %% Local pattern with arity.
    io:format("local g/3: ~p~n", [erlang:trace_pattern({?MODULE, g, 3}, true, [local])]),
    io:format("trace [arity, call]: ~p~n", [erlang:trace(W, true, [arity, call])]),
    show("local call with arity", run(W, fun() -> g(a, b, c), f(y) end)),
    io:format("patterns off: ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false, [global])
                                        + erlang:trace_pattern({?MODULE, g, 3}, false, [local])]),
    stop_worker(W),
    ok.

flags(P) ->
    {flags, L} = erlang:trace_info(P, flags),
    lists:sort(L).

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
