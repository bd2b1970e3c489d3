-module(fmt_p_atoms_numbers).
-export([main/0]).

%% ~p/~w of atoms needing quotes and numbers (floats, negatives, bignums) inside containers.
main() ->
    io:format("~p~n", [['ok', 'Error', 'with space', 'a.b', 'x@y', '', 'hyphen-ated', '9lives', 'end']]),
    io:format("~p~n", [{'EXIT', 'Reason', [{'Module', 'fun', 0}]}]),
    io:format("~p~n", [[1 bsl 100, -(1 bsl 100), 1 bsl 200]]),
    io:format("~p~n", [[0.1 * N || N <- lists:seq(1, 12)]]),
    io:format("~p~n", [[1.0e-300, 1.0e300, 2.0e-308, 4.9e-324, -1.0e-5, 123.456e7]]),
    io:format("~p~n", [{-1, -2.5, -0.0, - (1 bsl 64)}]),
    io:format("~p~n", [[float(1 bsl N) || N <- [10, 20, 30, 40, 50, 52, 53, 54, 60, 70]]]),
    io:format("~w~n", [[1.0, 10.0, 100.0, 1000.0, 10000.0, 100000.0, 1.0e6, 1.0e7, 1.0e15, 1.0e16, 1.0e17]]),
    io:format("~w~n", [[0.1, 0.01, 0.001, 0.0001, 0.00001, 0.000001]]),
    io:format("~w~n", [[1.5e-7, 2.0e-3, 33.0e-1, 9.999999999999999e22, 1.0e23]]),
    io:format("~p~n", [[$a, $z, $A, $Z, $0, $9, $\s]]),
    ok.
