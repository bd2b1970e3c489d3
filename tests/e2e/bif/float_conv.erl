-module(float_conv).
-export([main/0]).

%% float_to_list/1,2, list_to_float, float_to_binary, binary_to_float, float/1.
main() ->
    Fs = [0.0, 1.0, -1.5, 0.1, 3.141592653589793, 1.0e10, 1.0e-10, 123456.789, -0.0, 1.0e100, 2.5e-5],
    lists:foreach(fun(F) ->
        io:format("~p~n  ~s~n  ~s ~s ~s~n  ~s ~s~n",
                  [F, float_to_list(F),
                   float_to_list(F, [{decimals, 2}]), float_to_list(F, [{decimals, 4}, compact]),
                   float_to_list(F, [{scientific, 3}]),
                   float_to_list(F, [short]), float_to_binary(F, [{decimals, 0}])])
    end, Fs),
    io:format("~p~n", [[list_to_float(S) || S <- ["1.0", "-2.5", "1.0e3", "3.14e-2", "0.000001", "1.5E2"]]]),
    io:format("~p~n", [[binary_to_float(B) || B <- [<<"2.0">>, <<"-0.125">>, <<"6.02e23">>]]]),
    io:format("~p~n", [[float(X) || X <- [0, 1, -3, 1 bsl 60, 2.5]]]),
    Bad = ["1", "1.", ".5", "abc", "1.0x", "1e5"],
    io:format("bad ~p~n", [[try list_to_float(S) catch error:E -> E end || S <- Bad]]),
    io:format("bad float ~p~n", [try float(id(abc)) catch error:E -> E end]),
    io:format("~s~n", [float_to_list(1/3, [{decimals, 20}])]),
    io:format("~s ~s~n", [float_to_list(0.5, [{decimals, 0}]), float_to_list(1.5, [{decimals, 0}])]),
    io:format("~s ~s~n", [float_to_list(2.675, [{decimals, 2}]), float_to_list(1.0e15, [{decimals, 1}])]),
    ok.

id(X) -> X.
