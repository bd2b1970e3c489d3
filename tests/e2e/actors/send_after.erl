-module(send_after).
-export([main/0]).

%% erlang:send_after/3: returns a timer ref, the plain message arrives after the delay, timers fire
%% in deadline order regardless of creation order, to a pid or a registered name, and a timer to a
%% dead pid is harmless.
main() ->
    Self = self(),
    T = erlang:send_after(200, Self, plain),
    io:format("returns a ref: ~p~n", [is_reference(T)]),
    io:format("not yet: ~p~n", [receive plain -> early after 0 -> nothing end]),
    io:format("arrives: ~p~n", [receive M -> M after 1000 -> timeout end]),
    [erlang:send_after(Ms, Self, {fired, Ms}) || Ms <- [90, 10, 50, 130, 30, 70, 110]],
    io:format("order: ~w~n", [[receive {fired, X} -> X end || _ <- lists:seq(1, 7)]]),
    Srv = spawn(fun() -> receive {timeout_msg, V} -> Self ! {srv_got, V} end end),
    register(sa_server, Srv),
    erlang:send_after(10, sa_server, {timeout_msg, by_name}),
    io:format("to a registered name: ~p~n", [receive {srv_got, V} -> V end]),
    wait_dead(Srv),
    Dead = spawn(fun() -> ok end),
    wait_dead(Dead),
    TD = erlang:send_after(5, Dead, lost),
    io:format("to a dead pid: ~p~n", [is_reference(TD)]),
    erlang:send_after(10, sa_nobody, lost),
    timer:sleep(30),
    io:format("to an unregistered name: no crash, mailbox ~p~n", [receive Any -> Any after 0 -> empty end]),
    erlang:send_after(0, Self, zero),
    io:format("0 ms: ~p~n", [receive zero -> zero after 1000 -> timeout end]),
    %% A timer message is queued behind messages already sent, and before later ones.
    Self ! before,
    erlang:send_after(20, Self, timer_msg),
    timer:sleep(40),
    Self ! after_,
    io:format("queue: ~p~n", [[receive Q -> Q end || _ <- [1, 2, 3]]]),
    io:format("bad time: ~p~n", [try erlang:send_after(-1, Self, x) catch C:E -> {C, E} end]),
    io:format("bad dest: ~p~n", [try erlang:send_after(10, {a, b}, x) catch C2:E2 -> {C2, E2} end]),
    ok.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
