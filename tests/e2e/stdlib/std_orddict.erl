-module(std_orddict).
-export([main/0]).

%% orddict: new, from_list (sorting, duplicate keys), store, append, append_list, update/3,4,
%% update_counter, fetch, find, is_key, erase, take, fetch_keys, to_list, size, is_empty,
%% map, filter, fold, merge, key equality (1 vs 1.0), and errors.
main() ->
    D = orddict:from_list([{c, 3}, {a, 1}, {b, 2}, {a, 10}]),
    t(from_list, fun() -> D end),
    t(new, fun() -> {orddict:new(), orddict:is_empty(orddict:new()), orddict:size(D)} end),
    t(store, fun() -> orddict:store(bb, 5, orddict:store(a, 0, D)) end),
    t(store_num_keys, fun() -> orddict:store(1.0, float, orddict:store(1, int, orddict:new())) end),
    t(fetch, fun() -> orddict:fetch(b, D) end),
    t(fetch_missing, fun() -> orddict:fetch(z, D) end),
    t(fetch_num, fun() -> orddict:fetch(1.0, [{1, one}]) end),
    t(find, fun() -> {orddict:find(c, D), orddict:find(z, D), orddict:find(1.0, [{1, one}])} end),
    t(is_key, fun() -> {orddict:is_key(a, D), orddict:is_key(aa, D)} end),
    t(erase, fun() -> {orddict:erase(b, D), orddict:erase(zz, D)} end),
    t(take, fun() -> {orddict:take(b, D), orddict:take(zz, D)} end),
    t(append, fun() -> orddict:append(l, 2, orddict:append(l, 1, [])) end),
    t(append_list, fun() -> orddict:append_list(l, [3, 4], [{l, [1]}]) end),
    t(append_nonlist, fun() -> orddict:append(l, 2, [{l, x}]) end),
    t(update, fun() -> orddict:update(a, fun(V) -> V * 100 end, D) end),
    t(update_missing, fun() -> orddict:update(z, fun(V) -> V end, D) end),
    t(update4, fun() -> {orddict:update(z, fun(V) -> V end, init, D), orddict:update(a, fun(V) -> -V end, init, D)} end),
    t(update_counter, fun() -> orddict:update_counter(n, 2, orddict:update_counter(a, 5, D)) end),
    t(fetch_keys, fun() -> orddict:fetch_keys(D) end),
    t(to_list, fun() -> orddict:to_list(D) end),
    t(map, fun() -> orddict:map(fun(K, V) -> {K, V} end, D) end),
    t(filter, fun() -> orddict:filter(fun(_, V) -> V > 2 end, D) end),
    t(fold, fun() -> orddict:fold(fun(K, V, A) -> [{V, K} | A] end, [], D) end),
    t(merge, fun() -> orddict:merge(fun(K, A, B) -> {K, A, B} end, [{a, 1}, {c, 3}, {e, 5}], [{b, 2}, {c, 30}, {e, 50}, {f, 6}]) end),
    t(merge_empty, fun() -> {orddict:merge(fun(_, A, _) -> A end, [], [{a, 1}]), orddict:merge(fun(_, A, _) -> A end, [{a, 1}], [])} end),
    t(from_list_mixed, fun() -> orddict:from_list([{2, b}, {1.0, a}, {1, c}, {x, y}, {"s", z}]) end),
    t(from_list_bad, fun() -> orddict:from_list([a, b]) end),
    t(store_bad, fun() -> orddict:store(k, v, notalist) end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
