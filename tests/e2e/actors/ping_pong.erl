-module(ping_pong).
-export([main/0]).

%% Ping-pong: 10000 round trips between two processes, each side counting; then a second game
%% where main itself is the pinger and the payload grows.
-define(ROUNDS, 10000).

main() ->
    Self = self(),
    Pong = spawn(fun() -> pong(0) end),
    Ping = spawn(fun() -> ping(Pong, ?ROUNDS, Self) end),
    receive {ping_done, Sent} -> io:format("ping sent ~p pings~n", [Sent]) end,
    Pong ! {stop, Self},
    receive {pong_done, Got} -> io:format("pong answered ~p pings~n", [Got]) end,
    wait_dead(Ping),
    wait_dead(Pong),
    Echo = spawn(fun echo/0),
    Last = lists:foldl(fun(N, _) ->
                               Echo ! {self(), N, lists:seq(1, N rem 10)},
                               receive {Echo, N, L} -> {N, L} end
                       end, none, lists:seq(1, ?ROUNDS)),
    io:format("main <-> echo, last reply: ~p~n", [Last]),
    Echo ! stop,
    wait_dead(Echo),
    ok.

ping(_Pong, 0, Main) -> Main ! {ping_done, ?ROUNDS};
ping(Pong, N, Main) ->
    Pong ! {ping, self(), N},
    receive {pong, N} -> ping(Pong, N - 1, Main) end.

pong(Count) ->
    receive
        {ping, From, N} -> From ! {pong, N}, pong(Count + 1);
        {stop, Main} -> Main ! {pong_done, Count}
    end.

echo() ->
    receive
        {From, N, L} -> From ! {self(), N, L}, echo();
        stop -> ok
    end.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
