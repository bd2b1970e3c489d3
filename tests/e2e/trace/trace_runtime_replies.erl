-module(trace_runtime_replies).
-export([main/0]).
-import(e2e_trace, [collector/0, events/2, worker/0, run/2, stop_wait/2]).

%% What the runtime sends is not a send of the process it is about. A process traced for send
%% and 'receive' that is asked for process_info or is_process_alive by another process reports
%% nothing (the question and its answer are signals); its own monitor of a dead process and an
%% asynchronous read_timer/cancel_timer give it messages, traced as received, never as sent by
%% it.
main() ->
    T = collector(),
    Target = worker(),
    erlang:trace(Target, true, [send, 'receive', {tracer, T}]),
    _ = erlang:process_info(Target, status),
    _ = erlang:process_info(Target, [messages, links]),
    _ = erlang:process_info(Target),
    true = erlang:is_process_alive(Target),
    io:format("asked about the target: ~p~n", [events(T, [Target])]),

    W = worker(),
    Dead = spawn(fun() -> ok end),
    stop_wait(Dead, none),
    erlang:trace(W, true, [send, 'receive', {tracer, T}]),
    run(W, fun() ->
                   Ref = erlang:monitor(process, Dead),
                   receive {'DOWN', Ref, process, Dead, noproc} -> ok end,
                   TRef = erlang:start_timer(60000, self(), t),
                   ok = erlang:read_timer(TRef, [{async, true}]),
                   receive {read_timer, TRef, Left} when is_integer(Left) -> ok end,
                   ok = erlang:cancel_timer(TRef, [{async, true}]),
                   receive {cancel_timer, TRef, Left2} when is_integer(Left2) -> ok end,
                   ok
           end),
    Names = [{Target, target}, {W, worker}, {self(), main}, {Dead, dead}, {T, tracer}],
    io:format("the worker's events:~n"),
    [io:format("  ~p~n", [shape(E, Names)]) || E <- events(T, [W])],
    stop_wait(Target, stop),
    stop_wait(W, stop).

%% A trace message with pids named and times and references left out.
shape({trace, P, send, Msg, To}, Names) -> {send, name(P, Names), kind(Msg), name(To, Names)};
shape({trace, P, 'receive', Msg}, Names) -> {'receive', name(P, Names), kind(Msg)};
shape(Other, _) -> Other.

kind({run, _, _}) -> run;
kind({done, _, _}) -> done;
kind(M) when is_tuple(M) -> element(1, M);
kind(M) -> M.

name(P, Names) ->
    case lists:keyfind(P, 1, Names) of
        {P, N} -> N;
        false -> P
    end.
