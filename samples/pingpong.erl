%% samples/pingpong.erl — two processes bouncing a ball: spawn/3, registered names, and a
%% round-trip benchmark.
-module(pingpong).
-export([main/0, ping/3, pong/0]).

main() ->
    io:format("A short game:~n"),
    register(pong, spawn(?MODULE, pong, [])),
    Ping = spawn(?MODULE, ping, [3, self(), verbose]),
    Lines = collect(Ping),
    [io:format("  ~s~n", [L]) || L <- Lines],
    Rounds = 10000,
    io:format("Now ~p silent round trips...~n", [Rounds]),
    {Micros, _} = timer:tc(fun() ->
                                   P = spawn(?MODULE, ping, [Rounds, self(), quiet]),
                                   collect(P)
                           end),
    io:format("~p round trips in ~.1f ms (~.2f us per round trip).~n",
              [Rounds, Micros / 1000, Micros / Rounds]),
    Ref = monitor(process, whereis(pong)),
    pong ! stop,
    receive {'DOWN', Ref, process, _, normal} -> io:format("pong has left the table.~n") end,
    ok.

ping(0, Main, _Mode) ->
    Main ! {self(), done};
ping(N, Main, Mode) ->
    pong ! {ping, self()},
    receive
        pong when Mode =:= verbose ->
            Main ! {self(), line, io_lib:format("ping ~p got pong", [N])};
        pong -> ok
    end,
    ping(N - 1, Main, Mode).

pong() ->
    receive
        {ping, From} -> From ! pong, pong();
        stop -> ok
    end.

collect(P) ->
    receive
        {P, line, L} -> [L | collect(P)];
        {P, done} -> []
    end.
