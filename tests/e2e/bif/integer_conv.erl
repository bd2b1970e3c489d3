-module(integer_conv).
-export([main/0]).

%% integer_to_list/1,2, list_to_integer/1,2, integer_to_binary/1,2, binary_to_integer/1,2.
main() ->
    Ns = [0, 1, -1, 255, -255, 123456789, 1 bsl 64, -(1 bsl 70), 36 * 36 - 1],
    lists:foreach(fun(N) ->
        io:format("~w: ~s ~s ~s ~s ~s ~p~n",
                  [N, integer_to_list(N), integer_to_list(N, 2), integer_to_list(N, 16),
                   integer_to_list(N, 36), integer_to_list(N, 7), integer_to_binary(N, 16)])
    end, Ns),
    io:format("~w~n", [[list_to_integer(S) || S <- ["0", "42", "-42", "+17", "007", "123456789012345678901234567890"]]]),
    io:format("~w~n", [[list_to_integer(S, B) || {S, B} <- [{"ff", 16}, {"FF", 16}, {"-1010", 2}, {"zz", 36}, {"777", 8}, {"Zz", 36}]]]),
    io:format("~w~n", [[binary_to_integer(B) || B <- [<<"12">>, <<"-99">>, <<"100000000000000000000000">>]]]),
    io:format("~w~n", [[binary_to_integer(B, R) || {B, R} <- [{<<"dead">>, 16}, {<<"11">>, 3}, {<<"-z">>, 36}]]]),
    io:format("~p~n", [[integer_to_binary(N) || N <- [0, -5, 1 bsl 65]]]),
    Bad = ["", "-", "12a", "1.0", " 1", "1 ", "++1", "0x10"],
    io:format("bad ~w~n", [[try list_to_integer(S) catch error:E -> E end || S <- Bad]]),
    io:format("bad base ~w~n", [[try list_to_integer(S, B) catch error:E -> E end || {S, B} <- [{"12", 2}, {"g", 16}, {"1", 37}, {"1", 1}]]]),
    io:format("bad bin ~w~n", [[try binary_to_integer(B) catch error:E -> E end || B <- [<<>>, <<"x">>, <<"1.5">>]]]),
    io:format("roundtrip ~w~n", [lists:all(fun(N) -> list_to_integer(integer_to_list(N, 13), 13) =:= N end, Ns)]),
    ok.
