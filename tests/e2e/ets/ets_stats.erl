%% ets:info(T, stats) as OTP reports it: buckets, chain statistics, the objects kept
%% pseudo-deleted while the table is fixed (one per key for delete/take, every match for
%% select_delete, all for delete_all_objects), and the lock count; growing and shrinking.
-module(ets_stats).
-export([main/0]).

kept(T) -> element(7, ets:info(T, stats)).
buckets(T) -> element(1, ets:info(T, stats)).

main() ->
    T = ets:new(t, [set]),
    io:format("empty ~p~n", [ets:info(T, stats)]),
    [ets:insert(T, {I}) || I <- lists:seq(1, 100)],
    {256, Avg, _, Exp, _, _, 0, 1} = ets:info(T, stats),
    io:format("100: avg ~p expected sd ~p~n", [Avg, Exp]),
    [ets:insert(T, {I}) || I <- lists:seq(101, 5000)],
    B = buckets(T),
    io:format("5000: loaded ~p~n", [B >= 2500 andalso B =< 5000 * 2]),
    [ets:delete(T, I) || I <- lists:seq(1, 4990)],
    io:format("10 left: shrunk ~p~n", [buckets(T) < B]),
    ets:delete(T),
    [pseudo(Type) || Type <- [set, bag, duplicate_bag]],
    S = ets:new(t, [set]),
    ets:insert(S, {1}),
    ets:safe_fixtable(S, true),
    ets:delete(S, 1),
    io:format("set deleted ~p~n", [kept(S)]),
    ets:insert(S, {1, b}),
    io:format("set reinserted ~p ~p~n", [kept(S), ets:lookup(S, 1)]),
    ets:delete(S, 1),
    ets:update_counter(S, 1, 1, {1, 0}),
    io:format("set update_counter default ~p~n", [kept(S)]),
    ets:delete(S, 1),
    ets:insert_new(S, {1, 0}),
    io:format("set insert_new ~p~n", [kept(S)]),
    ets:safe_fixtable(S, false),
    io:format("unfixed ~p~n", [kept(S)]),
    %% (write_concurrency depends on the number of schedulers: off with one.)
    Opts = [[], [private, {write_concurrency, true}], [ordered_set]],
    [begin
         X = ets:new(t, O),
         io:format("~p: ~p ~p~n", [O, ets:info(X, write_concurrency), ets:info(X, stats)])
     end || O <- Opts],
    Bin = list_to_binary(lists:seq(1, 100)),
    BT = ets:new(t, [set]),
    io:format("no binaries ~p~n", [ets:info(BT, binary)]),
    ets:insert(BT, {key, Bin}),
    [{Ptr, 100, 2}] = ets:info(BT, binary),
    ets:insert(BT, {key2, Bin}),
    ets:safe_fixtable(BT, true),
    ets:delete(BT, key),
    io:format("binaries ~p~n", [[{Size, Refs} || {P, Size, Refs} <- ets:info(BT, binary), P =:= Ptr]]),
    ets:safe_fixtable(BT, false),
    io:format("unfixed ~p~n", [[{Size, Refs} || {P, Size, Refs} <- ets:info(BT, binary), P =:= Ptr]]),
    H = ets:new(t, [set]),
    Slot = erlang:phash2(<<"123">>, buckets(H)),
    ets:insert(H, {<<"123">>, extra}),
    io:format("slot of phash2 ~p~n", [ets:slot(H, Slot)]),
    ok.

pseudo(Type) ->
    B = ets:new(t, [Type]),
    [ets:insert(B, {K, V}) || K <- [1, 2, 3, 4, 5, 6], V <- [a, b, c]],
    ets:safe_fixtable(B, true),
    ets:delete(B, 1),
    io:format("~p delete: kept ~p size ~p~n", [Type, kept(B), ets:info(B, size)]),
    ets:delete_object(B, {2, a}),
    io:format("~p delete oldest object: kept ~p~n", [Type, kept(B)]),
    ets:delete_object(B, {2, b}),
    ets:delete_object(B, {2, c}),
    io:format("~p delete the rest: kept ~p~n", [Type, kept(B)]),
    ets:delete_object(B, {3, c}),
    io:format("~p delete newest object: kept ~p~n", [Type, kept(B)]),
    ets:insert(B, {1, x}),
    io:format("~p insert: kept ~p ~p~n", [Type, kept(B), ets:lookup(B, 1)]),
    ets:insert(B, {3, c}),
    io:format("~p insert deleted object: kept ~p ~p~n", [Type, kept(B), ets:lookup(B, 3)]),
    ets:match_delete(B, {4, '_'}),
    io:format("~p match_delete: kept ~p~n", [Type, kept(B)]),
    ets:take(B, 5),
    io:format("~p take: kept ~p~n", [Type, kept(B)]),
    First = ets:first(B),
    ets:delete_all_objects(B),
    io:format("~p delete_all_objects: kept ~p size ~p next ~p~n",
              [Type, kept(B), ets:info(B, size), ets:next(B, First)]),
    ets:safe_fixtable(B, false),
    io:format("~p unfixed: ~p~n", [Type, ets:info(B, stats)]),
    ets:delete(B).
