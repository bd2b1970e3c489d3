-module(hibernate_heap).
-export([main/0, sleeper/1, min_sleeper/1, awake/2]).

%% erlang:hibernate/3 leaves only the live data on the heap (no old heap, no headroom) and
%% wakes up with the min_heap_size again; process_info from outside does not grow it.
main() ->
    N = length(lists:seq(1, 3)),
    lists:foreach(fun show/1, [[], [N], [{N, N + 1, N + 2}], [lists:seq(1, 100)], [[N], {N}]]),
    P = spawn_opt(fun() -> erlang:hibernate(?MODULE, min_sleeper, [self()]) end,
                  [{min_heap_size, 5000}]),
    wait_hibernated(P),
    {heap_size, Asleep} = process_info(P, heap_size),
    io:format("min_heap_size 5000, asleep: ~p~n", [Asleep =< 10]),
    P ! {wake, self()},
    receive {awake, Sz} -> io:format("awake: ~p~n", [Sz >= 5000]) end,
    %% With a message already waiting, the process wakes at once (after others have run) and
    %% M:F(A) gets its arguments.
    Self = self(),
    W = spawn(fun() -> receive go -> ok end, self() ! early, erlang:hibernate(?MODULE, awake, [Self, {args, N}]) end),
    W ! go,
    receive {awake, Args, Msg} -> io:format("woken at once: ~p ~p~n", [Args, Msg]) end,
    bad(x, y, lists:duplicate(1025, a)),
    bad(x, y, lists:duplicate(3, a) ++ b),
    bad(x, "y", []),
    bad(1, y, []),
    ok.

bad(M, F, A) ->
    {'EXIT', {Reason, [{erlang, hibernate, [M, F, A], _} | _]}} = (catch erlang:hibernate(M, F, A)),
    io:format("~p~n", [Reason]).

show(Args) ->
    P = spawn(fun() -> garbage(), erlang:hibernate(?MODULE, sleeper, Args) end),
    wait_hibernated(P),
    [{heap_size, H}, {total_heap_size, T}] = process_info(P, [heap_size, total_heap_size]),
    [{heap_size, H}, {total_heap_size, T}] = process_info(P, [heap_size, total_heap_size]),
    io:format("~w words live: heap ~p, total ~p, within size+8: ~p~n",
              [erts_debug:size(Args), H, T, H =< erts_debug:size(Args) + 8]),
    exit(P, kill).

garbage() -> length(lists:seq(1, 5000)).

sleeper(_) -> ok.

awake(Parent, Args) -> receive Msg -> Parent ! {awake, Args, Msg} end.

min_sleeper(_) ->
    receive {wake, From} -> From ! {awake, element(2, process_info(self(), heap_size))} end.

wait_hibernated(P) ->
    case process_info(P, [current_function, status]) of
        [{current_function, {erlang, hibernate, 3}}, {status, waiting}] -> ok;
        _ -> receive after 1 -> wait_hibernated(P) end
    end.
