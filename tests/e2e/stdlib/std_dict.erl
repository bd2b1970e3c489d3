-module(std_dict).
-export([main/0]).

%% dict: new, store, append, append_list, update/3,4, update_counter, fetch, find,
%% is_key, erase, take, fetch_keys, to_list (hash order is deterministic: it relies on
%% erlang:phash/2), from_list, size, is_empty, map, filter, fold, merge, and errors.
main() ->
    D0 = dict:new(),
    D1 = dict:from_list([{K, v} || K <- [a, b, c, 1, 2, "str", {t, 1}, 3.5]]),
    t(empty, fun() -> {dict:size(D0), dict:is_empty(D0), dict:to_list(D0)} end),
    t(to_list_hash_order, fun() -> dict:to_list(D1) end),
    t(to_list_sorted, fun() -> lists:sort(dict:to_list(dict:from_list([{a, 1}, {b, 2}, {a, 3}]))) end),
    t(store_fetch, fun() -> D = dict:store(x, 1, dict:store(x, 0, D0)), {dict:fetch(x, D), dict:size(D)} end),
    t(fetch_missing, fun() -> dict:fetch(zz, D0) end),
    t(find, fun() -> D = dict:from_list([{k, v}]), {dict:find(k, D), dict:find(q, D)} end),
    t(is_key, fun() -> D = dict:from_list([{k, v}]), {dict:is_key(k, D), dict:is_key(v, D)} end),
    t(erase, fun() -> D = dict:erase(k, dict:from_list([{k, v}, {j, w}])), {dict:to_list(D), dict:to_list(dict:erase(nope, D))} end),
    t(take, fun() -> D = dict:from_list([{k, v}, {j, w}]), {element(1, dict:take(k, D)), dict:take(nope, D)} end),
    t(append, fun() -> D = dict:append(k, 2, dict:append(k, 1, D0)), dict:fetch(k, D) end),
    t(append_list, fun() -> D = dict:append_list(k, [3, 4], dict:append(k, 1, D0)), dict:fetch(k, D) end),
    t(append_nonlist, fun() -> dict:append(k, 2, dict:store(k, notlist, D0)) end),
    t(update, fun() -> dict:fetch(k, dict:update(k, fun(V) -> V + 1 end, dict:store(k, 1, D0))) end),
    t(update_missing, fun() -> dict:update(k, fun(V) -> V + 1 end, D0) end),
    t(update4, fun() -> D = dict:update(k, fun(V) -> V + 1 end, 100, D0), dict:fetch(k, dict:update(k, fun(V) -> V + 1 end, 100, D)) end),
    t(update_counter, fun() -> D = dict:update_counter(c, 5, dict:update_counter(c, 1, D0)), dict:fetch(c, D) end),
    t(update_counter_bad, fun() -> dict:update_counter(c, 1, dict:store(c, x, D0)) end),
    t(fetch_keys, fun() -> lists:sort(dict:fetch_keys(dict:from_list([{b, 1}, {a, 2}]))) end),
    t(map, fun() -> lists:sort(dict:to_list(dict:map(fun(K, V) -> {K, V} end, dict:from_list([{1, a}, {2, b}])))) end),
    t(filter, fun() -> lists:sort(dict:to_list(dict:filter(fun(K, _) -> K > 5 end, dict:from_list([{K, K} || K <- lists:seq(1, 10)])))) end),
    t(fold, fun() -> dict:fold(fun(K, V, A) -> K + V + A end, 0, dict:from_list([{K, K * 2} || K <- lists:seq(1, 100)])) end),
    t(merge, fun() -> lists:sort(dict:to_list(dict:merge(fun(_K, A, B) -> A + B end, dict:from_list([{a, 1}, {b, 2}]), dict:from_list([{b, 10}, {c, 20}])))) end),
    t(large, fun() ->
        D = lists:foldl(fun(K, A) -> dict:store(K, K, A) end, D0, lists:seq(1, 500)),
        D2 = lists:foldl(fun(K, A) -> dict:erase(K, A) end, D, lists:seq(1, 500, 2)),
        {dict:size(D), dict:size(D2), lists:sum([V || {_, V} <- dict:to_list(D2)]),
         lists:sublist(dict:fetch_keys(D2), 10)} end),
    t(hash_order_small, fun() -> dict:fetch_keys(dict:from_list([{K, x} || K <- [zeta, alpha, 42, <<"bin">>, [1, 2], 1.0e10, -7]])) end),
    t(bad_dict, fun() -> dict:fetch(a, not_a_dict) end),
    t(bad_from_list, fun() -> dict:from_list([a]) end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
