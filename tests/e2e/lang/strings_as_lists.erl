-module(strings_as_lists).
-export([main/0]).

%% String handling with plain lists of characters.
main() ->
    S = "Hello, World",
    io:format("~s|~p|~w~n", [S, S, S]),
    io:format("len ~w~n", [length(S)]),
    io:format("upper ~s~n", [upper(S)]),
    io:format("rev ~s~n", [lists:reverse(S)]),
    io:format("words ~p~n", [words("  the quick  brown fox ", [], [])]),
    io:format("concat ~s~n", ["abc" ++ "def" ++ [$g]]),
    io:format("join ~s~n", [join(["a", "b", "c"], ", ")]),
    io:format("palin ~w~n", [[palin(W) || W <- ["racecar", "hello", "", "a", "abba"]]]),
    io:format("prefix ~w~n", [[prefix(P, "foobar") || P <- ["foo", "bar", "", "foobarbaz"]]]),
    io:format("replace ~s~n", [replace("a-b-c-d", $-, $+)]),
    io:format("count ~w~n", [count($l, "hello world")]),
    io:format("to int ~w ~w~n", [list_to_integer("12345"), to_int("9876", 0)]),
    io:format("caesar ~s~n", [[rot13(C) || C <- "Hello, World!"]]),
    io:format("escapes ~p~n", ["tab\there\nnewline \"quoted\" back\\slash"]),
    io:format("chars ~p ~p~n", [[$a, $b, 0], [7, 8, 27]]),
    io:format("not string ~p ~p~n", [[1, 2, 3], [104, 105, 1000]]),
    io:format("empty ~p ~s|~n", ["", ""]),
    io:format("deep ~s~n", [["ab", [$c, ["de"]], "f"]]),
    io:format("cmp ~w ~w~n", ["abc" < "abd", "ab" < "abc"]),
    io:format("strip ~p~n", [strip("   padded   ")]),
    ok.

upper([C | T]) when C >= $a, C =< $z -> [C - 32 | upper(T)];
upper([C | T]) -> [C | upper(T)];
upper([]) -> [].

words([], [], Acc) -> lists:reverse(Acc);
words([], Cur, Acc) -> lists:reverse([lists:reverse(Cur) | Acc]);
words([$\s | T], [], Acc) -> words(T, [], Acc);
words([$\s | T], Cur, Acc) -> words(T, [], [lists:reverse(Cur) | Acc]);
words([C | T], Cur, Acc) -> words(T, [C | Cur], Acc).

join([], _) -> [];
join([W], _) -> W;
join([W | Ws], Sep) -> W ++ Sep ++ join(Ws, Sep).

palin(W) -> W =:= lists:reverse(W).

prefix([], _) -> true;
prefix([C | P], [C | S]) -> prefix(P, S);
prefix(_, _) -> false.

replace(S, From, To) -> [case C of From -> To; _ -> C end || C <- S].

count(C, S) -> length([X || X <- S, X =:= C]).

to_int([], Acc) -> Acc;
to_int([D | T], Acc) -> to_int(T, Acc * 10 + D - $0).

rot13(C) when C >= $a, C =< $z -> $a + (C - $a + 13) rem 26;
rot13(C) when C >= $A, C =< $Z -> $A + (C - $A + 13) rem 26;
rot13(C) -> C.

strip(S) -> lists:reverse(drop_sp(lists:reverse(drop_sp(S)))).
drop_sp([$\s | T]) -> drop_sp(T);
drop_sp(S) -> S.
