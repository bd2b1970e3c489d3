-module(send_variants).
-export([main/0]).

%% erlang:send/2 and ! to pids, registered names and {Name, node()}; send returns the message;
%% sending to a dead pid is silent; sending to an unregistered atom is badarg.
main() ->
    Self = self(),
    io:format("! returns msg: ~p~n", [Self ! {hello, 1}]),
    io:format("erlang:send returns msg: ~p~n", [erlang:send(Self, {hello, 2})]),
    io:format("received: ~p~n", [flush()]),
    Echo = spawn(fun echo/0),
    register(sv_echo, Echo),
    sv_echo ! {Self, via_name},
    erlang:send(sv_echo, {Self, via_send_name}),
    {sv_echo, node()} ! {Self, via_tuple},
    erlang:send({sv_echo, node()}, {Self, via_send_tuple}),
    Got = [receive {echo, M} -> M end || _ <- lists:seq(1, 4)],
    io:format("echoed: ~p~n", [Got]),
    Echo ! stop,
    wait_dead(Echo),
    io:format("name gone after exit: ~p~n", [whereis(sv_echo)]),
    Dead = spawn(fun() -> ok end),
    wait_dead(Dead),
    io:format("send to dead pid: ~p~n", [Dead ! lost]),
    io:format("erlang:send to dead pid: ~p~n", [erlang:send(Dead, lost)]),
    io:format("! to unregistered name: ~p~n", [try sv_nobody ! hi catch C1:R1 -> {C1, R1} end]),
    io:format("erlang:send to unregistered name: ~p~n", [try erlang:send(sv_nobody, hi) catch C2:R2 -> {C2, R2} end]),
    io:format("send to {unregistered, node()}: ~p~n", [try {sv_nobody, node()} ! hi catch C3:R3 -> {C3, R3} end]),
    Bad = list_to_tuple([1, 2]),
    io:format("send to a non-pid: ~p~n", [try Bad ! hi catch C4:R4 -> {C4, R4} end]),
    io:format("send to an integer: ~p~n", [try erlang:send(list_to_integer("7"), hi) catch C5:R5 -> {C5, R5} end]),
    io:format("mailbox after failed sends: ~p~n", [flush()]),
    io:format("big message to self: ~p~n", [begin Self ! lists:seq(1, 10000), receive L -> length(L) end end]),
    ok.

echo() ->
    receive
        {From, M} -> From ! {echo, M}, echo();
        stop -> ok
    end.

flush() ->
    receive M -> [M | flush()] after 0 -> [] end.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
