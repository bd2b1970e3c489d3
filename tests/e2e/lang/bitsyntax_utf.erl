-module(bitsyntax_utf).
-export([main/0]).

%% utf8/utf16/utf32 segments in construction and matching (output kept ASCII).
main() ->
    Cps = [$a, 16#7F, 16#80, 16#E9, 16#7FF, 16#800, 16#20AC, 16#FFFF, 16#10000, 16#1F600, 16#10FFFF],
    lists:foreach(fun(C) ->
        U8 = <<C/utf8>>,
        U16 = <<C/utf16>>,
        U16L = <<C/utf16-little>>,
        U32 = <<C/utf32>>,
        <<D/utf8>> = U8,
        <<E/utf16>> = U16,
        <<G/utf16-little>> = U16L,
        <<F/utf32>> = U32,
        io:format("~.16B: ~w ~w ~w ~w ~w~n", [C, U8, U16, U16L, U32, {D, E, G, F} =:= {C, C, C, C}])
    end, Cps),
    Bin = <<"h", 16#E9/utf8, "llo ", 16#20AC/utf8, "!">>,
    io:format("bin ~w~n", [Bin]),
    io:format("decoded ~w~n", [decode(Bin)]),
    io:format("count ~w bytes ~w~n", [length(decode(Bin)), byte_size(Bin)]),
    io:format("invalid ~w~n", [decode_safe(<<16#FF, 16#FE>>)]),
    io:format("surrogate ~w~n", [decode_safe(<<16#ED, 16#A0, 16#80>>)]),
    io:format("overlong ~w~n", [decode_safe(<<16#C0, 16#80>>)]),
    io:format("comp ~w~n", [<< <<C/utf8>> || C <- [16#41, 16#3B1, 16#3B2] >>]),
    io:format("bad build ~w~n", [try <<(id(16#D800))/utf8>> catch error:R -> R end]),
    ok.

decode(<<>>) -> [];
decode(<<C/utf8, R/binary>>) -> [C | decode(R)].

decode_safe(<<C/utf8, R/binary>>) -> [C | decode_safe(R)];
decode_safe(<<>>) -> [];
decode_safe(Other) -> {invalid, Other}.

id(X) -> X.
