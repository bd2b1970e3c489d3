-module(std_gb_trees).
-export([main/0]).

%% gb_trees: empty, insert, enter, update, delete, delete_any, take, take_any, lookup,
%% get, is_defined, size, keys, values, to_list, from_orddict, balance, smallest, largest,
%% take_smallest/largest, iterator/iterator_from/next, map, errors (OTP 25: no larger/smaller).
main() ->
    T0 = gb_trees:empty(),
    T1 = lists:foldl(fun(K, T) -> gb_trees:insert(K, K * K, T) end, T0, [5, 3, 8, 1, 4, 7, 9, 2, 6]),
    t(empty, fun() -> {gb_trees:is_empty(T0), gb_trees:size(T0), gb_trees:to_list(T0), T0} end),
    t(to_list, fun() -> gb_trees:to_list(T1) end),
    t(keys_values, fun() -> {gb_trees:keys(T1), gb_trees:values(T1), gb_trees:size(T1)} end),
    t(lookup, fun() -> {gb_trees:lookup(4, T1), gb_trees:lookup(40, T1)} end),
    t(get, fun() -> gb_trees:get(7, T1) end),
    t(get_missing, fun() -> gb_trees:get(70, T1) end),
    t(is_defined, fun() -> {gb_trees:is_defined(1, T1), gb_trees:is_defined(0, T1)} end),
    t(insert_dup, fun() -> gb_trees:insert(5, x, T1) end),
    t(enter, fun() -> gb_trees:to_list(gb_trees:enter(5, x, gb_trees:enter(10, y, T1))) end),
    t(update, fun() -> gb_trees:get(3, gb_trees:update(3, new, T1)) end),
    t(update_missing, fun() -> gb_trees:update(30, new, T1) end),
    t(delete, fun() -> gb_trees:keys(gb_trees:delete(5, T1)) end),
    t(delete_missing, fun() -> gb_trees:delete(50, T1) end),
    t(delete_any, fun() -> {gb_trees:keys(gb_trees:delete_any(50, T1)), gb_trees:keys(gb_trees:delete_any(1, T1))} end),
    t(take, fun() -> {V, T} = gb_trees:take(8, T1), {V, gb_trees:keys(T)} end),
    t(take_missing, fun() -> gb_trees:take(80, T1) end),
    t(take_any, fun() -> {gb_trees:take_any(80, T1), element(1, gb_trees:take_any(9, T1))} end),
    t(smallest_largest, fun() -> {gb_trees:smallest(T1), gb_trees:largest(T1)} end),
    t(smallest_empty, fun() -> gb_trees:smallest(T0) end),
    t(take_smallest, fun() -> {K, V, T} = gb_trees:take_smallest(T1), {K, V, gb_trees:size(T)} end),
    t(take_largest, fun() -> {K, V, T} = gb_trees:take_largest(T1), {K, V, gb_trees:size(T)} end),
    t(iterator, fun() -> iter(gb_trees:iterator(T1)) end),
    t(iterator_from, fun() -> iter(gb_trees:iterator_from(6, T1)) end),
    t(iterator_from_mid, fun() -> iter(gb_trees:iterator_from(5.5, T1)) end),
    t(map, fun() -> gb_trees:to_list(gb_trees:map(fun(K, V) -> K + V end, T1)) end),
    t(from_orddict, fun() -> gb_trees:to_list(gb_trees:from_orddict([{a, 1}, {b, 2}, {c, 3}])) end),
    t(from_orddict_structure, fun() -> gb_trees:from_orddict([{a, 1}, {b, 2}, {c, 3}, {d, 4}]) end),
    t(structure_small, fun() -> lists:foldl(fun(K, T) -> gb_trees:insert(K, v, T) end, T0, [2, 1, 3]) end),
    t(balance, fun() ->
        T = lists:foldl(fun(K, Acc) -> gb_trees:insert(K, K, Acc) end, T0, lists:seq(1, 7)),
        gb_trees:balance(T) end),
    t(big, fun() ->
        T = lists:foldl(fun(K, Acc) -> gb_trees:enter(K rem 97, K, Acc) end, T0, lists:seq(1, 2000)),
        T2 = lists:foldl(fun(K, Acc) -> gb_trees:delete_any(K, Acc) end, T, lists:seq(0, 96, 2)),
        {gb_trees:size(T), gb_trees:size(T2), lists:sum(gb_trees:values(T2)), gb_trees:smallest(T2), gb_trees:largest(T2)} end),
    t(mixed_keys, fun() -> gb_trees:keys(lists:foldl(fun(K, T) -> gb_trees:enter(K, x, T) end, T0, [b, 1, "s", 1.0, {t}, 2, a, <<"b">>, []])) end),
    t(bad_tree, fun() -> gb_trees:lookup(1, not_a_tree) end),
    ok.

iter(I) ->
    case gb_trees:next(I) of
        none -> [];
        {K, V, I2} -> [{K, V} | iter(I2)]
    end.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
