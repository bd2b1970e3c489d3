-module(number_compare).
-export([main/0]).

%% Integer/float comparisons: == vs =:=, ordering across types and bignums.
main() ->
    Pairs = [{1, 1.0}, {0, 0.0}, {0, -0.0}, {0.0, -0.0}, {-1, -1.0}, {2, 1.5},
             {1 bsl 70, float(1 bsl 70)}, {(1 bsl 70) + 1, float(1 bsl 70)},
             {9007199254740993, 9007199254740992.0}, {3, 3}, {1.0e300, 1 bsl 900},
             {-(1 bsl 900), -1.0e300}, {5, 5.000000001}],
    lists:foreach(fun({A, B}) ->
        io:format("~w ~w: == ~w =:= ~w /= ~w =/= ~w < ~w =< ~w > ~w >= ~w~n",
                  [A, B, A == B, A =:= B, A /= B, A =/= B, A < B, A =< B, A > B, A >= B])
    end, Pairs),
    io:format("max ~w ~w~n", [max(1, 1.0), max(1.0, 1)]),
    io:format("min ~w ~w~n", [min(1, 1.0), min(1.0, 1)]),
    %% No ==-equal integer/float pairs: OTP's sort/1 orders those by its merge pattern, while
    %% beamlet's lists:sort/1 is stable (bif/lib/README.md).
    io:format("sort ~w~n", [lists:sort([3, 1.5, 2, 1, 2.5, 0.5, -1, -1.5])]),
    io:format("usort ~w~n", [lists:usort([3, 1.0, 2, 1, 2.0, 0.5])]),
    io:format("member ~w ~w~n", [lists:member(1.0, [1, 2]), lists:member(1, [1.0])]),
    io:format("case ~w~n", [case id(1.0) of 1 -> int; 1.0 -> float end]),
    io:format("match ~w~n", [try 1 = id(1.0), yes catch error:{badmatch, V} -> {no, V} end]),
    ok.

id(X) -> X.
