-module(token_ring).
-export([main/0]).

%% A ring of 1000 processes passes a token 10000 hops; each process counts the hops it forwarded.
%% The ring is then shut down and every process reports its count before exiting.
-define(N, 1000).
-define(HOPS, 10000).

main() ->
    Self = self(),
    Pids = [spawn(fun() -> node_init(Idx, Self) end) || Idx <- lists:seq(0, ?N - 1)],
    %% Tell every process its successor; the last one's successor is the first.
    [P ! {next, Next} || {P, Next} <- lists:zip(Pids, tl(Pids) ++ [hd(Pids)])],
    io:format("ring size: ~p~n", [length(Pids)]),
    hd(Pids) ! {token, ?HOPS},
    receive {done, Idx} -> io:format("token finished after ~p hops at process ~p~n", [?HOPS, Idx]) end,
    Refs = [monitor(process, P) || P <- Pids],
    [P ! {stop, Self} || P <- Pids],
    Counts = [receive {count, P, C} -> C end || P <- Pids],
    io:format("total forwards: ~p, min ~p, max ~p~n", [lists:sum(Counts), lists:min(Counts), lists:max(Counts)]),
    io:format("first three counts: ~w~n", [lists:sublist(Counts, 3)]),
    [receive {'DOWN', R, process, _, normal} -> ok end || R <- Refs],
    io:format("all ~p ring processes exited normally~n", [length(Refs)]),
    ok.

node_init(Idx, Main) ->
    receive {next, Next} -> loop(Idx, Next, Main, 0) end.

loop(Idx, Next, Main, Count) ->
    receive
        {token, 0} -> Main ! {done, Idx}, loop(Idx, Next, Main, Count);
        {token, Left} -> Next ! {token, Left - 1}, loop(Idx, Next, Main, Count + 1);
        {stop, From} -> From ! {count, self(), Count}
    end.
