-module(std_sets).
-export([main/0]).

%% sets, both the default (version 1, a hash-based record) and {version, 2} (a map):
%% new, from_list, to_list (v1 order is deterministic: it relies on erlang:phash/2),
%% add_element, del_element, is_element, size, is_empty, union, intersection, subtract,
%% is_subset, is_disjoint, filter, fold, is_set, and mixing versions.
main() ->
    lists:foreach(fun(Opts) ->
        io:format("== ~p~n", [Opts]),
        New = fun() -> sets:new(Opts) end,
        From = fun(L) -> sets:from_list(L, Opts) end,
        S0 = New(),
        S1 = From([3, 1, 4, 1, 5, 9, 2, 6, 5, 3]),
        S2 = From([2, 4, 6, 8]),
        t(empty, fun() -> {sets:size(S0), sets:is_empty(S0), sets:to_list(S0), sets:is_set(S0)} end),
        t(to_list_order, fun() -> sets:to_list(S1) end),
        t(sorted, fun() -> lists:sort(sets:to_list(S1)) end),
        t(size, fun() -> sets:size(S1) end),
        t(add_del, fun() -> lists:sort(sets:to_list(sets:del_element(1, sets:add_element(7, S1)))) end),
        t(del_missing, fun() -> sets:size(sets:del_element(100, S1)) end),
        t(is_element, fun() -> {sets:is_element(4, S1), sets:is_element(7, S1), sets:is_element(4.0, S1)} end),
        t(union, fun() -> lists:sort(sets:to_list(sets:union(S1, S2))) end),
        t(union_list, fun() -> lists:sort(sets:to_list(sets:union([S1, S2, From([100])]))) end),
        t(intersection, fun() -> lists:sort(sets:to_list(sets:intersection(S1, S2))) end),
        t(intersection_list, fun() -> lists:sort(sets:to_list(sets:intersection([S1, S2, From([2, 6, 7])]))) end),
        t(subtract, fun() -> lists:sort(sets:to_list(sets:subtract(S1, S2))) end),
        t(is_subset, fun() -> {sets:is_subset(From([1, 2]), S1), sets:is_subset(S2, S1), sets:is_subset(S0, S2)} end),
        t(is_disjoint, fun() -> {sets:is_disjoint(S1, S2), sets:is_disjoint(S1, From([7, 8]))} end),
        t(filter, fun() -> lists:sort(sets:to_list(sets:filter(fun(X) -> X rem 2 =:= 0 end, S1))) end),
        t(fold, fun() -> sets:fold(fun(X, A) -> X + A end, 0, S1) end),
        t(mixed_terms, fun() -> lists:sort(sets:to_list(From([a, "a", <<"a">>, {a}, 1, 1.0, [], #{}]))) end),
        t(large, fun() ->
            A = From(lists:seq(1, 3000)),
            B = sets:subtract(A, From(lists:seq(1, 3000, 2))),
            {sets:size(A), sets:size(B), sets:fold(fun(X, Acc) -> X + Acc end, 0, B)} end),
        %% Only version 1 has a deterministic order for large sets (v2 is a large map).
        [t(v1_order_large, fun() -> lists:sublist(sets:to_list(From(lists:seq(1, 200))), 12) end)
         || Opts =/= [{version, 2}]]
    end, [[], [{version, 1}], [{version, 2}]]),
    t(default_repr, fun() -> sets:from_list([a]) end),
    t(v2_repr, fun() -> sets:from_list([b, a], [{version, 2}]) end),
    t(v2_is_set, fun() -> {sets:is_set(#{}), sets:is_set(#{a => []}), sets:is_set(foo)} end),
    t(mixed_union, fun() -> lists:sort(sets:to_list(sets:union(sets:from_list([1, 2]), sets:from_list([2, 3], [{version, 2}])))) end),
    t(mixed_subset, fun() -> sets:is_subset(sets:from_list([1]), sets:from_list([1, 2], [{version, 2}])) end),
    t(bad_version, fun() -> sets:new([{version, 3}]) end),
    t(bad_set, fun() -> sets:size(not_a_set) end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
