-module(apply_bifs).
-export([main/0, add/2, hello/0, variadic/3]).

%% apply/2, apply/3, dynamic M:F(A) calls, erlang:function_exported, make_fun.
main() ->
    io:format("~w~n", [apply(fun add/2, [1, 2])]),
    io:format("~w~n", [apply(?MODULE, add, [3, 4])]),
    io:format("~w~n", [apply(lists, reverse, [[1, 2, 3]])]),
    io:format("~w~n", [apply(erlang, '+', [5, 6])]),
    io:format("~w~n", [apply(fun(X) -> X * X end, [9])]),
    io:format("~w~n", [apply(?MODULE, hello, [])]),
    M = id(lists), F = id(seq), Args = id([1, 5]),
    io:format("~w~n", [apply(M, F, Args)]),
    io:format("~w~n", [M:F(1, 3)]),
    io:format("~w~n", [(id(?MODULE)):variadic(a, b, c)]),
    io:format("~w~n", [erlang:apply(erlang, element, [2, {a, b}])]),
    Fun = erlang:make_fun(?MODULE, add, 2),
    io:format("~w~n", [Fun(10, 20)]),
    io:format("exported ~w ~w ~w~n", [erlang:function_exported(?MODULE, add, 2),
                                       erlang:function_exported(?MODULE, id, 1),
                                       erlang:function_exported(?MODULE, add, 3)]),
    io:format("dispatch ~w~n", [[apply(erlang, Op, [12, 5]) || Op <- ['+', '-', '*', 'div', 'rem', 'band', 'bor']]]),
    Errs = [fun() -> apply(?MODULE, nope, []) end,
            fun() -> apply(id(no_such_mod_xyz), f, [1]) end,
            fun() -> apply(id(fun add/2), [1]) end,
            fun() -> apply(id(not_fun), [1]) end,
            fun() -> apply(?MODULE, id, [1]) end],
    io:format("errors ~p~n", [[try E() catch C:R -> {C, strip(R)} end || E <- Errs]]),
    io:format("bif apply ~w~n", [apply(erlang, length, [[a, b, c]])]),
    ok.

strip({badarity, {_F, A}}) -> {badarity, A};
strip(R) -> R.

add(A, B) -> A + B.
hello() -> hi.
variadic(A, B, C) -> [C, B, A].

id(X) -> X.
