-module(cancel_timer).
-export([main/0]).

%% erlang:cancel_timer/1 returns the time left (an integer) for an active timer and false for an
%% expired, already cancelled or unknown one; erlang:read_timer/1 likewise; a cancelled timer
%% never delivers its message; cancelling after expiry leaves the message in the queue.
main() ->
    Self = self(),
    T1 = erlang:send_after(500, Self, cancelled_msg),
    Left1 = erlang:read_timer(T1),
    io:format("read_timer active: integer ~p, in range ~p~n", [is_integer(Left1), Left1 > 0 andalso Left1 =< 500]),
    C1 = erlang:cancel_timer(T1),
    io:format("cancel active: integer ~p, in range ~p~n", [is_integer(C1), C1 > 0 andalso C1 =< 500]),
    io:format("read_timer after cancel: ~p~n", [erlang:read_timer(T1)]),
    io:format("cancel again: ~p~n", [erlang:cancel_timer(T1)]),
    T2 = erlang:start_timer(500, Self, also_cancelled),
    C2 = erlang:cancel_timer(T2),
    io:format("cancel start_timer: integer ~p~n", [is_integer(C2)]),
    T3 = erlang:send_after(10, Self, expired_msg),
    receive expired_msg -> ok end,
    io:format("read_timer expired: ~p~n", [erlang:read_timer(T3)]),
    io:format("cancel expired: ~p~n", [erlang:cancel_timer(T3)]),
    T4 = erlang:send_after(10, Self, still_queued),
    timer:sleep(40),
    io:format("cancel after expiry, not yet received: ~p~n", [erlang:cancel_timer(T4)]),
    io:format("message still there: ~p~n", [receive still_queued -> yes after 0 -> no end]),
    io:format("cancel unknown ref: ~p~n", [erlang:cancel_timer(make_ref())]),
    io:format("read_timer unknown ref: ~p~n", [erlang:read_timer(make_ref())]),
    io:format("cancel non-ref: ~p~n", [try erlang:cancel_timer(list_to_atom("t")) catch C:E -> {C, E} end]),
    %% Cancel many: none of them fire.
    Ts = [erlang:send_after(30 + N, Self, {many, N}) || N <- lists:seq(1, 50)],
    Res = [erlang:cancel_timer(T) || T <- Ts],
    io:format("cancelled 50: ~p~n", [lists:all(fun is_integer/1, Res)]),
    %% Cancel some of several: only the others arrive, in deadline order.
    Ks = [{N, erlang:send_after(10 * N, Self, {k, N})} || N <- lists:seq(1, 6)],
    [erlang:cancel_timer(T) || {N, T} <- Ks, N rem 2 =:= 0],
    io:format("survivors: ~p~n", [[receive {k, N} -> N end || _ <- [1, 2, 3]]]),
    timer:sleep(100),
    io:format("nothing else arrived: ~p~n", [receive X -> X after 0 -> empty end]),
    %% The remaining time decreases.
    T5 = erlang:send_after(200, Self, later),
    A = erlang:read_timer(T5),
    timer:sleep(30),
    B = erlang:read_timer(T5),
    io:format("time left decreases: ~p~n", [B < A]),
    erlang:cancel_timer(T5),
    ok.
