-module(pattern_matching).
-export([main/0]).

%% Pattern matching: aliases, repeated variables, literals, nested structures.
main() ->
    {A, A} = id({1, 1}),
    io:format("same ~w~n", [A]),
    [H | _] = T = id([x, y, z]),
    io:format("alias ~w ~w~n", [H, T]),
    {ok, {point, X, Y} = P} = id({ok, {point, 3, 4}}),
    io:format("nested ~w ~w ~w~n", [X, Y, P]),
    io:format("~w~n", [[eq(V) || V <- [{1, 1}, {1, 2}, {a, a}, {[1], [1]}, {1, 1.0}]]]),
    io:format("~w~n", [[lit(V) || V <- [0, 1.0, "abc", <<"abc">>, [], {}, #{}, abc, -5, $a]]]),
    io:format("~w~n", [[deep(V) || V <- [{a, [1, {b, 2}]}, {a, [1, {b, 3}]}, {a, []}, x]]]),
    "prefix" ++ Rest = id("prefix-rest"),
    io:format("string prefix ~s~n", [Rest]),
    io:format("~w~n", [[str(S) || S <- ["GET /a", "POST /b", "XYZ"]]]),
    Res = try {a, b} = id({a, c}) catch error:{badmatch, V} -> {badmatch, V} end,
    io:format("badmatch ~w~n", [Res]),
    io:format("tuple_list ~w~n", [swap_all([{1, a}, {2, b}])]),
    io:format("last ~w~n", [last([1, 2, 3, 4])]),
    {_, _, Third} = id({1, 2, 3}),
    io:format("third ~w~n", [Third]),
    <<B1, B2/binary>> = id(<<"xyz">>),
    io:format("bin ~w ~p~n", [B1, B2]),
    #{k := {_, [Inner | _]}} = id(#{k => {ignored, [inner, more]}}),
    io:format("map nested ~w~n", [Inner]),
    ok.

eq({X, X}) -> same;
eq({_, _}) -> diff.

lit(0) -> zero_int;
lit(1.0) -> one_float;
lit("abc") -> abc_string;
lit(<<"abc">>) -> abc_binary;
lit([]) -> nil;
lit({}) -> empty_tuple;
lit(#{}) -> any_map;
lit(abc) -> abc_atom;
lit(-5) -> minus_five;
lit($a) -> char_a.

deep({a, [_, {b, 2}]}) -> matched;
deep({a, [_ | _]}) -> partial;
deep({a, _}) -> only_a;
deep(_) -> none.

str("GET " ++ Path) -> {get, Path};
str("POST " ++ Path) -> {post, Path};
str(_) -> unknown.

swap_all([{X, Y} | T]) -> [{Y, X} | swap_all(T)];
swap_all([]) -> [].

last([X]) -> X;
last([_ | T]) -> last(T).

id(X) -> X.
