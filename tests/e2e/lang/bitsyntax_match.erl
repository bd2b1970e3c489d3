-module(bitsyntax_match).
-export([main/0]).

%% Bit syntax matching: size fields, endianness, signedness, rest matching.
main() ->
    Pkt = <<3:8, "abc", 16#1234:16, 16#FFFE:16/little, -5:8/signed, 7:4, 9:4, "tail">>,
    io:format("~w~n", [parse(Pkt)]),
    <<X:16/little-signed>> = id(<<16#FF, 16#FF>>),
    <<Y:16/little-unsigned>> = id(<<16#FF, 16#FF>>),
    <<Z:16/big-signed>> = id(<<16#80, 16#00>>),
    io:format("~w ~w ~w~n", [X, Y, Z]),
    <<A:3, B:5, C:24/little, Rest/bits>> = id(<<16#AB, 1, 2, 3, 4:6>>),
    io:format("~w ~w ~w ~w~n", [A, B, C, Rest]),
    io:format("tlv ~p~n", [tlv(<<1, 3, "foo", 2, 0, 3, 5, "hello", 9>>)]),
    io:format("bits ~w~n", [bits(<<16#A5>>)]),
    <<N:64/signed>> = id(<<255, 255, 255, 255, 255, 255, 255, 254>>),
    <<U:64>> = id(<<255, 255, 255, 255, 255, 255, 255, 254>>),
    io:format("64 ~w ~w~n", [N, U]),
    <<Huge:128>> = id(<<1:1, 0:126, 1:1>>),
    io:format("huge ~w~n", [Huge]),
    io:format("units ~w~n", [units(<<1, 2, 3, 4, 5, 6>>)]),
    io:format("fail ~w ~w~n", [m16(<<1>>), m16(<<1, 2>>)]),
    io:format("bytes ~w~n", [split_bytes(<<"abcdefg">>, 3)]),
    io:format("str prefix ~p ~p~n", [prefix(<<"GET /index">>), prefix(<<"PUT /x">>)]),
    ok.

parse(<<Len:8, Str:Len/binary, W:16, L:16/little, S:8/signed, H:4, Lo:4, T/binary>>) ->
    {Len, Str, W, L, S, H, Lo, T}.

tlv(<<Tag, Len, Val:Len/binary, Rest/binary>>) -> [{Tag, Val} | tlv(Rest)];
tlv(Other) -> [{rest, Other}].

bits(<<>>) -> [];
bits(<<B:1, R/bits>>) -> [B | bits(R)].

units(<<A:2/unit:8, B:1/binary-unit:16, C/binary>>) -> {A, B, C}.

m16(<<V:16>>) -> V;
m16(_) -> nomatch.

split_bytes(Bin, N) ->
    case Bin of
        <<Chunk:N/binary, Rest/binary>> -> [Chunk | split_bytes(Rest, N)];
        _ -> [Bin]
    end.

prefix(<<"GET ", Path/binary>>) -> {get, Path};
prefix(<<Verb:3/binary, " ", Path/binary>>) -> {other, Verb, Path}.

id(X) -> X.
