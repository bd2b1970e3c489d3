-module(std_ordsets).
-export([main/0]).

%% ordsets: new, from_list, is_set, size, is_empty, to_list, add_element, del_element,
%% is_element, union/1,2, intersection/1,2, subtract, is_subset, is_disjoint, filter, fold,
%% 1 vs 1.0 handling, and errors.
main() ->
    S1 = ordsets:from_list([c, a, b, a, d]),
    S2 = ordsets:from_list([b, d, f]),
    t(from_list, fun() -> S1 end),
    t(new, fun() -> {ordsets:new(), ordsets:is_empty(ordsets:new()), ordsets:size(S1), ordsets:to_list(S1)} end),
    t(is_set, fun() -> [ordsets:is_set(X) || X <- [[], [a, b], [b, a], [a, a], foo, [1, 1.0], [1.0, 2]]] end),
    t(add_element, fun() -> {ordsets:add_element(bb, S1), ordsets:add_element(a, S1), ordsets:add_element(z, [])} end),
    t(add_num, fun() -> {ordsets:add_element(1.0, [1, 2]), ordsets:add_element(1, [1.0, 2])} end),
    t(del_element, fun() -> {ordsets:del_element(b, S1), ordsets:del_element(zz, S1), ordsets:del_element(1.0, [1, 2])} end),
    t(is_element, fun() -> {ordsets:is_element(c, S1), ordsets:is_element(e, S1), ordsets:is_element(1.0, [1])} end),
    t(union, fun() -> ordsets:union(S1, S2) end),
    t(union_num, fun() -> ordsets:union([1, 2.0, 3], [1.0, 2, 4]) end),
    t(union_list, fun() -> ordsets:union([S1, S2, [0, z], []]) end),
    t(union_list_empty, fun() -> ordsets:union([]) end),
    t(intersection, fun() -> ordsets:intersection(S1, S2) end),
    t(intersection_num, fun() -> ordsets:intersection([1, 2.0, 3], [1.0, 2, 4]) end),
    t(intersection_list, fun() -> ordsets:intersection([S1, S2, [d, z]]) end),
    t(intersection_list_empty, fun() -> ordsets:intersection([]) end),
    t(subtract, fun() -> {ordsets:subtract(S1, S2), ordsets:subtract(S2, S1), ordsets:subtract([1, 2], [1.0])} end),
    t(is_subset, fun() -> {ordsets:is_subset([a, d], S1), ordsets:is_subset(S2, S1), ordsets:is_subset([], [])} end),
    t(is_disjoint, fun() -> {ordsets:is_disjoint(S1, S2), ordsets:is_disjoint(S1, [x, y]), ordsets:is_disjoint([1], [1.0])} end),
    t(filter, fun() -> ordsets:filter(fun(X) -> X > b end, S1) end),
    t(fold, fun() -> ordsets:fold(fun(X, A) -> [X | A] end, [], S1) end),
    t(from_list_mixed, fun() -> ordsets:from_list([{1}, "b", 2, 1.0, 1, a, <<"c">>, [], 3.5]) end),
    t(large, fun() ->
        A = ordsets:from_list(lists:seq(1, 1000, 2)),
        B = ordsets:from_list(lists:seq(1, 1000, 3)),
        {length(ordsets:union(A, B)), length(ordsets:intersection(A, B)), length(ordsets:subtract(A, B)),
         lists:sublist(ordsets:intersection(A, B), 5)} end),
    t(from_list_bad, fun() -> ordsets:from_list(notalist) end),
    t(union_bad, fun() -> ordsets:union(a, [b]) end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
