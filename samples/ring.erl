%% samples/ring.erl — a ring of processes passing a token around: spawn, message passing,
%% monitors for a clean shutdown.
-module(ring).
-export([main/0]).

-define(SIZE, 1000).
-define(ROUNDS, 20).

main() ->
    Hops = ?SIZE * ?ROUNDS,
    io:format("Building a ring of ~p processes...~n", [?SIZE]),
    Self = self(),
    Pids = [spawn(fun() -> wait_for_next(Idx, Self) end) || Idx <- lists:seq(0, ?SIZE - 1)],
    [P ! {next, Next} || {P, Next} <- lists:zip(Pids, tl(Pids) ++ [hd(Pids)])],
    io:format("Sending a token ~p times around the ring (~p hops)...~n", [?ROUNDS, Hops]),
    {Micros, FinalIdx} = timer:tc(fun() ->
                                          hd(Pids) ! {token, Hops},
                                          receive {done, Idx} -> Idx end
                                  end),
    io:format("The token stopped at process #~p after ~p hops.~n", [FinalIdx, Hops]),
    io:format("That took ~.1f ms (about ~p hops per second).~n",
              [Micros / 1000, Hops * 1000000 div max(Micros, 1)]),
    Refs = [monitor(process, P) || P <- Pids],
    [P ! stop || P <- Pids],
    [receive {'DOWN', R, process, _, _} -> ok end || R <- Refs],
    io:format("All ~p ring processes have stopped.~n", [length(Refs)]),
    ok.

wait_for_next(Idx, Main) ->
    receive {next, Next} -> loop(Idx, Next, Main) end.

loop(Idx, Next, Main) ->
    receive
        {token, 0} -> Main ! {done, Idx}, loop(Idx, Next, Main);
        {token, N} -> Next ! {token, N - 1}, loop(Idx, Next, Main);
        stop -> ok
    end.
