-module(binaries_basic).
-export([main/0]).

%% Binary construction and printing.
main() ->
    B1 = <<1, 2, 3>>,
    B2 = <<"hello">>,
    B3 = <<B1/binary, B2/binary, 0>>,
    io:format("~w ~p ~w~n", [B1, B2, B3]),
    io:format("~p ~p~n", [<<>>, <<"with \"quotes\" and \\ and \n newline\t">>]),
    io:format("~p~n", [<<"printable", 1, 10>>]),
    io:format("~p~n", [<<0, 1, 255>>]),
    io:format("sizes ~w ~w ~w~n", [byte_size(B3), bit_size(B3), byte_size(<<>>)]),
    X = id(300), Y = id(-1),
    io:format("ints ~w ~w ~w~n", [<<X>>, <<X:16>>, <<Y:8, Y:16, Y:3, 0:5>>]),
    io:format("little ~w ~w~n", [<<X:16/little>>, <<X:32/little-signed>>]),
    io:format("big int seg ~w~n", [<<(1 bsl 70):80>>]),
    io:format("neg big seg ~w~n", [<<(-(1 bsl 70)):80/little>>]),
    io:format("string seg ~w~n", [<<"ab", "cd">>]),
    io:format("list to bin ~p~n", [list_to_binary([$a, [$b, <<"cd">>], "ef"])]),
    io:format("eq ~w ~w~n", [<<"abc">> =:= <<$a, $b, $c>>, <<1>> < <<1, 0>>]),
    io:format("size var ~w~n", [<<X:(id(12)), 0:4>>]),
    io:format("long ~p~n", [list_to_binary(lists:seq(32, 126))]),
    io:format("long bytes ~p~n", [list_to_binary(lists:seq(0, 40))]),
    io:format("~w~n", [<<"bin in w">>]),
    ok.

id(X) -> X.
