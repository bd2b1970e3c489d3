-module(std_gb_sets).
-export([main/0]).

%% gb_sets: new/empty, add/add_element, insert, delete/delete_any, del_element, is_member,
%% is_element, from_list, from_ordset, to_list, size, union/intersection/subtract/difference
%% (binary and list forms), is_subset, is_disjoint, filter, fold,
%% smallest/largest/take_*, iterator/iterator_from/next, balance, singleton, errors.
main() ->
    S0 = gb_sets:new(),
    S1 = gb_sets:from_list([5, 3, 8, 1, 3, 9, 5]),
    S2 = gb_sets:from_list([3, 4, 5, 6]),
    t(empty, fun() -> {gb_sets:is_empty(S0), gb_sets:size(S0), S0 =:= gb_sets:empty(), gb_sets:is_set(S0), gb_sets:is_set(foo)} end),
    t(from_list, fun() -> {gb_sets:to_list(S1), gb_sets:size(S1)} end),
    t(structure, fun() -> S1 end),
    t(singleton, fun() -> gb_sets:singleton(x) end),
    t(add, fun() -> gb_sets:to_list(gb_sets:add(4, gb_sets:add_element(1, S1))) end),
    t(insert, fun() -> gb_sets:to_list(gb_sets:insert(2, S1)) end),
    t(insert_dup, fun() -> gb_sets:insert(3, S1) end),
    t(delete, fun() -> gb_sets:to_list(gb_sets:delete(3, S1)) end),
    t(delete_missing, fun() -> gb_sets:delete(4, S1) end),
    t(delete_any, fun() -> {gb_sets:to_list(gb_sets:delete_any(4, S1)), gb_sets:to_list(gb_sets:del_element(9, S1))} end),
    t(member, fun() -> {gb_sets:is_member(8, S1), gb_sets:is_element(7, S1), gb_sets:is_member(8.0, S1)} end),
    t(union, fun() -> gb_sets:to_list(gb_sets:union(S1, S2)) end),
    t(union_list, fun() -> gb_sets:to_list(gb_sets:union([S1, S2, gb_sets:from_list([100])])) end),
    t(intersection, fun() -> gb_sets:to_list(gb_sets:intersection(S1, S2)) end),
    t(intersection_list, fun() -> gb_sets:to_list(gb_sets:intersection([S1, S2, gb_sets:from_list([5, 3])])) end),
    t(intersection_empty_list, fun() -> gb_sets:intersection([]) end),
    t(subtract, fun() -> {gb_sets:to_list(gb_sets:subtract(S1, S2)), gb_sets:to_list(gb_sets:difference(S2, S1))} end),
    t(is_subset, fun() -> {gb_sets:is_subset(gb_sets:from_list([1, 3]), S1), gb_sets:is_subset(S2, S1), gb_sets:is_subset(S0, S1)} end),
    t(is_disjoint, fun() -> {gb_sets:is_disjoint(S1, S2), gb_sets:is_disjoint(S1, gb_sets:from_list([2, 4]))} end),
    t(filter, fun() -> gb_sets:to_list(gb_sets:filter(fun(X) -> X > 4 end, S1)) end),
    t(fold, fun() -> gb_sets:fold(fun(X, A) -> [X | A] end, [], S1) end),
    t(smallest_largest, fun() -> {gb_sets:smallest(S1), gb_sets:largest(S1)} end),
    t(take_smallest, fun() -> {X, S} = gb_sets:take_smallest(S1), {X, gb_sets:to_list(S)} end),
    t(take_largest, fun() -> {X, S} = gb_sets:take_largest(S1), {X, gb_sets:to_list(S)} end),
    t(smallest_empty, fun() -> gb_sets:smallest(S0) end),
    t(iterator, fun() -> iter(gb_sets:iterator(S1)) end),
    t(iterator_from, fun() -> iter(gb_sets:iterator_from(4, S1)) end),
    t(from_ordset, fun() -> gb_sets:to_list(gb_sets:from_ordset([a, b, c])) end),
    t(balance, fun() -> gb_sets:balance(lists:foldl(fun gb_sets:insert/2, S0, lists:seq(1, 6))) end),
    t(large, fun() ->
        A = gb_sets:from_list(lists:seq(1, 1000, 3)),
        B = gb_sets:from_list(lists:seq(1, 1000, 5)),
        {gb_sets:size(A), gb_sets:size(B), gb_sets:size(gb_sets:union(A, B)),
         gb_sets:to_list(gb_sets:intersection(A, B)) -- lists:seq(1, 1000, 15),
         gb_sets:size(gb_sets:subtract(A, B))} end),
    t(bad_set, fun() -> gb_sets:size(not_a_set) end),
    t(bad_from_list, fun() -> gb_sets:from_list(not_a_list) end),
    ok.

iter(I) ->
    case gb_sets:next(I) of
        none -> [];
        {X, I2} -> [X | iter(I2)]
    end.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
