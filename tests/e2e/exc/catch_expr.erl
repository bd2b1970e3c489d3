-module(catch_expr).
-export([main/0]).

%% The old-style `catch Expr` expression.
main() ->
    io:format("~p~n", [catch 1 + 2]),
    io:format("~p~n", [catch throw(thrown)]),
    io:format("~p~n", [catch exit(exited)]),
    io:format("~p~n", [catch exit({nested, [1, 2]})]),
    {'EXIT', {Reason, Stack}} = catch erlang:error(bad),
    io:format("error reason ~p stack_is_list ~w~n", [Reason, is_list(Stack)]),
    {'EXIT', {Reason2, _}} = catch 1 / id(0),
    io:format("badarith ~p~n", [Reason2]),
    {'EXIT', {Reason3, _}} = catch element(5, id({a})),
    io:format("badarg ~p~n", [Reason3]),
    X = (catch throw({'EXIT', fake})),
    io:format("fake exit ~p~n", [X]),
    io:format("nested ~p~n", [catch (catch throw(inner))]),
    io:format("value in list ~p~n", [[catch throw(a), catch b, catch exit(c)]]),
    Y = catch lists:map(fun(N) when N > 2 -> throw({too_big, N}); (N) -> N end, [1, 2, 3, 4]),
    io:format("from map ~p~n", [Y]),
    Z = catch lists:map(fun(N) -> N end, [1, 2, 3]),
    io:format("no throw ~p~n", [Z]),
    io:format("in loop ~p~n", [[classify(catch risky(I)) || I <- lists:seq(0, 4)]]),
    ok.

risky(0) -> throw(zero);
risky(1) -> exit(one);
risky(2) -> erlang:error(two);
risky(3) -> 3 = id(4);
risky(N) -> N * 10.

classify({'EXIT', {R, S}}) when is_list(S) -> {error, R};
classify({'EXIT', R}) -> {exit, R};
classify(V) -> {value, V}.

id(X) -> X.
