-module(msg_order).
-export([main/0]).

%% Messages between a pair of processes arrive in send order (1000 messages), per-sender order is
%% kept when two senders interleave, and a relay preserves order too.
main() ->
    Self = self(),
    S1 = spawn(fun() -> [Self ! {one, N} || N <- lists:seq(1, 1000)] end),
    L1 = [receive {one, N} -> N end || _ <- lists:seq(1, 1000)],
    io:format("1000 in order: ~p~n", [L1 =:= lists:seq(1, 1000)]),
    io:format("first/last: ~p ~p~n", [hd(L1), lists:last(L1)]),
    wait_dead(S1),
    Senders = [spawn(fun() -> [Self ! {multi, Tag, N} || N <- lists:seq(1, 500)] end)
               || Tag <- [a, b]],
    All = [receive {multi, T, N} -> {T, N} end || _ <- lists:seq(1, 1000)],
    As = [N || {a, N} <- All],
    Bs = [N || {b, N} <- All],
    io:format("per-sender order a: ~p, b: ~p~n", [As =:= lists:seq(1, 500), Bs =:= lists:seq(1, 500)]),
    lists:foreach(fun wait_dead/1, Senders),
    %% main -> relay -> main: order preserved through an intermediate process.
    Relay = spawn(fun() -> relay(Self) end),
    [Relay ! {msg, N} || N <- lists:seq(1, 1000)],
    Relay ! stop,
    L3 = relay_collect([]),
    io:format("relayed in order: ~p (~p msgs)~n", [L3 =:= lists:seq(1, 1000), length(L3)]),
    wait_dead(Relay),
    %% Messages sent to self are also ordered.
    [self() ! {me, N} || N <- lists:seq(1, 100)],
    L4 = [receive {me, N} -> N end || _ <- lists:seq(1, 100)],
    io:format("self-sends in order: ~p~n", [L4 =:= lists:seq(1, 100)]),
    %% Each message is received exactly once.
    io:format("mailbox empty: ~p~n", [receive X -> {unexpected, X} after 0 -> true end]),
    ok.

relay(To) ->
    receive
        {msg, N} -> To ! {relayed, N}, relay(To);
        stop -> To ! relay_done
    end.

relay_collect(Acc) ->
    receive
        {relayed, N} -> relay_collect([N | Acc]);
        relay_done -> lists:reverse(Acc)
    end.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
