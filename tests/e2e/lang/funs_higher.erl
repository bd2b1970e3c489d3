-module(funs_higher).
-export([main/0]).

%% Higher-order programming: folds, currying, continuation passing, fun in data.
main() ->
    Ops = #{add => fun erlang:'+'/2, sub => fun erlang:'-'/2, mul => fun erlang:'*'/2},
    io:format("~w~n", [[(maps:get(Op, Ops))(7, 3) || Op <- [add, sub, mul]]]),
    io:format("rpn ~w~n", [rpn("3 4 + 2 *")]),
    Curry = fun(F) -> fun(X) -> fun(Y) -> F(X, Y) end end end,
    Add = Curry(fun(X, Y) -> X + Y end),
    io:format("curry ~w~n", [((Add(1))(2))]),
    io:format("cps ~w~n", [fact_cps(10, fun(X) -> X end)]),
    Pipeline = [fun(X) -> X + 1 end, fun(X) -> X * 2 end, fun(X) -> X - 3 end],
    io:format("pipe ~w~n", [lists:foldl(fun(F, Acc) -> F(Acc) end, 5, Pipeline)]),
    Memo = fib_memo(50, #{}),
    io:format("fib50 ~w~n", [element(1, Memo)]),
    Y = fun(F) -> (fun(X) -> F(fun(V) -> (X(X))(V) end) end)(fun(X) -> F(fun(V) -> (X(X))(V) end) end) end,
    FactY = Y(fun(Self) -> fun(0) -> 1; (N) -> N * Self(N - 1) end end),
    io:format("Y ~w~n", [FactY(15)]),
    io:format("iterate ~w~n", [iterate(fun(X) -> X * 2 end, 1, 10)]),
    Tree = {node, {node, {leaf, 1}, {leaf, 2}}, {node, {leaf, 3}, {node, {leaf, 4}, {leaf, 5}}}},
    io:format("tree map ~w~n", [tmap(fun(X) -> X * 10 end, Tree)]),
    io:format("tree fold ~w~n", [tfold(fun(X, Acc) -> [X | Acc] end, [], Tree)]),
    ok.

rpn(Str) -> rpn(tokens(Str, [], []), []).
rpn([], [R]) -> R;
rpn(["+" | T], [B, A | S]) -> rpn(T, [A + B | S]);
rpn(["*" | T], [B, A | S]) -> rpn(T, [A * B | S]);
rpn([N | T], S) -> rpn(T, [list_to_integer(N) | S]).

tokens([], [], Acc) -> lists:reverse(Acc);
tokens([], Cur, Acc) -> lists:reverse([lists:reverse(Cur) | Acc]);
tokens([$\s | T], [], Acc) -> tokens(T, [], Acc);
tokens([$\s | T], Cur, Acc) -> tokens(T, [], [lists:reverse(Cur) | Acc]);
tokens([C | T], Cur, Acc) -> tokens(T, [C | Cur], Acc).

fact_cps(0, K) -> K(1);
fact_cps(N, K) -> fact_cps(N - 1, fun(R) -> K(N * R) end).

fib_memo(N, M) when N < 2 -> {N, M};
fib_memo(N, M) ->
    case M of
        #{N := V} -> {V, M};
        _ ->
            {A, M1} = fib_memo(N - 1, M),
            {B, M2} = fib_memo(N - 2, M1),
            {A + B, M2#{N => A + B}}
    end.

iterate(_, X, 0) -> [X];
iterate(F, X, N) -> [X | iterate(F, F(X), N - 1)].

tmap(F, {leaf, V}) -> {leaf, F(V)};
tmap(F, {node, L, R}) -> {node, tmap(F, L), tmap(F, R)}.

tfold(F, Acc, {leaf, V}) -> F(V, Acc);
tfold(F, Acc, {node, L, R}) -> tfold(F, tfold(F, Acc, L), R).
