%% The sign of a zero float through arithmetic, as OTP 25 gives it: erlang:'-'/1 and '*' with a
%% negative operand give -0.0; the float-register negation the compiler emits when it knows X
%% is a float (fnegate) is 0.0 - X in OTP 25 and keeps 0.0 (float_SUITE:negative_zero).
-module(negative_zero).
-export([main/0, neg/1, fneg/1]).

main() ->
    Zero = id(0.0),
    Cases = [{apply_minus, erlang:'-'(Zero)}, {neg, neg(Zero)}, {apply_times, erlang:'*'(-1, Zero)},
             {times_int, id(-1) * Zero}, {times_float, id(-1.0) * 0}, {fneg, fneg(Zero)},
             {neg_neg, neg(neg(Zero))}, {minus_zero, Zero - Zero}, {zero_minus, 0 - Zero}],
    [io:format("~p ~p~n", [Name, <<V/float>>]) || {Name, V} <- Cases],
    ok.

neg(A) -> -A.
fneg(X) when is_float(X) -> -X.
id(X) -> X.
