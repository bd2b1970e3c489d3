-module(lists_keys).
-export([main/0]).

%% lists: keyfind, keymember, keysearch, keystore, keydelete, keyreplace, keytake, keymap.
main() ->
    L = [{a, 1}, {b, 2}, {c, 3}, {b, 4}],
    io:format("~w ~w ~w~n", [lists:keyfind(b, 1, L), lists:keyfind(z, 1, L), lists:keyfind(3, 2, L)]),
    io:format("~w ~w~n", [lists:keymember(c, 1, L), lists:keymember(c, 2, L)]),
    io:format("~w ~w~n", [lists:keysearch(a, 1, L), lists:keysearch(q, 1, L)]),
    io:format("~w~n", [lists:keystore(b, 1, L, {b, 20})]),
    io:format("~w~n", [lists:keystore(d, 1, L, {d, 5})]),
    io:format("~w~n", [lists:keydelete(b, 1, L)]),
    io:format("~w~n", [lists:keydelete(z, 1, L)]),
    io:format("~w~n", [lists:keyreplace(c, 1, L, {c, 30})]),
    io:format("~w~n", [lists:keyreplace(z, 1, L, {z, 0})]),
    io:format("~w ~w~n", [lists:keytake(b, 1, L), lists:keytake(z, 1, L)]),
    io:format("~w~n", [lists:keymap(fun(X) -> X * 100 end, 2, L)]),
    io:format("mixed ~w~n", [lists:keyfind(1, 1, [{1.0, float}, {1, int}])]),
    io:format("short tuples ~w~n", [lists:keyfind(x, 2, [{x}, {a, x}, {b, x, y}])]),
    io:format("non tuples ~w~n", [lists:keyfind(a, 1, [a, [a], {a, found}])]),
    Db = lists:foldl(fun({K, V}, Acc) ->
                         case lists:keyfind(K, 1, Acc) of
                             {K, Old} -> lists:keyreplace(K, 1, Acc, {K, Old + V});
                             false -> [{K, V} | Acc]
                         end
                     end, [], [{x, 1}, {y, 2}, {x, 3}, {z, 4}, {y, 5}]),
    io:format("db ~w~n", [lists:keysort(1, Db)]),
    ok.
