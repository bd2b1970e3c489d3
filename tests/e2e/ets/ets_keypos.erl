%% tests/e2e/ets/ets_keypos.erl — {keypos, N}: records stored by their second element, lookup by
%% that key, overwrite by key, an object shorter than the key position is badarg, info keypos,
%% keypos on an ordered_set (ordered by the key field) and on a bag, match/select on such tables,
%% update_counter/update_element cannot touch the key position (badarg), keypos 0 is badarg.
-module(ets_keypos).
-export([main/0]).

-record(person, {name, age, city}).

main() ->
    T = ets:new(people, [set, {keypos, #person.name}]),
    io:format("keypos: ~w~n", [ets:info(T, keypos)]),
    true = ets:insert(T, [#person{name = bob, age = 30, city = paris},
                          #person{name = alice, age = 25, city = oslo}]),
    io:format("lookup alice: ~w~n", [ets:lookup(T, alice)]),
    true = ets:insert(T, #person{name = alice, age = 26, city = rome}),
    io:format("overwritten alice: ~w~n", [ets:lookup(T, alice)]),
    io:format("lookup_element bob age: ~w~n", [ets:lookup_element(T, bob, #person.age)]),
    io:format("lookup by first elem: ~w~n", [ets:lookup(T, person)]),
    io:format("too short object: ~w~n", [try_op(fun() -> ets:insert(T, {x}) end)]),
    io:format("too short in list: ~w~n",
              [try_op(fun() -> ets:insert(T, [#person{name = c}, {y}]) end)]),
    io:format("c inserted? ~w~n", [ets:lookup(T, c)]),
    io:format("match names over 25: ~w~n",
              [lists:sort(ets:select(T, [{#person{name = '$1', age = '$2', _ = '_'},
                                          [{'>', '$2', 25}], ['$1']}]))]),
    io:format("update_element age: ~w~n", [ets:update_element(T, bob, {#person.age, 31})]),
    io:format("update_element key pos: ~w~n",
              [try_op(fun() -> ets:update_element(T, bob, {#person.name, robert}) end)]),
    io:format("update_counter age: ~w~n", [ets:update_counter(T, bob, {#person.age, 1})]),
    io:format("update_counter key pos: ~w~n",
              [try_op(fun() -> ets:update_counter(T, bob, {#person.name, 1}) end)]),
    io:format("bob: ~w~n", [ets:lookup(T, bob)]),
    io:format("keypos 0: ~w~n", [try_op(fun() -> ets:new(x, [{keypos, 0}]) end)]),
    io:format("keypos atom: ~w~n", [try_op(fun() -> ets:new(x, [{keypos, a}]) end)]),
    %% ordered_set by the third element
    O = ets:new(o, [ordered_set, {keypos, 3}]),
    true = ets:insert(O, [{a, x, 3}, {b, y, 1}, {c, z, 2}, {d, w, 1}]),
    io:format("ordered keypos 3: ~w~n", [ets:tab2list(O)]),
    io:format("first/last: ~w ~w~n", [ets:first(O), ets:last(O)]),
    %% bag with keypos 2
    B = ets:new(b, [bag, {keypos, 2}]),
    true = ets:insert(B, [{1, k, a}, {2, k, a}, {1, k, a}, {3, j, b}]),
    io:format("bag keypos 2 lookup k: ~w~n", [lists:sort(ets:lookup(B, k))]),
    io:format("bag delete_object: ~w ~w~n",
              [ets:delete_object(B, {2, k, a}), lists:sort(ets:lookup(B, k))]),
    ok.

try_op(F) ->
    try F() catch C:E -> {error, C, E} end.
