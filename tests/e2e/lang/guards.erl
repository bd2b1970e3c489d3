-module(guards).
-export([main/0]).

%% Guards: type tests, comparisons, guard BIFs, ; and , sequences, failing guard BIFs.
main() ->
    Vals = [0, 5, -3, 2.5, foo, "str", <<"bin">>, {a, b}, {a, b, c}, [], [1], #{k => 1},
            fun() -> ok end, 1 bsl 70, <<1:3>>, true],
    lists:foreach(fun(V) -> io:format("~w~n", [classify(V)]) end, Vals),
    io:format("~w~n", [[range(X) || X <- [-5, 0, 5, 10, 15, 100]]]),
    io:format("~w~n", [[safe(X) || X <- [[1, 2], [], foo, {1}, {}, <<"ab">>]]]),
    io:format("~w~n", [[multi(X, Y) || {X, Y} <- [{1, 1}, {1, 2}, {a, a}, {2, 1.0}, {"a", "a"}]]]),
    io:format("~w~n", [[bool_guard(X) || X <- [1, 2, 3, 4, 5, 6]]]),
    io:format("~w~n", [[arith_guard(X) || X <- [4, 7, 10, 3.0, atom]]]),
    io:format("~w~n", [[elem_guard(X) || X <- [{1, 2}, {3}, {}, [x], 5]]]),
    io:format("~w~n", [[map_guard(X) || X <- [#{a => 1}, #{b => 2}, #{}, not_map]]]),
    io:format("~w~n", [[if_test(X) || X <- [-1, 0, 1]]]),
    io:format("~w~n", [[not_guard(X) || X <- [true, false, 1]]]),
    ok.

classify(X) when is_integer(X), X > 0 -> {pos_int, X};
classify(X) when is_integer(X), X < 0 -> neg_int;
classify(0) -> zero;
classify(X) when is_float(X) -> float;
classify(X) when is_boolean(X) -> boolean;
classify(X) when is_atom(X) -> atom;
classify(X) when is_binary(X) -> binary;
classify(X) when is_bitstring(X) -> bitstring;
classify(X) when is_tuple(X), tuple_size(X) =:= 2 -> pair;
classify(X) when is_tuple(X) -> tuple;
classify(X) when is_list(X), length(X) > 0 -> nonempty_list;
classify(X) when is_list(X) -> empty_list;
classify(X) when is_map(X) -> map;
classify(X) when is_function(X, 0) -> fun0;
classify(_) -> other.

range(X) when X < 0 -> negative;
range(X) when X >= 0, X < 10 -> small;
range(X) when X >= 10, X =< 15; X =:= 100 -> special;
range(_) -> other.

safe(X) when hd(X) > 0 -> head_positive;
safe(X) when length(X) >= 0 -> list;
safe(X) when element(1, X) =:= 1 -> tuple_one;
safe(X) when byte_size(X) > 1 -> bin;
safe(_) -> fallthrough.

multi(X, X) -> same;
multi(X, Y) when X == Y -> equal;
multi(X, Y) when X < Y -> less;
multi(_, _) -> greater.

bool_guard(X) when X rem 2 =:= 0 andalso X > 2 -> even_big;
bool_guard(X) when X =:= 1 orelse X =:= 3 -> one_or_three;
bool_guard(X) when (X > 4) xor (X > 5) -> five;
bool_guard(_) -> none.

arith_guard(X) when X * 2 + 1 > 15 -> big;
arith_guard(X) when abs(X - 5) < 2 -> near5;
arith_guard(X) when trunc(X) =:= 3 -> three;
arith_guard(X) when X div 2 =:= 2 -> four_ish;
arith_guard(_) -> nope.

elem_guard(T) when tuple_size(T) > 1, element(2, T) > 1 -> second_big;
elem_guard(T) when is_tuple(T), size(T) =:= 1 -> one;
elem_guard(T) when size(T) =:= 0 -> empty;
elem_guard(_) -> not_tuple.

map_guard(M) when is_map_key(a, M) -> has_a;
map_guard(M) when map_get(b, M) =:= 2 -> b_is_2;
map_guard(M) when is_map(M) -> map;
map_guard(_) -> other.

if_test(X) ->
    if X < 0 -> neg;
       X =:= 0 -> zero;
       true -> pos
    end.

not_guard(X) when not X -> was_false;
not_guard(X) when X -> was_true;
not_guard(_) -> not_bool.
