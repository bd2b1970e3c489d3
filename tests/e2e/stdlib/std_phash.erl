-module(std_phash).
-export([main/0]).
-compile(nowarn_deprecated_function).  % erlang:phash/2

%% erlang:phash2/1,2 and erlang:phash/2 on many terms: atoms (latin1 and unicode), small and
%% big integers (positive and negative), floats (incl. -0.0), binaries and bitstrings, lists
%% (proper, improper, strings), tuples, maps (small and large), nested terms; ranges incl.
%% 1 and 2^32; equal terms built differently hash equal; bad ranges raise badarg.
main() ->
    Terms = [a, b, '', 'hello world', list_to_atom([16#3a9, 16#3a3]), true, [],
             0, 1, -1, 42, 255, 256, 65535, 1 bsl 27, (1 bsl 27) - 1, -(1 bsl 27), 1 bsl 31,
             1 bsl 32, 1 bsl 59, (1 bsl 59) - 1, 1 bsl 60, -(1 bsl 60), 1 bsl 64, -(1 bsl 64),
             123456789012345678901234567890, -98765432109876543210987654321,
             0.0, -0.0, 1.0, -1.5, 3.141592653589793, 1.0e300, 5.0e-324,
             <<>>, <<0>>, <<"abc">>, <<1:1>>, <<5:3>>, <<"abcdefgh", 7:5>>,
             list_to_binary(lists:seq(0, 255)),
             "abc", [1, 2, 3], [a | b], [[]], [<<"x">>, "y"],
             {}, {a}, {a, b}, {1, 2.0, "three", <<"four">>}, {{{nested}}},
             #{}, #{a => 1}, #{b => 2, a => 1}, #{1 => one, 1.0 => float},
             {lists:seq(1, 100), [{K, K} || K <- lists:seq(1, 10)]}],
    lists:foreach(fun(T) ->
        io:format("~w: ~w ~w ~w ~w ~w~n",
                  [T, erlang:phash2(T), erlang:phash2(T, 1000), erlang:phash2(T, 1 bsl 32),
                   erlang:phash(T, 1 bsl 32), erlang:phash(T, 97)])
    end, Terms),
    Big = maps:from_list([{K, integer_to_list(K)} || K <- lists:seq(1, 100)]),
    Big2 = lists:foldl(fun(K, M) -> maps:put(K, integer_to_list(K), M) end, #{}, lists:reverse(lists:seq(1, 100))),
    io:format("big map: ~w ~w ~w~n", [erlang:phash2(Big), erlang:phash2(Big) =:= erlang:phash2(Big2), erlang:phash(Big, 1 bsl 32)]),
    io:format("equal builds: ~w ~w~n", [erlang:phash2(<<"abc">>) =:= erlang:phash2(list_to_binary(["a", [<<"b">>, $c]])),
                                        erlang:phash2(binary:part(<<"xabcx">>, 1, 3)) =:= erlang:phash2(<<"abc">>)]),
    io:format("range 1: ~w ~w~n", [erlang:phash2(anything, 1), erlang:phash(anything, 1)]),
    io:format("long list: ~w~n", [erlang:phash2(lists:seq(1, 10000))]),
    io:format("long binary: ~w~n", [erlang:phash2(binary:copy(<<"0123456789">>, 1000))]),
    io:format("deep tuple: ~w~n", [erlang:phash2(lists:foldl(fun(X, A) -> {X, A} end, nil, lists:seq(1, 500)))]),
    [io:format("bad ~w: ~w~n", [A, try erlang:phash2(x, A) catch C:E -> {C, E} end]) || A <- [0, -1, 1 bsl 32 + 1, a]],
    [io:format("bad phash ~w: ~w~n", [A, try erlang:phash(x, A) catch C:E -> {C, E} end]) || A <- [0, (1 bsl 32) + 1, 1.5]],
    ok.
