%% A module compiled for OTP 22 (erlc's r22 option) makes its funs with make_fun2, which OTP 25
%% still loads: funs with and without free variables, nested, called, applied and printed by
%% their info, as OTP's helper erts_test_utils (compiled so) makes them.
-module(old_make_fun).
-compile(r22).
-export([main/0]).

main() ->
    run(3, [x, y]).

run(A, B) ->
    F0 = fun() -> none end,
    F1 = fun(X) -> X + A end,
    F2 = fun(X, Y) -> {X, Y, A, B} end,
    Nest = fun(N) -> fun(M) -> N * M + A end end,
    io:format("~p ~p ~p ~p~n", [F0(), F1(4), F2(1, 2), (Nest(5))(6)]),
    io:format("~p~n", [lists:map(fun(X) -> X * A end, [1, 2, 3])]),
    io:format("arity ~p, env ~p~n", [element(2, erlang:fun_info(F2, arity)), length(element(2, erlang:fun_info(F2, env)))]),
    io:format("~p~n", [apply(F2, [a, b])]).
