%% Binary matching with huge field sizes: a size times its unit past 64 bits is no match
%% (it used to wrap around to a small size); an integer field larger than the largest integer
%% (OTP's limit, 2^25 - 64 bits of magnitude) is no match either, but a huge field of zeros
%% is 0. (bs_match_int_SUITE, bs_match_bin_SUITE: match_huge_*; big_SUITE: toobig.)
-module(binary_huge_fields).
-export([main/0]).

main() ->
    Bin = <<0:(1 bsl 27), 13:8>>,
    io:format("huge zero integer: ~p~n", [huge_int(1 bsl 27, Bin)]),
    io:format("huge binary: ~p~n", [byte_size(huge_bin(1 bsl 27, Bin))]),
    io:format("skip wraps (literal): ~p~n", [skip_literal(Bin)]),
    io:format("integer wraps (literal): ~p~n", [int_literal(Bin)]),
    io:format("binary wraps (literal): ~p~n", [bin_literal(Bin)]),
    io:format("variable sizes: ~p~n", [[{variable(Bin, 1 bsl S), variable_int(Bin, 1 bsl S)} || S <- [50, 57, 58, 63]]]),
    Big = term_to_binary(lists:seq(1000000, 2200000)),
    Size = bit_size(Big),
    io:format("too large an integer: ~p~n", [case Big of <<N:Size>> -> {matched, N band 1}; _ -> nomatch end]),
    <<Head:8, _/binary>> = Big,
    io:format("next clause after the failed field: ~p~n",
              [case Big of <<N2:Size>> -> N2 band 1; <<H:8, _/binary>> -> H =:= Head end]),
    ok.

huge_int(I, Bin) -> <<Int:I, 13>> = Bin, Int.
huge_bin(I, Bin) -> <<B:I/bits, 13>> = Bin, B.

skip_literal(<<_:144115188075855872/unit:128, 0, _/binary>>) -> wrapped;
skip_literal(<<_:288230376151711744/binary-unit:64, 0, _/binary>>) -> wrapped_bin;
skip_literal(_) -> nomatch.

int_literal(<<Int:144115188075855872/unit:128, 0, _/binary>>) -> {wrapped, Int};
int_literal(_) -> nomatch.

bin_literal(<<B:144115188075855872/binary-unit:128, 0, _/binary>>) -> {wrapped, B};
bin_literal(_) -> nomatch.

variable(Bin, Sz) ->
    case Bin of
        <<_:Sz/unit:128, 0, _/binary>> -> {skip, Sz};
        <<B:Sz/binary-unit:128, 0, _/binary>> -> {bin, Sz, byte_size(B)};
        _ -> nomatch
    end.

variable_int(Bin, Sz) ->
    case Bin of
        <<V:Sz/unit:128, 0, _/binary>> -> {int, Sz, V};
        _ -> nomatch
    end.
