%% tests/e2e/ets/ets_set_basic.erl — a set table: insert (single object and list), overwrite of an
%% existing key, lookup (hit and miss), member, delete/2 (present and absent key), size via
%% info/2, tab2list (sorted: a set's order is unspecified), insert of an empty list, and that
%% keys are compared with =:= (1 and 1.0 are two keys).
-module(ets_set_basic).
-export([main/0]).

main() ->
    T = ets:new(t, [set]),
    io:format("insert single: ~w~n", [ets:insert(T, {a, 1})]),
    io:format("insert list: ~w~n", [ets:insert(T, [{b, 2}, {c, 3}, {d, 4}])]),
    io:format("insert empty list: ~w~n", [ets:insert(T, [])]),
    io:format("size: ~w~n", [ets:info(T, size)]),
    io:format("lookup a: ~w~n", [ets:lookup(T, a)]),
    io:format("lookup missing: ~w~n", [ets:lookup(T, zz)]),
    io:format("member c: ~w, member zz: ~w~n", [ets:member(T, c), ets:member(T, zz)]),
    %% overwrite
    true = ets:insert(T, {a, 100, extra}),
    io:format("after overwrite a: ~w~n", [ets:lookup(T, a)]),
    io:format("size: ~w~n", [ets:info(T, size)]),
    %% a list with the same key twice: the last one wins in a set
    true = ets:insert(T, [{e, first}, {e, second}]),
    io:format("dup key in one list: ~w~n", [ets:lookup(T, e)]),
    io:format("delete b: ~w~n", [ets:delete(T, b)]),
    io:format("delete missing: ~w~n", [ets:delete(T, nothere)]),
    io:format("lookup b: ~w~n", [ets:lookup(T, b)]),
    io:format("tab2list: ~w~n", [lists:sort(ets:tab2list(T))]),
    %% objects of different sizes, and a 1-tuple
    true = ets:insert(T, {only_key}),
    io:format("1-tuple: ~w~n", [ets:lookup(T, only_key)]),
    %% 1 and 1.0 are different keys in a set
    true = ets:insert(T, {1, int}),
    true = ets:insert(T, {1.0, float}),
    io:format("lookup 1: ~w, lookup 1.0: ~w~n", [ets:lookup(T, 1), ets:lookup(T, 1.0)]),
    io:format("size: ~w~n", [ets:info(T, size)]),
    %% string and binary keys
    true = ets:insert(T, [{"str", list}, {<<"str">>, bin}]),
    io:format("lookup \"str\": ~w, lookup <<\"str\">>: ~w~n",
              [ets:lookup(T, "str"), ets:lookup(T, <<"str">>)]),
    io:format("final sorted: ~w~n", [lists:sort(ets:tab2list(T))]),
    io:format("delete table: ~w~n", [ets:delete(T)]),
    ok.
