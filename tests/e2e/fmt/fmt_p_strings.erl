-module(fmt_p_strings).
-export([main/0]).

%% ~p of strings vs lists of integers, escapes, long strings, lists of strings.
main() ->
    io:format("~p~n", ["hello"]),
    io:format("~p~n", [[104, 101, 108, 108, 111]]),
    io:format("~p~n", [[1, 2, 3]]),
    io:format("~p~n", [[$a, $b, 300]]),
    io:format("~p~n", ["quote\" backslash\\ tab\t newline\n cr\r"]),
    io:format("~p~n", ["vt\v ff\f bs\b esc\e del\d bell\a"]),
    io:format("~p~n", ["vt\v ff\f bs\b esc\e"]),
    io:format("~p~n", [[0]]),
    io:format("~p~n", [[$a, 0]]),
    io:format("~p~n", [""]),
    io:format("~p~n", [["", "", ""]]),
    io:format("~p~n", ["A very long string that goes on and on and on, far past the eighty column limit of ~p"]),
    io:format("~p~n", ["line1\nline2\nline3\nline4\nline5\nline6\nline7\nline8\nline9\nline10\nline11"]),
    io:format("~p~n", [["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda"]]),
    io:format("~p~n", [{"key", "value", [{"nested", "strings"}]}]),
    io:format("~p~n", [[$a | "bc"]]),
    io:format("~p~n", [[$a, $b | c]]),
    io:format("~p~n", [[127]]),
    io:format("~p ~p~n", [[31], [32]]),
    io:format("~p~n", [[126, 127, 128]]),
    io:format("~p~n", [["mixed", 1, "list"]]),
    io:format("~p~n", [[[104, 105], [1, 2]]]),
    io:format("~w~n", ["as w"]),
    io:format("~s~n", ["as s with \"quotes\""]),
    ok.
