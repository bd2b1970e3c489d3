-module(funs_closures).
-export([main/0, double/1, apply_twice/2]).

%% Funs: closures with free variables, external funs, fun M:F/A with variables.
main() ->
    N = id(10),
    Add = fun(X) -> X + N end,
    io:format("~w~n", [Add(5)]),
    Mk = fun(K) -> fun(X) -> X * K end end,
    Triple = Mk(3),
    io:format("~w ~w~n", [Triple(7), (Mk(4))(5)]),
    Map = fun lists:map/2,
    io:format("~w~n", [Map(Add, [1, 2, 3])]),
    M = id(lists), F = id(reverse), A = id(1),
    Rev = fun M:F/A,
    io:format("~w~n", [Rev([1, 2, 3])]),
    Local = fun double/1,
    io:format("~w~n", [lists:map(Local, [1, 2, 3])]),
    Ext = fun ?MODULE:double/1,
    io:format("~w~n", [apply_twice(Ext, 5)]),
    io:format("arity ~w ~w ~w~n", [erlang:fun_info(Add, arity), erlang:fun_info(Map, arity), erlang:fun_info(Rev, arity)]),
    io:format("is_function ~w ~w ~w~n", [is_function(Add), is_function(Add, 1), is_function(Add, 2)]),
    Counter = make_counter(0),
    {V1, C1} = Counter(),
    {V2, C2} = C1(),
    {V3, _} = C2(),
    io:format("counter ~w ~w ~w~n", [V1, V2, V3]),
    Compose = fun(G, H) -> fun(X) -> G(H(X)) end end,
    Inc = fun(X) -> X + 1 end,
    io:format("compose ~w~n", [(Compose(Inc, Triple))(10)]),
    Adders = [fun(X) -> X + I end || I <- lists:seq(1, 5)],
    io:format("adders ~w~n", [[Ad(100) || Ad <- Adders]]),
    Fact = fun Fact(0) -> 1; Fact(K) -> K * Fact(K - 1) end,
    io:format("named fun ~w~n", [Fact(20)]),
    Multi = fun(a, X) -> {a, X}; (b, X) -> {b, X * 2}; (_, _) -> other end,
    io:format("multi ~w ~w ~w~n", [Multi(a, 1), Multi(b, 2), Multi(c, 3)]),
    {P, Q} = {id(1), id(2)},
    Many = fun(X, Y, Z) -> [P, Q, N, X, Y, Z] end,
    io:format("many free ~w~n", [Many(a, b, c)]),
    io:format("eq ~w ~w~n", [fun lists:map/2 =:= fun lists:map/2, Local =:= fun double/1]),
    io:format("apply ~w~n", [apply(Multi, [b, 21])]),
    ok.

double(X) -> X * 2.
apply_twice(F, X) -> F(F(X)).

make_counter(N) -> fun() -> {N, make_counter(N + 1)} end.

id(X) -> X.
