-module(receive_after).
-export([main/0]).

%% receive ... after 0 / after N / after infinity, a message arriving later, variable timeouts,
%% bad timeout values, and after-only receives as sleeps.
main() ->
    Self = self(),
    io:format("after 0, empty: ~p~n", [receive _ -> got after 0 -> timeout end]),
    Self ! ready,
    io:format("after 0, message present: ~p~n", [receive ready -> got after 0 -> timeout end]),
    T0 = erlang:monotonic_time(millisecond),
    R1 = receive _ -> got after 50 -> timeout end,
    E1 = erlang:monotonic_time(millisecond) - T0,
    io:format("after 50, nothing sent: ~p, waited >= 50 ms: ~p~n", [R1, E1 >= 50]),
    P1 = spawn(fun() -> timer:sleep(20), Self ! late end),
    R2 = receive late -> got_late after 500 -> timeout end,
    io:format("after 500, msg at ~~20 ms: ~p~n", [R2]),
    wait_dead(P1),
    P2 = spawn(fun() -> timer:sleep(30), Self ! {late, infinity} end),
    R3 = receive {late, X} -> X after infinity -> never end,
    io:format("after infinity, msg later: ~p~n", [R3]),
    wait_dead(P2),
    P3 = spawn(fun() -> timer:sleep(30), Self ! plain end),
    R4 = receive plain -> plain_receive end,
    io:format("plain receive, msg later: ~p~n", [R4]),
    wait_dead(P3),
    Timeout = list_to_integer("25"),
    R5 = receive _ -> got after Timeout -> {timeout_var, Timeout} end,
    io:format("variable timeout: ~p~n", [R5]),
    Inf = list_to_atom("infinity"),
    P4 = spawn(fun() -> timer:sleep(10), Self ! var_inf end),
    R6 = receive var_inf -> got_var_inf after Inf -> never end,
    io:format("variable infinity: ~p~n", [R6]),
    wait_dead(P4),
    %% Non-matching messages arriving during the wait do not stop the timer.
    P5 = spawn(fun() -> [begin Self ! {tick, N}, timer:sleep(5) end || N <- lists:seq(1, 5)] end),
    R7 = receive never_sent -> got after 60 -> timeout end,
    wait_dead(P5),
    io:format("after 60 with non-matching traffic: ~p, ticks: ~w~n", [R7, flush()]),
    R8 = receive after 10 -> slept end,
    io:format("after-only receive: ~p~n", [R8]),
    Bad = list_to_atom("soon"),
    io:format("bad atom timeout: ~p~n", [try receive after Bad -> ok end catch C1:W1 -> {C1, W1} end]),
    Neg = list_to_integer("-1"),
    io:format("negative timeout: ~p~n", [try receive after Neg -> ok end catch C2:W2 -> {C2, W2} end]),
    Float = list_to_float("1.5"),
    io:format("float timeout: ~p~n", [try receive after Float -> ok end catch C3:W3 -> {C3, W3} end]),
    io:format("timer:sleep returns: ~p~n", [timer:sleep(1)]),
    ok.

flush() ->
    receive M -> [M | flush()] after 0 -> [] end.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
