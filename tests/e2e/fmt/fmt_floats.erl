-module(fmt_floats).
-export([main/0]).

%% Float directives ~f ~e ~g with precision, width, padding, and ints given to ~p.
main() ->
    Fs = [0.0, 1.0, -1.0, 3.14159265358979, -2.5, 0.001234, 123456.789, 1.0e10, 1.0e-10, 0.5, 1.5, 2.5, 0.125, 99.995],
    lists:foreach(fun(F) ->
        io:format("~p: ~f ~e ~g | ~.2f ~.3e ~.3g | ~.1f ~.10f~n", [F, F, F, F, F, F, F, F, F])
    end, Fs),
    io:format("[~10.2f] [~-10.2f] [~10.3e] [~12.4g]~n", [3.14159, 3.14159, 3.14159, 3.14159]),
    io:format("[~5.2f] [~5.2f] [~5.2f]~n", [1.0, 12.345, 123.456]),
    io:format("[~*.*f] [~10.3.0f] [~10.3.*f]~n", [8, 2, 2.71828, 1.5, $#, 1.5]),
    io:format("[~f] [~e]~n", [1.0e20, 1.0e20]),
    io:format("[~f] [~.20f]~n", [1.0e-20, 0.1]),
    io:format("[~g] [~g] [~g] [~g]~n", [1.0e-5, 1.0e-4, 12345678.0, 0.1]),
    io:format("[~.2e] [~.3e] [~.15e]~n", [12345.0, 0.0, 1 / 3]),
    io:format("[~.5f]~n", [100.0]),
    io:format("[~w] [~p]~n", [1.0e-5, 123.0e-2]),
    ok.
