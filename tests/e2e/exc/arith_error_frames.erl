%% The top frame of an arithmetic error, as OTP 25 reports it: erlang:'+'/2 (or '-', '*', ...)
%% with its arguments, except for + and - with a literal second operand and for '/', which
%% OTP 25's loader and JIT raise as a bare badarith in the calling function.
-module(arith_error_frames).
-export([main/0, f/3]).

main() ->
    Ops = [plus, minus, times, divide, intdiv, band1, plus_lit, minus_lit, plus_float_lit,
           lit_minus, minus_y, plus_y, neg],
    [io:format("~p ~p ~p: ~p~n", [Op, A, B, try f(Op, A, B) catch C:R:S -> {C, R, top(S)} end])
     || Op <- Ops, {A, B} <- [{a, 1}, {1, a}, {1 bsl 70, a}, {1.5, 2}]],
    ok.

top([{M, F, A, _} | _]) -> {M, F, A}.

f(plus, X, Y) -> X + Y;
f(minus, X, Y) -> X - Y;
f(times, X, Y) -> X * Y;
f(divide, X, Y) -> X / Y;
f(intdiv, X, Y) -> X div Y;
f(band1, X, Y) -> X band Y;
f(plus_lit, X, _) -> X + 1;
f(minus_lit, X, _) -> X - 1;
f(plus_float_lit, X, _) -> X + 1.5;
f(lit_minus, X, _) -> 3 - X;
f(minus_y, X, Y) -> Z = id(Y), id(X - Z) + Z;
f(plus_y, X, Y) -> Z = id(Y), id(Z + X) + Z;
f(neg, X, _) -> -X.

id(X) -> X.
