-module(trace_unloaded).
-export([main/0, f/1]).

%% Trace patterns naming a module that is not loaded (and does not exist): trace_pattern
%% matches nothing and returns 0 for every form, global or local, true or false; trace_info on
%% such a function answers undefined; calling it from a traced process raises error:undef and
%% produces no trace message. Functions of loaded modules that do not exist: likewise 0 and
%% undefined. Setting such patterns does not disturb tracing of existing functions.
f(X) -> X.

main() ->
    M = list_to_atom("trace_unloaded_no_such_module"),
    Cases = [{{M, f, 1}, true, []},
             {{M, f, '_'}, true, [global]},
             {{M, '_', '_'}, true, [global]},
             {{M, f, 1}, true, [local]},
             {{M, '_', '_'}, [], [local]},
             {{M, '_', '_'}, false, [global]},
             {{M, '_', '_'}, false, [local]},
             {{?MODULE, nosuch, 1}, true, [global]},
             {{?MODULE, f, 2}, true, [local]}],
    lists:foreach(
      fun({MFA, MS, Fl}) ->
              io:format("trace_pattern(~p, ~p, ~p) -> ~p~n", [MFA, MS, Fl, erlang:trace_pattern(MFA, MS, Fl)])
      end, Cases),
    io:format("traced: ~p~n", [erlang:trace_info({M, f, 1}, traced)]),
    io:format("match_spec: ~p~n", [erlang:trace_info({M, f, 1}, match_spec)]),
    io:format("all: ~p~n", [erlang:trace_info({M, f, 1}, all)]),
    io:format("set patterns again: ~p ~p~n", [erlang:trace_pattern({M, f, 1}, true),
                                             erlang:trace_pattern({?MODULE, f, 1}, true)]),
    W = start_worker(),
    io:format("trace worker: ~p~n", [erlang:trace(W, true, [call])]),
    show("call missing module", run(W, fun() ->
        R = try M:f(1) catch C:E -> {C, E} end,
        ?MODULE:f(R) end)),
    io:format("trace worker off: ~p~n", [erlang:trace(W, false, [call])]),
    io:format("patterns off: ~p ~p~n", [erlang:trace_pattern({M, '_', '_'}, false),
                                        erlang:trace_pattern({?MODULE, '_', '_'}, false)]),
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
