-module(ev_self_tracer).
-export([main/0]).
-import(e2e_trace, [stop_wait/2]).

%% Tracers that are traced (OTP 25).
%% 1. A process that is its own tracer (erlang:trace(self(), true, [send, 'receive', procs])
%%    without a tracer option: the caller becomes the tracer) gets 1, keeps the flags and
%%    {tracer, Self}, but receives no trace messages at all: not for its sends, its receives,
%%    its spawn/link/exit of children.
%% 2. A chain: P is traced for send by T, and T is traced for 'receive' by T2. The trace
%%    messages arriving at T are ordinary incoming messages of T, so T2 gets
%%    {trace, T, 'receive', {trace, P, send, Msg, To}}, followed by the receive events of the
%%    ordinary messages T gets ({give, Main}).
%% 3. A tracer T that traces itself for 'receive' (trace(self(), true, ['receive']) inside T,
%%    returns 1, flags ['receive']) while tracing P for send: T still gets P's send events but no
%%    'receive' events about them or about any other message it receives.

main() ->
    Main = self(),
    %% 1. own tracer.
    A = spawn(fun() -> self_traced(Main) end),
    receive {r, A, R, F, Tr} -> io:format("self trace: ~p, flags ~p, tracer is self ~p~n", [R, F, Tr]) end,
    A ! go,
    receive {got, A, Got} -> io:format("self-traced process received: ~p~n", [Got]) end,
    stop_wait(A, none),
    %% 2. chain P -> T -> T2.
    T2 = spawn(fun() -> collector([]) end),
    T = spawn(fun() -> collector([]) end),
    P = spawn(fun worker/0),
    Names = [{P, p}, {T, t}, {T2, t2}, {Main, main}],
    io:format("trace p by t: ~p~n", [erlang:trace(P, true, [send, {tracer, T}])]),
    io:format("trace t by t2: ~p~n", [erlang:trace(T, true, ['receive', {tracer, T2}])]),
    P ! {send, Main, hi},
    receive hi -> ok end,
    delivered(P),
    io:format("t got: ~p~n", [give(T, Names)]),
    delivered(T),
    io:format("t2 got: ~p~n", [give(T2, Names)]),
    io:format("untrace t: ~p~n", [erlang:trace(T, false, ['receive'])]),
    %% 3. T traces itself for 'receive'.
    T ! {trace_self, Main},
    receive {trace_self, T, R3} -> io:format("t traces itself: ~p~n", [R3]) end,
    info("t", T, Names),
    info("p", P, Names),
    P ! {send, Main, hi2},
    receive hi2 -> ok end,
    delivered(P),
    T ! plain_message,
    io:format("t got: ~p~n", [give(T, Names)]),
    delivered(T),
    io:format("t2 got: ~p~n", [give(T2, Names)]),
    %% Cleanup.
    io:format("untrace p: ~p~n", [erlang:trace(P, false, [send])]),
    io:format("untrace t: ~p~n", [erlang:trace(T, false, ['receive'])]),
    [stop_wait(X, stop) || X <- [P, T, T2]],
    ok.

self_traced(Main) ->
    R = erlang:trace(self(), true, [send, 'receive', procs]),
    {flags, F} = erlang:trace_info(self(), flags),
    Main ! {r, self(), R, lists:sort(F), erlang:trace_info(self(), tracer) =:= {tracer, self()}},
    receive go -> ok end,
    {C, Mon} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', Mon, process, C, _} -> ok end,
    L = spawn_link(fun() -> receive stop -> ok end end),
    unlink(L),
    L ! stop,
    self() ! hello,
    receive hello -> ok end,
    receive after 1 -> ok end,
    Ref = erlang:trace_delivered(self()),
    receive {trace_delivered, _, Ref} -> ok end,
    Got = flush(),
    {flags, F2} = erlang:trace_info(self(), flags),
    erlang:trace(self(), false, [send, 'receive', procs]),
    Main ! {got, self(), {Got, still_traced, lists:sort(F2)}}.

delivered(P) ->
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end.

info(Label, P, Names) ->
    {flags, Fl} = erlang:trace_info(P, flags),
    {tracer, Tr} = erlang:trace_info(P, tracer),
    io:format("~s: flags ~p, tracer ~p~n", [Label, lists:sort(Fl), name(Tr, Names)]).

worker() ->
    receive
        {send, To, M} -> To ! M, worker();
        stop -> ok
    end.

collector(Acc) ->
    receive
        {give, From} -> From ! {msgs, self(), lists:reverse(Acc)}, collector([]);
        {trace_self, From} -> From ! {trace_self, self(), erlang:trace(self(), true, ['receive'])}, collector(Acc);
        stop -> ok;
        M -> collector([M | Acc])
    end.

give(T, Names) ->
    T ! {give, self()},
    receive {msgs, T, Msgs} -> norm(Msgs, Names) end.

%% Replace pids by names, everywhere in a term.
norm(P, Names) when is_pid(P) -> name(P, Names);
norm(L, Names) when is_list(L) -> [norm(X, Names) || X <- L];
norm(T, Names) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T), Names));
norm(X, _) -> X.

name([], _) -> [];
name(P, Names) ->
    case lists:keyfind(P, 1, Names) of
        {P, N} -> N;
        false -> other
    end.

flush() -> receive M -> [M | flush()] after 0 -> [] end.
