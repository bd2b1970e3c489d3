%% tests/e2e/bif/timers_of_dead.erl — a timer to a pid lives no longer than its process (as
%% OTP's: none is set for a process already gone, and a process's exit cancels the others;
%% timers to a name stay); read_timer/2 and cancel_timer/2 with {async, true} answer by
%% message; the time left is rounded up to whole milliseconds.
-module(timers_of_dead).
-export([main/0]).

main() ->
    Dead = spawn(fun() -> ok end),
    wait_gone(Dead),
    T1 = erlang:start_timer(10000, Dead, hej),
    T2 = erlang:send_after(10000, Dead, hej),
    io:format("to a dead process: ~p~n", [[erlang:read_timer(T1), erlang:read_timer(T2)]]),
    P = spawn(fun() -> receive stop -> ok end end),
    T3 = erlang:start_timer(10000, P, hej),
    T4 = erlang:send_after(10000, P, hej),
    T5 = erlang:send_after(10000, some_name, hej),
    io:format("while it lives: ~p~n", [[is_integer(erlang:read_timer(T)) || T <- [T3, T4, T5]]]),
    P ! stop,
    wait_gone(P),
    io:format("after its exit: ~p~n", [[is_integer(erlang:read_timer(T)) || T <- [T3, T4, T5]]]),
    %% A killed process and a timer to oneself that fires.
    Q = spawn(fun() -> receive after infinity -> ok end end),
    T6 = erlang:send_after(10000, Q, hej),
    exit(Q, kill),
    wait_gone(Q),
    io:format("killed: ~p~n", [erlang:read_timer(T6)]),
    T7 = erlang:send_after(10, self(), fired),
    receive fired -> ok end,
    io:format("fired: ~p~n", [erlang:read_timer(T7)]),
    %% Asynchronous read and cancel.
    Big = 1 bsl 33,
    R = erlang:send_after(Big, self(), hej),
    io:format("just set: ~p~n", [erlang:read_timer(R) =:= Big]),
    ok = erlang:read_timer(R, [{async, true}]),
    ok = erlang:cancel_timer(R, [{async, true}, {info, true}]),
    ok = erlang:read_timer(R, [{async, true}]),
    {read_timer, R, Left} = receive M1 -> M1 end,
    {cancel_timer, R, Left2} = receive M2 -> M2 end,
    {read_timer, R, Gone} = receive M3 -> M3 end,
    io:format("async: ~p ~p ~p~n", [Big - Left < 1000, Left - Left2 =< 1, Gone]),
    io:format("sync option: ~p~n", [erlang:read_timer(R, [{async, false}])]),
    io:format("bad option: ~p~n", [catch_badarg(fun() -> erlang:read_timer(R, [{async, maybe}]) end)]),
    erlang:cancel_timer(T5),
    ok.

wait_gone(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.

catch_badarg(F) ->
    try F() catch error:badarg -> badarg end.
