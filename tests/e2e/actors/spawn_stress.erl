-module(spawn_stress).
-export([main/0]).

%% 100 000 processes, each sending one message back to main; main sums what it receives and
%% waits until all of them have exited.
-define(N, 100000).

main() ->
    Self = self(),
    Before = length(processes()),
    lists:foreach(fun(I) -> spawn(fun() -> Self ! {n, I} end) end, lists:seq(1, ?N)),
    {Count, Sum} = collect(0, 0),
    io:format("received ~p messages, sum ~p (expected ~p)~n", [Count, Sum, ?N * (?N + 1) div 2]),
    %% Second round with monitors, so main knows each process has exited.
    Ms = [spawn_monitor(fun() -> Self ! {m, I rem 7} end) || I <- lists:seq(1, ?N div 20)],
    Sum2 = lists:sum([receive {m, V} -> V end || _ <- Ms]),
    [receive {'DOWN', R, process, P, normal} -> ok end || {P, R} <- Ms],
    io:format("monitored round: ~p processes, sum ~p, all exited normally~n", [length(Ms), Sum2]),
    %% The first-round processes have all sent their only message; wait (bounded) until they
    %% have all exited, i.e. the process count is back to what it was.
    io:format("first round all exited: ~p~n", [wait_count(Before, 1000)]),
    io:format("mailbox empty: ~p~n", [receive X -> X after 0 -> true end]),
    ok.

collect(?N, Sum) -> {?N, Sum};
collect(C, Sum) -> receive {n, I} -> collect(C + 1, Sum + I) end.

wait_count(_Before, 0) -> false;
wait_count(Before, Tries) ->
    case length(processes()) =< Before of
        true -> true;
        false -> timer:sleep(1), wait_count(Before, Tries - 1)
    end.
