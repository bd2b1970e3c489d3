-module(std_array).
-export([main/0]).

%% array: new/0,1,2 (size, fixed, default), set, get, size, default, fix/relax, is_fix,
%% resize, reset, from_list/to_list, sparse_to_list, from_orddict/to_orddict,
%% sparse_to_orddict, map, sparse_map, foldl/foldr, sparse_foldl/foldr, is_array, errors
%% (out of range on fixed arrays, negative index, bad options).
main() ->
    A0 = array:new(),
    t(new, fun() -> {array:size(A0), array:is_fix(A0), array:default(A0), array:is_array(A0), array:is_array({a})} end),
    t(new_size, fun() -> A = array:new(10), {array:size(A), array:is_fix(A), array:get(9, A)} end),
    t(new_opts, fun() -> A = array:new([{size, 5}, {default, 0}, {fixed, false}]), {array:size(A), array:is_fix(A), array:to_list(A)} end),
    t(new_2, fun() -> A = array:new(3, {default, x}), array:to_list(A) end),
    t(new_repr, fun() -> array:new(3) end),
    t(set_get, fun() -> A = array:set(17, true, A0), {array:size(A), array:get(17, A), array:get(3, A), array:get(100, A)} end),
    t(set_large, fun() -> A = array:set(1000, x, A0), {array:size(A), array:get(1000, A), array:sparse_size(A)} end),
    t(fixed_out_of_range, fun() -> array:set(10, x, array:new(10)) end),
    t(fixed_get_out_of_range, fun() -> array:get(10, array:new(10)) end),
    t(negative_index, fun() -> array:set(-1, x, A0) end),
    t(negative_get, fun() -> array:get(-1, A0) end),
    t(bad_index, fun() -> array:get(a, A0) end),
    t(relax_fix, fun() ->
        A = array:relax(array:new(3)),
        A2 = array:set(5, y, A),
        F = array:fix(A2),
        {array:is_fix(A), array:size(A2), array:is_fix(F), try array:set(6, z, F) catch error:E -> {caught, E} end} end),
    t(resize, fun() ->
        A = array:from_list([a, b, c, d, e]),
        {array:to_list(array:resize(3, A)), array:size(array:resize(8, A)), array:to_list(array:resize(A))} end),
    t(reset, fun() -> A = array:from_list([a, b, c], z), array:to_list(array:reset(1, A)) end),
    t(from_to_list, fun() -> array:to_list(array:from_list(lists:seq(1, 25))) end),
    t(from_list_default, fun() -> A = array:from_list([1, 2], d), {array:default(A), array:get(5, A)} end),
    t(sparse_to_list, fun() -> A = array:set(7, b, array:set(2, a, array:new({default, u}))), {array:to_list(A), array:sparse_to_list(A)} end),
    t(orddict, fun() -> A = array:from_orddict([{1, a}, {4, b}, {6, c}]), {array:size(A), array:to_orddict(A), array:sparse_to_orddict(A)} end),
    t(from_orddict_bad, fun() -> array:from_orddict([{2, a}, {1, b}]) end),
    t(map, fun() -> array:to_list(array:map(fun(I, V) -> {I, V} end, array:from_list([a, b, c]))) end),
    t(sparse_map, fun() -> A = array:set(4, 40, array:set(1, 10, array:new())), array:to_list(array:sparse_map(fun(I, V) -> I + V end, A)) end),
    t(foldl, fun() -> array:foldl(fun(I, V, Acc) -> [{I, V} | Acc] end, [], array:from_list([x, y, z])) end),
    t(foldr, fun() -> array:foldr(fun(I, V, Acc) -> [{I, V} | Acc] end, [], array:from_list([x, y, z])) end),
    t(sparse_foldl, fun() -> A = array:set(9, n, array:set(3, m, array:new())), array:sparse_foldl(fun(I, V, Acc) -> [{I, V} | Acc] end, [], A) end),
    t(sparse_foldr, fun() -> A = array:set(9, n, array:set(3, m, array:new())), array:sparse_foldr(fun(I, V, Acc) -> [{I, V} | Acc] end, [], A) end),
    t(big, fun() ->
        A = lists:foldl(fun(I, Acc) -> array:set(I, I * I, Acc) end, A0, lists:seq(0, 4999)),
        {array:size(A), array:get(4321, A), array:foldl(fun(_, V, S) -> S + V end, 0, A),
         array:sparse_size(array:reset(4999, A))} end),
    t(repr_small, fun() -> array:from_list([a, b, c]) end),
    t(bad_new, fun() -> array:new([{size, -1}]) end),
    t(bad_new_opt, fun() -> array:new([bogus]) end),
    t(bad_array, fun() -> array:get(0, not_an_array) end),
    t(bad_from_list, fun() -> array:from_list(notalist) end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
