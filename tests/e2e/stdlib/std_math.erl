-module(std_math).
-export([main/0]).

%% math: every function (sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, asinh,
%% acosh, atanh, exp, log, log2, log10, pow, sqrt, erf, erfc, ceil, floor, fmod, pi) on a set
%% of inputs, printed with ~p (shortest round-trip) and ~.6f; domain errors (badarith) and
%% non-number arguments (badarg).
main() ->
    One = [{sin, [0, 0.5, -1.0, 3.141592653589793, 100]},
           {cos, [0, 0.5, 1, 3.141592653589793]},
           {tan, [0, 0.5, -0.785398]},
           {asin, [0, 0.5, 1, -1]},
           {acos, [0, 0.5, 1, -1]},
           {atan, [0, 1, -1, 1.0e10]},
           {sinh, [0, 1, -2.5]},
           {cosh, [0, 1, -2.5]},
           {tanh, [0, 1, -2.5, 50]},
           {asinh, [0, 1, -2.5]},
           {acosh, [1, 2, 10.5]},
           {atanh, [0, 0.5, -0.9]},
           {exp, [0, 1, -1, 10, 0.5]},
           {log, [1, 2.718281828459045, 10, 0.5, 1000000]},
           {log2, [1, 2, 1024, 3, 0.125]},
           {log10, [1, 10, 1000, 2, 0.001]},
           {sqrt, [0, 1, 2, 16, 1.0e100, 12345678901234567890]},
           {erf, [0, 0.5, 1, -1, 3]},
           {erfc, [0, 0.5, 1, -1, 3]},
           {ceil, [1.5, -1.5, 2, 0.0, -0.1, 1.0e20]},
           {floor, [1.5, -1.5, 2, 0.0, -0.1, 1.0e20]}],
    lists:foreach(fun({F, Args}) ->
        lists:foreach(fun(A) ->
            R = try math:F(A) catch C:E -> {C, E} end,
            io:format("~p(~p) = ~p~s~n", [F, A, R, fixed(R)])
        end, Args)
    end, One),
    Two = [{atan2, [{1, 1}, {1, -1}, {-1, -1}, {0, -1}, {0, 0}, {0.0, -0.0}, {5, 0}]},
           {pow, [{2, 10}, {2, 0.5}, {10, -2}, {0, 0}, {-8, 3}, {2.5, 2}, {2, 1023}, {-2, 0.5}, {10, 400}]},
           {fmod, [{10, 3}, {-10, 3}, {10, -3}, {5.5, 2}, {1, 0.3}, {7, 0}]}],
    lists:foreach(fun({F, Args}) ->
        lists:foreach(fun({A, B}) ->
            R = try math:F(A, B) catch C:E -> {C, E} end,
            io:format("~p(~p, ~p) = ~p~s~n", [F, A, B, R, fixed(R)])
        end, Args)
    end, Two),
    io:format("pi = ~p ~s~n", [math:pi(), io_lib:format("~.6f", [math:pi()])]),
    Bad = [{log, [0]}, {log, [-1]}, {log2, [0]}, {log10, [-5]}, {sqrt, [-1]}, {acos, [2]},
           {asin, [-1.5]}, {acosh, [0.5]}, {atanh, [1]}, {exp, [1000]}, {cosh, [1000]},
           {sin, [a]}, {sqrt, ["4"]}, {pow, [a, 2]}, {fmod, [1, b]}, {floor, [x]}],
    lists:foreach(fun({F, Args}) ->
        R = try apply(math, F, Args) catch C:E -> {C, E} end,
        io:format("bad ~p~p = ~p~n", [F, Args, R])
    end, Bad),
    ok.

fixed(R) when is_float(R) -> " (" ++ io_lib:format("~.6f", [R]) ++ ")";
fixed(_) -> "".
