%% tests/e2e/ets/ets_number_keys.erl — integer vs float keys: a set, bag and duplicate_bag use
%% =:= (1 and 1.0 are two keys; lookup, member, delete only hit the exact one), an ordered_set
%% uses == (one key; the stored key is the one of the last insert; lookup/member/delete/next
%% with either form); nested 1 vs 1.0 inside tuple/list keys; match/select patterns with 1 in
%% the key match exactly (=:=) on every table type, even an ordered_set where lookup uses ==;
%% guards == and =:=; big integers vs floats in an ordered_set.
-module(ets_number_keys).
-export([main/0]).

main() ->
    lists:foreach(fun(Type) -> run(Type) end, [set, ordered_set, bag, duplicate_bag]),
    %% nested
    S = ets:new(s, [set]),
    O = ets:new(o, [ordered_set]),
    Objs = [{{1, a}, int_tuple}, {{1.0, a}, float_tuple}, {[1], int_list}, {[1.0], float_list}],
    true = ets:insert(S, Objs),
    true = ets:insert(O, Objs),
    io:format("nested set: ~w~n", [lists:sort(ets:tab2list(S))]),
    io:format("nested oset: ~w~n", [ets:tab2list(O)]),
    io:format("nested set lookup {1.0,a}: ~w, oset: ~w~n",
              [ets:lookup(S, {1.0, a}), ets:lookup(O, {1, a})]),
    %% patterns with a number key
    io:format("set match {1,'$1'}: ~w~n", [lists:sort(ets:match(S, {{1, '$1'}, '$2'}))]),
    io:format("oset match {1,'$1'}: ~w~n", [ets:match(O, {{1, '$1'}, '$2'})]),
    io:format("oset select key 1.0: ~w~n", [ets:select(O, [{{{1.0, a}, '$1'}, [], ['$1']}])]),
    %% in match specs a bound key matches exactly (=:=), also on an ordered_set
    P = ets:new(p, [ordered_set]),
    true = ets:insert(P, [{1.0, a}, {2, b}, {3, c}]),
    io:format("oset match {1,'$1'} (stored 1.0): ~w~n", [ets:match(P, {1, '$1'})]),
    io:format("oset match_object {2.0,'_'}: ~w~n", [ets:match_object(P, {2.0, '_'})]),
    io:format("oset select_count {2.0,'_'}: ~w~n", [ets:select_count(P, [{{2.0, '_'}, [], [true]}])]),
    io:format("oset select/3 {1,'$1'}: ~w~n", [ets:select(P, [{{1, '$1'}, [], ['$1']}], 1)]),
    io:format("oset match_delete {2.0,'_'}: ~w -> ~w~n",
              [ets:match_delete(P, {2.0, '_'}), ets:tab2list(P)]),
    io:format("oset select_delete {3,'_'}: ~w -> ~w~n",
              [ets:select_delete(P, [{{3, '_'}, [], [true]}]), ets:tab2list(P)]),
    io:format("oset lookup 2.0 still finds 2: ~w~n", [ets:lookup(P, 2.0)]),
    %% guards compare with == or =:=
    N = ets:new(n, [set]),
    true = ets:insert(N, [{1, int}, {1.0, float}, {2, int2}]),
    io:format("select == 1: ~w~n", [lists:sort(ets:select(N, [{{'$1', '$2'}, [{'==', '$1', 1}], ['$2']}]))]),
    io:format("select =:= 1: ~w~n", [ets:select(N, [{{'$1', '$2'}, [{'=:=', '$1', 1}], ['$2']}])]),
    io:format("select =:= 1.0: ~w~n", [ets:select(N, [{{'$1', '$2'}, [{'=:=', '$1', 1.0}], ['$2']}])]),
    %% bignums and floats in an ordered_set
    B = ets:new(b, [ordered_set]),
    Big = 1 bsl 60,
    true = ets:insert(B, [{Big, int}, {float(Big), float}, {Big + 1, int_plus_1}]),
    io:format("oset 2^60 and float: ~w~n", [ets:tab2list(B)]),
    true = ets:insert(B, [{1 bsl 100, big}, {1.0e30, f30}, {-(1 bsl 100), negbig}]),
    io:format("oset bignum order: ~w~n", [ets:tab2list(B)]),
    ok.

run(Type) ->
    T = ets:new(t, [Type]),
    true = ets:insert(T, {1, int}),
    true = ets:insert(T, {1.0, float}),
    io:format("~w: size ~w, lookup 1 ~w, lookup 1.0 ~w~n",
              [Type, ets:info(T, size), sorted(ets:lookup(T, 1)), sorted(ets:lookup(T, 1.0))]),
    io:format("~w: tab2list ~w~n", [Type, sorted(ets:tab2list(T))]),
    true = ets:delete(T, 1),
    io:format("~w: after delete 1: ~w~n", [Type, sorted(ets:tab2list(T))]),
    true = ets:insert(T, [{2, a}, {2.0, b}, {3.0, c}]),
    io:format("~w: member 3 ~w, member 2.0 ~w, size ~w~n",
              [Type, ets:member(T, 3), ets:member(T, 2.0), ets:info(T, size)]),
    io:format("~w: keys ~w~n", [Type, sorted([{K, kind(K)} || {K, _} <- ets:tab2list(T)])]),
    io:format("~w: select_count key == 2: ~w~n",
              [Type, ets:select_count(T, [{{'$1', '_'}, [{'==', '$1', 2}], [true]}])]),
    ok.

%% Every list sorted here has elements that differ beyond ==-equal numbers (2 and 2.0 are
%% tagged with kind/1 first), so the sorted order does not depend on the table's order.
sorted(L) -> lists:sort(L).

kind(K) when is_integer(K) -> int;
kind(K) when is_float(K) -> float.
