-module(fmt_p_long_lists).
-export([main/0]).

%% ~p line breaking for long lists: lists of tuples, integers, atoms, nested lists.
main() ->
    io:format("~p~n", [[{I, I * I} || I <- lists:seq(1, 30)]]),
    io:format("~p~n", [lists:seq(1, 60)]),
    io:format("~p~n", [lists:seq(1000000, 1000040)]),
    io:format("~p~n", [[list_to_atom("atom_" ++ integer_to_list(I)) || I <- lists:seq(1, 25)]]),
    io:format("~p~n", [[{user, I, "name" ++ integer_to_list(I), [admin, staff]} || I <- lists:seq(1, 6)]]),
    io:format("~p~n", [[lists:seq(1, N) || N <- lists:seq(1, 12)]]),
    io:format("~p~n", [[{key, [{sub, I, [a, b, c]}, {other, {deep, I}}]} || I <- lists:seq(1, 4)]]),
    io:format("~p~n", [{list_in_tuple, lists:seq(1, 40), tail}]),
    io:format("~p~n", [[[[[[I]]]] || I <- lists:seq(1, 20)]]),
    io:format("~p~n", [[a | lists:seq(1, 30) ++ improper_tail]]),
    io:format("~p~n", [lists:duplicate(30, {})]),
    io:format("~p~n", [[1.5, 2.25, 3.125, 100.0, 1.0e10, -0.5, 0.1, 0.2, 0.3, 1.0e-5, 123456.789, 42.0, 7.0e22]]),
    io:format("~p~n", [[{I, float(I) / 3} || I <- lists:seq(1, 8)]]),
    ok.
