-module(float_order).
%% The order tests (is_lt, is_ge in guards, and the BIFs) on floats, on floats against integers
%% and bignums, and on other terms: the JIT compares two floats natively, the rest as the
%% interpreter does. -0.0 and 0.0 are equal in the term order.
-export([main/0]).
main() ->
    L = [-1.5, -0.0, 0.0, 1.0, 2.5, 1, 0, -3, 100000000000000000000, foo, {1.0}, 3.0e300],
    R = [{A, B, A < B, A >= B, A > B, A =< B, lt(A, B), ge(A, B)} || A <- L, B <- L],
    io:format("~w~n", [erlang:md5(term_to_binary(R))]),
    io:format("~p~n", [[X || {_, _, _, _, _, _, _, _} = X <- R, is_float(element(1, X)), is_float(element(2, X))]]).
lt(A, B) when A < B -> true;
lt(_, _) -> false.
ge(A, B) when A >= B -> true;
ge(_, _) -> false.
