-module(std_maps).
-export([main/0]).

%% maps (OTP 25): new, put, get/2,3, find, is_key, remove, take, update, update_with/3,4,
%% keys/values/to_list (small maps: key order), from_list, from_keys, iterator/next,
%% fold, foreach, map, filter, filtermap, with, without, merge, merge_with, intersect,
%% intersect_with, groups_from_list/2,3 (new in OTP 25), size, and errors (badmap, badkey).
%% Large maps (> 32 keys) are only printed sorted.
main() ->
    M = #{a => 1, b => 2, c => 3, 1 => int, 1.0 => float, "s" => str, {t} => tuple},
    t(small_order, fun() -> {maps:keys(M), maps:values(M), maps:to_list(M)} end),
    t(print, fun() -> M end),
    t(get, fun() -> {maps:get(a, M), maps:get(1, M), maps:get(1.0, M), maps:get(zz, M, dflt)} end),
    t(get_missing, fun() -> maps:get(zz, id(M)) end),
    t(get_badmap, fun() -> maps:get(a, id([a])) end),
    t(find, fun() -> {maps:find(b, M), maps:find(zz, M)} end),
    t(is_key, fun() -> {maps:is_key(c, M), maps:is_key(d, M), maps:is_key(1, #{1.0 => x})} end),
    t(put, fun() -> maps:put(d, 4, maps:put(a, 100, #{a => 1})) end),
    t(remove, fun() -> {maps:remove(a, #{a => 1, b => 2}), maps:remove(zz, #{a => 1})} end),
    t(take, fun() -> {maps:take(a, #{a => 1, b => 2}), maps:take(zz, #{a => 1})} end),
    t(update, fun() -> maps:update(a, new, #{a => 1}) end),
    t(update_missing, fun() -> maps:update(b, new, #{a => 1}) end),
    t(update_with3, fun() -> maps:update_with(a, fun(V) -> V + 1 end, #{a => 1}) end),
    t(update_with3_missing, fun() -> maps:update_with(b, fun(V) -> V + 1 end, #{a => 1}) end),
    t(update_with4, fun() -> {maps:update_with(a, fun(V) -> V + 1 end, 0, #{a => 1}), maps:update_with(b, fun(V) -> V + 1 end, 0, #{a => 1})} end),
    t(from_list, fun() -> maps:from_list([{a, 1}, {b, 2}, {a, 3}]) end),
    t(from_list_bad, fun() -> maps:from_list([a]) end),
    t(from_keys, fun() -> maps:from_keys([x, y, z], 0) end),
    t(size, fun() -> {maps:size(M), map_size(#{}), maps:size(maps:new())} end),
    t(iterator, fun() -> iter(maps:iterator(#{c => 3, a => 1, b => 2})) end),
    t(iterator_empty, fun() -> maps:next(maps:iterator(#{})) end),
    t(fold, fun() -> maps:fold(fun(K, V, A) -> [{K, V} | A] end, [], #{x => 1, y => 2, z => 3}) end),
    t(foreach, fun() -> put(k, []), maps:foreach(fun(K, V) -> put(k, [K, V | get(k)]) end, #{p => 1, q => 2}), erase(k) end),
    t(map, fun() -> maps:map(fun(K, V) -> {K, V} end, #{a => 1, b => 2}) end),
    t(filter, fun() -> maps:filter(fun(_K, V) -> V > 1 end, #{a => 1, b => 2, c => 3}) end),
    t(filtermap, fun() -> maps:filtermap(fun(a, _) -> false; (b, _) -> true; (_, V) -> {true, V * 10} end, #{a => 1, b => 2, c => 3}) end),
    t(with, fun() -> maps:with([a, c, zz], #{a => 1, b => 2, c => 3}) end),
    t(without, fun() -> maps:without([a, c, zz], #{a => 1, b => 2, c => 3}) end),
    t(merge, fun() -> maps:merge(#{a => 1, b => 2}, #{b => 20, c => 30}) end),
    t(merge_with, fun() -> maps:merge_with(fun(K, V1, V2) -> {K, V1, V2} end, #{a => 1, b => 2}, #{b => 20, c => 30}) end),
    t(intersect, fun() -> maps:intersect(#{a => 1, b => 2, c => 3}, #{b => 20, c => 30, d => 40}) end),
    t(intersect_with, fun() -> maps:intersect_with(fun(_K, V1, V2) -> V1 + V2 end, #{a => 1, b => 2, c => 3}, #{b => 20, c => 30, d => 40}) end),
    t(groups_from_list2, fun() -> maps:groups_from_list(fun(X) -> X rem 3 end, lists:seq(1, 10)) end),
    t(groups_from_list3, fun() -> maps:groups_from_list(fun erlang:length/1, fun lists:reverse/1, ["ab", "cd", "e", "fgh", "i"]) end),
    t(groups_from_list_empty, fun() -> maps:groups_from_list(fun(X) -> X end, []) end),
    t(nested, fun() -> #{outer => #{inner => #{deepest => [1, 2]}}, list => [#{}, #{k => v}]} end),
    t(key_order_mixed, fun() -> maps:keys(#{<<"b">> => 1, b => 2, 2 => 3, 1.5 => 4, "b" => 5, {b} => 6, [] => 7, #{} => 8}) end),
    t(large_sorted, fun() ->
        Big = maps:from_list([{K, K * K} || K <- lists:seq(1, 100)]),
        Big2 = maps:filter(fun(K, _) -> K rem 10 =:= 0 end, Big),
        {maps:size(Big), maps:get(77, Big), lists:sum(maps:values(Big)),
         lists:sort(maps:to_list(Big2)), maps:fold(fun(K, V, A) -> K + V + A end, 0, Big)} end),
    t(large_sorted_keys, fun() ->
        Big = maps:from_list([{integer_to_list(K), K} || K <- lists:seq(1, 40)]),
        lists:sublist(lists:sort(maps:keys(Big)), 8) end),
    t(badmap_put, fun() -> maps:put(a, 1, notamap) end),
    t(badmap_keys, fun() -> maps:keys(notamap) end),
    t(badmap_merge, fun() -> maps:merge(#{}, notamap) end),
    t(bad_iterator, fun() -> maps:next(notaniter) end),
    t(badarg_fold_fun, fun() -> maps:fold(notafun, 0, #{a => 1}) end),
    t(badarg_with, fun() -> maps:with(notalist, #{}) end),
    t(map_syntax_update_bad, fun() -> (id(#{a => 1}))#{b := 2} end),
    t(map_match_fail, fun() -> #{zz := _} = id(#{a => 1}) end),
    ok.

id(X) -> X.

iter(I) ->
    case maps:next(I) of
        none -> [];
        {K, V, I2} -> [{K, V} | iter(I2)]
    end.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
