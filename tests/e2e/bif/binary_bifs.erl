-module(binary_bifs).
-export([main/0]).

%% binary_to_list/1,3, list_to_binary, iolist_to_binary, byte_size, bit_size,
%% split_binary, binary_part, list_to_bitstring, bitstring_to_list.
main() ->
    B = <<"hello world">>,
    io:format("~w~n", [binary_to_list(B)]),
    io:format("~w~n", [binary_to_list(B, 1, 5)]),
    io:format("~p~n", [list_to_binary(["abc", $d, <<"ef">>, [[$g], <<>>], []])]),
    io:format("~p~n", [iolist_to_binary([<<"x">>, "yz", [[[$!]]]])]),
    io:format("~p~n", [iolist_to_binary(<<"already">>)]),
    io:format("~p~n", [iolist_to_binary(binary_part(id(B), 2, 3))]),
    io:format("~w ~w ~w~n", [byte_size(B), bit_size(B), byte_size(<<1:9>>)]),
    io:format("~w ~w~n", [bit_size(<<1:9>>), bit_size(<<>>)]),
    {L, R} = split_binary(B, 5),
    io:format("~p ~p~n", [L, R]),
    io:format("~p ~p~n", [split_binary(B, 0), split_binary(B, 11)]),
    io:format("~p ~p~n", [binary_part(B, 6, 5), binary_part(B, {11, -5})]),
    io:format("~w~n", [list_to_bitstring([<<1:3>>, <<2:5>>, 255])]),
    io:format("~w~n", [bitstring_to_list(<<1, 2, 3:4>>)]),
    io:format("iolist_size ~w~n", [iolist_size(["ab", <<"cd">>, [$e | <<"f">>]])]),
    io:format("improper iolist ~p~n", [iolist_to_binary(["a" | <<"b">>])]),
    Errs = [fun() -> list_to_binary(id([256])) end, fun() -> list_to_binary(id([-1])) end,
            fun() -> list_to_binary(id([a])) end, fun() -> binary_to_list(id(abc)) end,
            fun() -> split_binary(id(B), 12) end, fun() -> binary_part(id(B), 10, 5) end,
            fun() -> iolist_to_binary(id([<<1:3>>])) end, fun() -> byte_size(id("abc")) end,
            fun() -> list_to_binary(id(<<1, 2>>)) end, fun() -> list_to_bitstring(id(<<1:3>>)) end],
    io:format("errors ~w~n", [[try F() catch error:E -> E end || F <- Errs]]),
    Big = list_to_binary(lists:duplicate(1000, "abcd")),
    io:format("big ~w ~p~n", [byte_size(Big), binary_part(Big, 3998, 2)]),
    ok.

id(X) -> X.
