-module(guard_exceptions).
-export([main/0]).

%% Exceptions inside guards make the guard fail silently; in bodies they raise.
main() ->
    io:format("~w~n", [[g(X) || X <- [[1], [], {a}, {}, 5, a, <<"b">>, 2.5]]]),
    io:format("~w~n", [[h(X) || X <- [0, 1, 2, a]]]),
    io:format("~w~n", [[semi(X) || X <- [[], [x], a, {}]]]),
    io:format("~w~n", [[andalso_g(X) || X <- [1, a, [1, 2]]]]),
    Body = [try body(X) catch C:R -> {C, R} end || X <- [[1], [], a]],
    io:format("~p~n", [Body]),
    io:format("~w~n", [[if_guard(X) || X <- [{1, 2}, {}, foo]]]),
    io:format("~w~n", [[case_guard(X) || X <- [4, 0, atom]]]),
    ok.

g(X) when hd(X) =:= 1 -> head_one;
g(X) when element(1, X) =:= a -> elem_a;
g(X) when X + 1 > 5 -> bigger;
g(X) when byte_size(X) > 0 -> bin;
g(X) when length(X) =:= 0 -> empty;
g(X) when trunc(X) =:= 2 -> trunc2;
g(_) -> other.

h(X) when 10 div X > 5 -> big_quot;
h(X) when 10 div X >= 0 -> quot;
h(_) -> fallback.

semi(X) when hd(X) =:= x; X =:= a -> first_or_a;
semi(X) when tuple_size(X) =:= 0; length(X) =:= 0 -> empty_thing;
semi(_) -> no.

andalso_g(X) when is_integer(X) andalso X > 0 -> pos;
andalso_g(X) when length(X) > 1 orelse X =:= a -> list_or_a;
andalso_g(_) -> no.

body(X) -> hd(X).

if_guard(X) ->
    if element(2, X) > 1 -> second_gt_1;
       tuple_size(X) =:= 0 -> empty;
       true -> other
    end.

case_guard(X) ->
    case X of
        _ when 8 div X =:= 2 -> two;
        _ when X * 1 =:= 0 -> zero;
        _ -> neither
    end.
