-module(sleep_order).
-export([main/0]).

%% timer:sleep/1 in several processes: they wake up (and report) in order of their sleep times,
%% not of spawn order; sleep(0) returns ok; a sleeping process keeps its mailbox.
main() ->
    Self = self(),
    Delays = [120, 30, 90, 0, 60, 150],
    Ps = [spawn(fun() -> ok = timer:sleep(D), Self ! {woke, D} end) || D <- Delays],
    Order = [receive {woke, D} -> D end || _ <- Delays],
    io:format("woke in order: ~p~n", [Order]),
    lists:foreach(fun wait_dead/1, Ps),
    io:format("sleep(0): ~p~n", [timer:sleep(0)]),
    P = spawn(fun() ->
                      timer:sleep(50),
                      Got = [receive M -> M after 0 -> none end || _ <- [1, 2, 3]],
                      Self ! {slept_then_got, Got}
              end),
    P ! a, P ! b,
    io:format("~p~n", [receive {slept_then_got, G} -> G end]),
    wait_dead(P),
    %% Sleeping in main while others run: their messages are waiting afterwards, in order.
    [spawn(fun() -> Self ! {n, N} end) || N <- [1]],
    timer:sleep(30),
    io:format("after sleep: ~p~n", [receive {n, X} -> X after 0 -> none end]),
    {Us, V} = timer:tc(fun() -> timer:sleep(20), done end),
    io:format("timer:tc: ~p, measured >= 20 ms: ~p~n", [V, Us >= 20000]),
    {Us2, V2} = timer:tc(lists, seq, [1, 5]),
    io:format("timer:tc/3: ~p ~p~n", [V2, is_integer(Us2)]),
    ok.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
