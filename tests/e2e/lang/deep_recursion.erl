-module(deep_recursion).
-export([main/0]).

%% Deep non-tail recursion (stack growth) and long tail-recursive loops.
main() ->
    io:format("len ~w~n", [len(lists:seq(1, 100000))]),
    io:format("sum ~w~n", [sum_to(100000)]),
    io:format("build ~w~n", [length(build(200000))]),
    io:format("map ~w~n", [lists:last(my_map(fun(X) -> X * 2 end, lists:seq(1, 100000)))]),
    io:format("append ~w~n", [length(my_append(lists:seq(1, 100000), [a, b]))]),
    io:format("tail loop ~w~n", [loop(1000000, 0)]),
    io:format("nested tuple depth ~w~n", [depth(nest(50000, leaf), 0)]),
    io:format("mutual ~w ~w~n", [is_even(100001), is_odd(77777)]),
    io:format("deep with floats ~p~n", [fsum(50000)]),
    io:format("deep bignum ~w~n", [length(integer_to_list(fact(1000)))]),
    ok.

len([]) -> 0;
len([_ | T]) -> 1 + len(T).

sum_to(0) -> 0;
sum_to(N) -> N + sum_to(N - 1).

build(0) -> [];
build(N) -> [N | build(N - 1)].

my_map(_, []) -> [];
my_map(F, [H | T]) -> [F(H) | my_map(F, T)].

my_append([], L) -> L;
my_append([H | T], L) -> [H | my_append(T, L)].

loop(0, Acc) -> Acc;
loop(N, Acc) -> loop(N - 1, Acc + (N band 3)).

nest(0, X) -> X;
nest(N, X) -> nest(N - 1, {X}).

depth(leaf, D) -> D;
depth({X}, D) -> depth(X, D + 1).

is_even(0) -> true;
is_even(N) -> is_odd(N - 1).
is_odd(0) -> false;
is_odd(N) -> is_even(N - 1).

fsum(0) -> 0.0;
fsum(N) -> 0.5 + fsum(N - 1).

fact(0) -> 1;
fact(N) -> N * fact(N - 1).
