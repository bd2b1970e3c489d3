-module(fmt_p_column).
-export([main/0]).

%% ~p indentation depends on the column where the term starts (text before it on the line).
main() ->
    T = [{alpha, 1}, {beta, 2}, {gamma, 3}, {delta, 4}, {epsilon, 5}, {zeta, 6}, {eta, 7}],
    io:format("~p~n", [T]),
    io:format("prefix: ~p~n", [T]),
    io:format("a much longer prefix text here: ~p~n", [T]),
    io:format("~p ~p~n", [T, T]),
    io:format("line1~nline2 ~p~n", [T]),
    io:format("~s ~p~n", ["a string arg of some length", T]),
    io:format("~w then ~p~n", [lists:seq(1, 10), T]),
    io:format("tab\there ~p~n", [T]),
    io:format("~10s~p~n", ["padded", T]),
    io:format("~p~n~p~n", [{short}, T]),
    Rec = {record_name, field_one_value, field_two_value, [list, "of", <<"things">>], #{key => value}},
    io:format("Result = ~p~n", [Rec]),
    io:format("~60p~n", [Rec]),
    io:format("~40p~n", [T]),
    io:format("~120p~n", [T]),
    ok.
