-module(std_num_conv).
-export([main/0]).

%% Number <-> text BIFs: integer_to_list/binary with bases 2..36 (small, negative, bignum),
%% list_to_integer/binary_to_integer with bases, float_to_list/binary with no options,
%% {decimals, N}, {scientific, N}, compact, short; list_to_float/binary_to_float incl. the
%% forms they reject; and badarg cases.
main() ->
    Ints = [0, 1, -1, 10, 255, -255, 35, 36, 1 bsl 32, -(1 bsl 40), 123456789012345678901234567890],
    lists:foreach(fun(I) ->
        io:format("~w: ~s ~s ~s ~s ~s ~p~n",
                  [I, integer_to_list(I), integer_to_list(I, 2), integer_to_list(I, 16), integer_to_list(I, 36),
                   integer_to_binary(I, 7), integer_to_binary(I)])
    end, Ints),
    t(i2l_base1, fun() -> integer_to_list(10, 1) end),
    t(i2l_base37, fun() -> integer_to_list(10, 37) end),
    t(i2l_float, fun() -> integer_to_list(id(1.0)) end),
    t(l2i, fun() -> [list_to_integer(S) || S <- ["0", "-0", "+5", "-12", "007", "123456789012345678901234567890"]] end),
    t(l2i_base, fun() -> [list_to_integer("ff", 16), list_to_integer("FF", 16), list_to_integer("-z", 36), list_to_integer("1010", 2), list_to_integer("+7", 8)] end),
    t(b2i_base, fun() -> [binary_to_integer(<<"ZZ">>, 36), binary_to_integer(<<"-777">>, 8), binary_to_integer(<<"10">>)] end),
    lists:foreach(fun({Name, S}) -> t(Name, fun() -> list_to_integer(S) end) end,
                  [{l2i_empty, ""}, {l2i_space, " 1"}, {l2i_sign_only, "-"}, {l2i_float, "1.0"}, {l2i_trailing, "12a"}, {l2i_plusminus, "+-1"}]),
    t(l2i_bad_digit_base, fun() -> list_to_integer(id("19"), 8) end),
    t(l2i_bad_base, fun() -> list_to_integer(id("1"), 37) end),
    t(b2i_bad, fun() -> binary_to_integer(id(<<"1_000">>)) end),
    Floats = [0.0, -0.0, 1.0, -1.5, 0.1, 1/3, 100.0, 1.0e15, 1.0e16, 123456789.125, 1.0e-5, 2.5e-10, 5.0e-324, 1.7976931348623157e308],
    lists:foreach(fun(F) ->
        io:format("~w:~n", [F]),
        lists:foreach(fun(Opts) ->
            R = try float_to_list(F, Opts) catch C:E -> io_lib:format("{~w,~w}", [C, E]) end,
            io:format("  ~w ~s~n", [Opts, R])
        end, [[], [short], [{decimals, 3}], [{decimals, 3}, compact], [{scientific, 2}], [{decimals, 0}], [{scientific, 10}]]),
        io:format("  binary ~p~n", [float_to_binary(F, [short])])
    end, Floats),
    t(decimals_big, fun() -> float_to_list(1.0e50, [{decimals, 2}]) end),
    t(decimals_253, fun() -> length(float_to_list(0.1, [{decimals, 253}])) end),
    t(decimals_254, fun() -> float_to_list(0.1, [{decimals, 254}]) end),
    t(scientific_249, fun() -> length(float_to_list(0.1, [{scientific, 249}])) end),
    t(scientific_250, fun() -> float_to_list(0.1, [{scientific, 250}]) end),
    t(decimals_rounding, fun() -> [float_to_list(X, [{decimals, 1}]) || X <- [0.05, 0.15, 0.25, 0.35, 2.5, -0.05]] end),
    t(decimals_0_rounding, fun() -> [float_to_list(X, [{decimals, 0}]) || X <- [0.5, 1.5, 2.5, -0.5, 0.49999999999999994]] end),
    t(compact_alone, fun() -> float_to_list(1.5, [compact]) end),
    t(last_option_wins, fun() -> float_to_list(1.5, [{decimals, 2}, {scientific, 2}]) end),
    t(f2l_int, fun() -> float_to_list(id(1)) end),
    t(f2l_bad_opt, fun() -> float_to_list(1.0, [bogus]) end),
    t(l2f, fun() -> [list_to_float(S) || S <- ["1.0", "-1.5", "0.1", "1.0e10", "1.0E-3", "+2.5", "1.5e+2", "123456789012345678901234567890.0"]] end),
    t(b2f, fun() -> [binary_to_float(B) || B <- [<<"3.14">>, <<"-0.0">>, <<"2.0e-2">>]] end),
    lists:foreach(fun({Name, S}) -> t(Name, fun() -> list_to_float(S) end) end,
                  [{l2f_int, "1"}, {l2f_no_leading, ".5"}, {l2f_no_trailing, "5."}, {l2f_exp_no_frac, "1e5"},
                   {l2f_space, " 1.0"}, {l2f_trailing, "1.0x"}, {l2f_overflow, "1.0e400"}, {l2f_empty, ""},
                   {l2f_underflow, "1.0e-400"}, {l2f_comma, "1,5"}]),
    t(b2f_int, fun() -> binary_to_float(id(<<"1">>)) end),
    t(roundtrip_short, fun() -> [list_to_float(float_to_list(X, [short])) =:= X || X <- Floats] end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).

id(X) -> X.
