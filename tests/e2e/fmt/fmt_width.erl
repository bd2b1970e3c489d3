-module(fmt_width).
-export([main/0]).

%% Field widths, precision, padding characters and adjustment for ~s ~w ~p ~c ~i.
main() ->
    io:format("[~10s] [~-10s] [~.3s] [~10.3s] [~-10.3s]~n", ["hello", "hello", "hello", "hello", "hello"]),
    io:format("[~10w] [~-10w] [~3w] [~10p]~n", [abc, abc, abcdef, {a, b}]),
    io:format("[~5c] [~-5c] [~.3c] [~5.3c]~n", [$x, $y, $z, $w]),
    io:format("[~10.5.*s]~n", [$., "abcdefgh"]),
    io:format("[~10.3.-s] [~-10.3._s] [~10.4.0w]~n", ["pad", "pad", 12]),
    io:format("[~*s] [~-*s]~n", [8, "star", 8, "star"]),
    io:format("[~*c] [~*c]~n", [5, $=, 3, $-]),
    io:format("[~.*s]~n", [2, "truncate"]),
    io:format("[~20p]~n", [[1, 2, 3]]),
    io:format("[~-20w]|~n", [{x, "y"}]),
    io:format("[~3s]~n", ["toolong"]),
    io:format("[~s]~n", [["nested", [" io", [$l, $i, $s, $t]]]]),
    io:format("[~10s]~n", [<<"bin">>]),
    io:format("[~6.2w] [~8.4p]~n", [12345, 12345]),
    io:format("~-15s~10w~n", ["name", value]),
    lists:foreach(fun({K, V}) -> io:format("~-10s|~6.2f|~5B~n", [K, V, round(V)]) end,
                  [{"alpha", 1.5}, {"beta", 22.25}, {"gamma", 333.125}]),
    io:format("[~.0s]~n", ["gone"]),
    io:format("[~-3c]~n", [$a]),
    io:format("[~10.3e] [~-12.2f]~n", [-1.5, -1.5]),
    ok.
