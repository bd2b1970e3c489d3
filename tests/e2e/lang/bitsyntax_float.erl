-module(bitsyntax_float).
-export([main/0]).

%% Float segments: 64, 32, 16 bit, big/little, construction and matching.
main() ->
    Fs = [0.0, 1.0, -1.0, 0.1, 3.5, 1.0e10, -2.5e-10, 65504.0, 1.5],
    lists:foreach(fun(F) ->
        B64 = <<F/float>>,
        B32 = <<F:32/float>>,
        BL = <<F:64/float-little>>,
        <<F64:64/float>> = B64,
        <<F32:32/float>> = B32,
        <<FL:64/little-float>> = BL,
        io:format("~p: ~w ~w ~w -> ~p ~p ~p~n", [F, B64, B32, BL, F64, F32, FL])
    end, Fs),
    io:format("half ~w ~w~n", [<<1.5:16/float>>, <<(-2.0):16/float>>]),
    <<H:16/float>> = id(<<16#3C, 16#00>>),
    io:format("half match ~p~n", [H]),
    io:format("int as float ~w~n", [<<(id(3)):64/float>>]),
    io:format("nan? ~w~n", [m(<<16#7F, 16#F8, 0, 0, 0, 0, 0, 0>>)]),
    io:format("inf? ~w~n", [m(<<16#7F, 16#F0, 0, 0, 0, 0, 0, 0>>)]),
    io:format("ok ~w~n", [m(<<16#40, 16#09, 16#21, 16#FB, 16#54, 16#44, 16#2D, 16#18>>)]),
    io:format("overflow32 ~w~n", [try <<(id(1.0e300)):32/float>> catch error:R -> R end]),
    ok.

m(<<F:64/float>>) -> {float, F};
m(_) -> nomatch.

id(X) -> X.
