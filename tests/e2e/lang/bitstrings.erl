-module(bitstrings).
-export([main/0]).

%% Non-byte-aligned bitstrings: construction, printing, matching.
main() ->
    B1 = <<1:1>>,
    B2 = <<5:3, 1:2>>,
    B3 = <<"ab", 3:2>>,
    io:format("~w ~w ~w~n", [B1, B2, B3]),
    io:format("~p ~p ~p~n", [B1, B2, B3]),
    io:format("sizes ~w ~w ~w~n", [bit_size(B2), byte_size(B2), bit_size(B3)]),
    io:format("is ~w ~w ~w ~w~n", [is_bitstring(B2), is_binary(B2), is_binary(B3), is_bitstring(<<>>)]),
    C = <<B2/bits, B1/bits, 0:3>>,
    io:format("concat ~w ~w~n", [C, is_binary(C)]),
    <<X:5, Y/bits>> = id(<<255, 0:1>>),
    io:format("~w ~w~n", [X, Y]),
    io:format("rev ~w~n", [revbits(<<16#0F:8, 1:2>>)]),
    io:format("odd ~w~n", [<<(id(-1)):13>>]),
    io:format("cmp ~w ~w~n", [<<1:1>> < <<1:2>>, <<0:1>> < <<1:1>>]),
    io:format("bitcomp ~w~n", [<< <<B:1>> || B <- [1, 0, 1, 1, 0] >>]),
    io:format("bitgen ~w~n", [[B || <<B:3>> <= <<2#101110011:9, 1:1>>]]),
    ok.

revbits(<<>>) -> <<>>;
revbits(<<B:1, R/bits>>) -> <<(revbits(R))/bits, B:1>>.

id(X) -> X.
