-module(fmt_integers).
-export([main/0]).

%% Integer directives: ~b ~B ~x ~X ~# ~+ with bases, widths, padding.
main() ->
    Ns = [0, 7, -7, 255, -255, 4096, 1 bsl 40, -(1 bsl 70)],
    lists:foreach(fun(N) ->
        io:format("~w: ~B ~.2B ~.8B ~.16B ~.36B ~.16b ~.16x ~.16X ~.16# ~.16+~n",
                  [N, N, N, N, N, N, N, N, "0x", N, "0x", N, N])
    end, Ns),
    io:format("[~8B] [~-8B] [~08B] [~8.16B] [~-8.16B] [~.16.0B]~n", [42, 42, 42, 255, 255, 255]),
    io:format("[~8.2.0B] [~3B] [~2B]~n", [5, 123456, 123]),
    io:format("[~*B] [~*.*B]~n", [6, 99, 6, 16, 255]),
    io:format("[~10.16.xB]~n", [255]),
    io:format("[~b] [~.16b] [~x]~n", [-10, 175, 175, "p"]),
    io:format("[~.10X] [~.2x]~n", [99, "#", 5, "bin:"]),
    io:format("~w ~w~n", [io_lib:format("~B", [5]) =:= "5", lists:flatten(io_lib:format("~5B", [1]))]),
    ok.
