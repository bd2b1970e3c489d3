-module(binary_parsing).
-export([main/0]).

%% Realistic binary protocol parsing/encoding: length-prefixed frames, CSV split, varints.
main() ->
    Frames = << <<(byte_size(P)):16, P/binary>> || P <- [<<"hello">>, <<>>, <<"world!">>, <<1, 2, 3>>] >>,
    io:format("~w~n", [Frames]),
    io:format("~p~n", [frames(Frames)]),
    io:format("~p~n", [csv(<<"name,age,city\nalice,30,paris\nbob,,rome\n">>)]),
    Vs = [0, 1, 127, 128, 300, 16384, 1 bsl 35, 1 bsl 70],
    Enc = [varint(V) || V <- Vs],
    io:format("~w~n", [Enc]),
    io:format("~w~n", [[element(1, unvarint(E)) || E <- Enc]]),
    io:format("~w~n", [Vs =:= [element(1, unvarint(E)) || E <- Enc]]),
    Hdr = <<4:4, 5:4, 0:8, 84:16, 16#1c46:16, 2:3, 0:13, 64:8, 1:8, 0:16, 192, 168, 0, 1, 10, 0, 0, 7>>,
    io:format("~p~n", [ipv4(Hdr)]),
    io:format("~p~n", [hex_decode(<<"48656c6c6f">>)]),
    io:format("~w~n", [checksum(<<"The quick brown fox">>, 0)]),
    io:format("~p~n", [trim(<<"   padded binary   ">>)]),
    ok.

frames(<<Len:16, Payload:Len/binary, Rest/binary>>) -> [Payload | frames(Rest)];
frames(<<>>) -> [].

csv(Bin) -> [fields(L, <<>>, []) || L <- lines(Bin, <<>>, []), L =/= <<>>].
lines(<<$\n, R/binary>>, Cur, Acc) -> lines(R, <<>>, [Cur | Acc]);
lines(<<C, R/binary>>, Cur, Acc) -> lines(R, <<Cur/binary, C>>, Acc);
lines(<<>>, Cur, Acc) -> lists:reverse([Cur | Acc]).
fields(<<$,, R/binary>>, Cur, Acc) -> fields(R, <<>>, [Cur | Acc]);
fields(<<C, R/binary>>, Cur, Acc) -> fields(R, <<Cur/binary, C>>, Acc);
fields(<<>>, Cur, Acc) -> lists:reverse([Cur | Acc]).

varint(V) when V < 128 -> <<V>>;
varint(V) -> <<1:1, (V band 127):7, (varint(V bsr 7))/binary>>.

unvarint(<<0:1, V:7, Rest/binary>>) -> {V, Rest};
unvarint(<<1:1, V:7, Rest/binary>>) -> {Hi, R2} = unvarint(Rest), {V bor (Hi bsl 7), R2}.

ipv4(<<Ver:4, IHL:4, _Tos:8, Total:16, Id:16, Flags:3, Frag:13, TTL:8, Proto:8, _Sum:16,
       S1, S2, S3, S4, D1, D2, D3, D4>>) ->
    #{ver => Ver, ihl => IHL, len => Total, id => Id, flags => Flags, frag => Frag, ttl => TTL,
      proto => Proto, src => {S1, S2, S3, S4}, dst => {D1, D2, D3, D4}}.

hex_decode(<<H, L, Rest/binary>>) -> <<(nib(H) * 16 + nib(L)), (hex_decode(Rest))/binary>>;
hex_decode(<<>>) -> <<>>.
nib(C) when C >= $0, C =< $9 -> C - $0;
nib(C) when C >= $a, C =< $f -> C - $a + 10.

checksum(<<>>, Acc) -> Acc;
checksum(<<B, R/binary>>, Acc) -> checksum(R, (Acc * 31 + B) band 16#FFFFFFFF).

trim(B) -> rtrim(ltrim(B)).
ltrim(<<$\s, R/binary>>) -> ltrim(R);
ltrim(B) -> B.
rtrim(B) ->
    S = byte_size(B) - 1,
    case B of
        <<Init:S/binary, $\s>> -> rtrim(Init);
        _ -> B
    end.
