%% tests/e2e/ets/ets_select_replace.erl — select_replace/2: replaces matched objects with the
%% body result and returns the count. Restrictions (all badarg for the whole call, nothing
%% replaced): a body that changes the key (also 1 -> 1.0 on an ordered_set, where 1 == 1.0),
%% a body whose key is another variable equal at run time (the check is static), a body that
%% is not a tuple, an empty body, two body expressions, one bad clause among good ones, a bag
%% table. A duplicate_bag is accepted. The object may change size as long as the
%% key is kept; '$_' as body; compare-and-swap; a table with keypos 2.
-module(ets_select_replace).
-export([main/0]).

main() ->
    T = ets:new(t, [set]),
    true = ets:insert(T, [{I, I, old} || I <- lists:seq(1, 6)]),
    io:format("double even: ~w~n",
              [ets:select_replace(T, [{{'$1', '$2', '_'}, [{'==', {'rem', '$1', 2}, 0}],
                                       [{{'$1', {'*', '$2', 2}, new}}]}])]),
    io:format("after: ~w~n", [lists:sort(ets:tab2list(T))]),
    io:format("'$_' body (identity): ~w~n",
              [ets:select_replace(T, [{{'_', '_', old}, [], ['$_']}])]),
    Bad = [{key_changed, [{{'$1', '$2', '$3'}, [], [{{{'+', '$1', 100}, '$2', '$3'}}]}]},
           {body_atom, [{{'$1', '_', '_'}, [], [true]}]},
           {body_const_tuple, [{{'$1', '_', '_'}, [], [{const, {x, y}}]}]},
           {body_list, [{{'$1', '_', '_'}, [], [['$1']]}]},
           {empty_body, [{{'$1', '_', '_'}, [], []}]},
           {two_bodies, [{{'$1', '_', '_'}, [], [{{'$1', p}}, {{'$1', q}}]}]},
           {one_bad_clause, [{{'$1', '_', old}, [], ['$_']}, {'_', [], [true]}]},
           {wildcard_head_new_tuple, [{'_', [], [{{a, b}}]}]}],
    [io:format("~w: ~w~n", [Name, try_op(fun() -> ets:select_replace(T, MS) end)])
     || {Name, MS} <- Bad],
    io:format("unchanged: ~w~n", [lists:sort(ets:tab2list(T))]),
    io:format("size change: ~w -> ~w~n",
              [ets:select_replace(T, [{{1, '$2', '$3'}, [], [{{1, '$2', '$3', extra}}]}]),
               ets:lookup(T, 1)]),
    io:format("shrink to key only: ~w -> ~w~n",
              [ets:select_replace(T, [{{5, '_', '_'}, [], [{{5}}]}]), ets:lookup(T, 5)]),
    io:format("no match: ~w~n", [ets:select_replace(T, [{{nokey, '_', '_'}, [], ['$_']}])]),
    %% compare-and-swap
    CAS = fun(Key, Old, New) ->
                  ets:select_replace(T, [{{Key, Old, '$3'}, [], [{{Key, New, '$3'}}]}])
          end,
    io:format("cas 3: 3->30 ~w, again 3->31 ~w, obj ~w~n",
              [CAS(3, 3, 30), CAS(3, 3, 31), ets:lookup(T, 3)]),
    %% set: 1.0 is another key than 1
    S = ets:new(s, [set]),
    true = ets:insert(S, {1, a}),
    io:format("set int->float key: ~w~n",
              [try_op(fun() -> ets:select_replace(S, [{{1, '$1'}, [], [{{1.0, '$1'}}]}]) end)]),
    %% the key must be kept syntactically: another variable that is equal at run time is refused
    true = ets:insert(S, [{2, 2}, {3, 3}]),
    io:format("set key from another equal variable: ~w -> ~w~n",
              [try_op(fun() -> ets:select_replace(S, [{{'$1', '$2'}, [{'=:=', '$1', '$2'}],
                                                      [{{'$2', same}}]}]) end),
               lists:sort(ets:tab2list(S))]),
    io:format("set key via const: ~w -> ~w~n",
              [try_op(fun() -> ets:select_replace(S, [{{2, '_'}, [], [{{{const, 2}, c}}]}]) end),
               lists:sort(ets:tab2list(S))]),
    %% ordered_set: 1.0 == 1, still refused
    O = ets:new(o, [ordered_set]),
    true = ets:insert(O, [{1, a}, {2, b}, {3, c}]),
    io:format("oset int->float key: ~w -> ~w~n",
              [try_op(fun() -> ets:select_replace(O, [{{1, '$1'}, [], [{{1.0, '$1'}}]}]) end),
               ets:tab2list(O)]),
    io:format("oset pair up: ~w -> ~w~n",
              [ets:select_replace(O, [{{'$1', '$2'}, [{'>', '$1', 1}], [{{'$1', {{'$2', '$2'}}}}]}]),
               ets:tab2list(O)]),
    B = ets:new(b, [bag]),
    io:format("empty bag: ~w~n", [try_op(fun() -> ets:select_replace(B, [{'_', [], ['$_']}]) end)]),
    true = ets:insert(B, {k, 1}),
    io:format("bag: ~w~n", [try_op(fun() -> ets:select_replace(B, [{{k, '_'}, [], [{{k, 2}}]}]) end)]),
    D = ets:new(d, [duplicate_bag]),
    true = ets:insert(D, [{k, 1}, {k, 1}, {j, 1}]),
    io:format("duplicate_bag: ~w -> ~w~n",
              [try_op(fun() -> ets:select_replace(D, [{{k, '$1'}, [], [{{k, {'+', '$1', 1}}}]}]) end),
               lists:sort(ets:tab2list(D))]),
    K = ets:new(k, [set, {keypos, 2}]),
    true = ets:insert(K, [{v, 1}, {w, 2}]),
    io:format("keypos 2: ~w -> ~w~n",
              [ets:select_replace(K, [{{'$1', '$2'}, [], [{{{{'$1', new}}, '$2'}}]}]),
               lists:sort(ets:tab2list(K))]),
    ok.

try_op(F) ->
    try F() catch C:E -> {error, C, E} end.
