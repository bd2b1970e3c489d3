-module(binary_comprehension).
-export([main/0]).

%% Binary comprehensions and binary generators in list comprehensions.
main() ->
    B = <<"Hello, World">>,
    Up = << <<(upper(C))>> || <<C>> <= B >>,
    io:format("~s~n", [Up]),
    io:format("~w~n", [<< <<X:16>> || X <- [1, 2, 3] >>]),
    io:format("~w~n", [[X || <<X:16>> <= <<0, 1, 0, 2, 0, 3>>]]),
    io:format("~w~n", [[{R, G, Bl} || <<R, G, Bl>> <= <<1, 2, 3, 4, 5, 6, 7>>]]),
    io:format("~w~n", [<< <<X>> || <<X>> <= <<1, 2, 3, 4, 5, 6>>, X rem 2 =:= 0 >>]),
    io:format("~p~n", [<< <<C, C>> || <<C>> <= <<"abc">> >>]),
    io:format("~w~n", [<< <<(X + Y)>> || X <- [10, 20], Y <- [1, 2, 3] >>]),
    io:format("hex ~s~n", [hex(<<222, 173, 190, 239, 0, 15>>)]),
    io:format("~w~n", [<< <<Bin/binary>> || Bin <- [<<"a">>, <<"bc">>, <<>>, <<"def">>] >>]),
    io:format("~w~n", [<< <<X:4>> || X <- lists:seq(1, 5) >>]),
    io:format("sum ~w~n", [lists:sum([X || <<X:32/little>> <= << <<I:32/little>> || I <- lists:seq(1, 100) >>])]),
    io:format("filter pat ~w~n", [[X || <<1, X>> <= <<1, 10, 2, 20, 1, 30>>]]),
    ok.

upper(C) when C >= $a, C =< $z -> C - 32;
upper(C) -> C.

hex(Bin) -> [digit(N) || <<N:4>> <= Bin].
digit(N) when N < 10 -> $0 + N;
digit(N) -> $a + N - 10.
