%% tests/e2e/ets/ets_delete.erl — delete/2 (set, ordered_set with 1.0 for 1, bag key with several
%% objects), delete_object/2 (set: only when the whole object matches; ordered_set; bag),
%% delete_all_objects/1 (size 0, table still usable, keeps options), delete/1 (the table is gone:
%% info undefined, every operation badarg, delete again badarg).
-module(ets_delete).
-export([main/0]).

main() ->
    S = ets:new(s, [set]),
    true = ets:insert(S, [{a, 1}, {b, 2}, {c, 3}]),
    io:format("delete b: ~w -> ~w~n", [ets:delete(S, b), lists:sort(ets:tab2list(S))]),
    io:format("delete_object {a,2} (wrong value): ~w -> ~w~n",
              [ets:delete_object(S, {a, 2}), lists:sort(ets:tab2list(S))]),
    io:format("delete_object {a,1}: ~w -> ~w~n",
              [ets:delete_object(S, {a, 1}), lists:sort(ets:tab2list(S))]),
    io:format("delete_object non-tuple: ~w~n", [try_op(fun() -> ets:delete_object(S, x) end)]),
    O = ets:new(o, [ordered_set]),
    true = ets:insert(O, [{1, a}, {2, b}, {3, c}]),
    io:format("oset delete 2.0: ~w -> ~w~n", [ets:delete(O, 2.0), ets:tab2list(O)]),
    io:format("oset delete_object {1.0,a}: ~w -> ~w~n",
              [ets:delete_object(O, {1.0, a}), ets:tab2list(O)]),
    io:format("oset delete_object {3,c}: ~w -> ~w~n",
              [ets:delete_object(O, {3, c}), ets:tab2list(O)]),
    B = ets:new(b, [bag]),
    true = ets:insert(B, [{k, 1}, {k, 2}, {k, 3}, {j, 1}]),
    io:format("bag delete_object {k,2}: ~w -> ~w~n",
              [ets:delete_object(B, {k, 2}), lists:sort(ets:tab2list(B))]),
    io:format("bag delete k: ~w -> ~w~n", [ets:delete(B, k), lists:sort(ets:tab2list(B))]),
    %% delete_all_objects
    N = ets:new(n, [named_table, ordered_set, {keypos, 2}]),
    true = ets:insert(N, [{x, I} || I <- lists:seq(1, 50)]),
    io:format("size before: ~w~n", [ets:info(N, size)]),
    io:format("delete_all_objects: ~w~n", [ets:delete_all_objects(N)]),
    io:format("size after: ~w, tab2list: ~w, first: ~w~n",
              [ets:info(N, size), ets:tab2list(N), ets:first(N)]),
    io:format("still named/ordered/keypos: ~w ~w ~w~n",
              [ets:info(N, named_table), ets:info(N, type), ets:info(N, keypos)]),
    true = ets:insert(N, {y, 7}),
    io:format("usable after: ~w~n", [ets:tab2list(N)]),
    %% delete/1
    io:format("delete table: ~w~n", [ets:delete(S)]),
    io:format("info after delete: ~w, info size: ~w~n", [ets:info(S), ets:info(S, size)]),
    Ops = [{insert, fun() -> ets:insert(S, {a, 1}) end},
           {lookup, fun() -> ets:lookup(S, a) end},
           {member, fun() -> ets:member(S, a) end},
           {delete_key, fun() -> ets:delete(S, a) end},
           {delete_table, fun() -> ets:delete(S) end},
           {tab2list, fun() -> ets:tab2list(S) end},
           {first, fun() -> ets:first(S) end},
           {select, fun() -> ets:select(S, [{'_', [], ['$_']}]) end},
           {match, fun() -> ets:match(S, '$1') end},
           {foldl, fun() -> ets:foldl(fun(_, A) -> A end, 0, S) end},
           {delete_all_objects, fun() -> ets:delete_all_objects(S) end}],
    [io:format("  after delete ~w: ~w~n", [Name, try_op(F)]) || {Name, F} <- Ops],
    io:format("delete named by name: ~w, info: ~w~n", [ets:delete(n), ets:info(n)]),
    ok.

try_op(F) ->
    try F() catch C:E -> {error, C, E} end.
