%% samples/pmap.erl — a parallel map: one process per element, results collected in order.
-module(pmap).
-export([main/0]).

main() ->
    Inputs = lists:seq(20, 27),
    io:format("Computing fib(N) for N in ~w, sequentially and in parallel.~n", [Inputs]),
    {SeqUs, SeqRes} = timer:tc(fun() -> lists:map(fun fib/1, Inputs) end),
    {ParUs, ParRes} = timer:tc(fun() -> pmap(fun fib/1, Inputs) end),
    io:format("Results: ~w~n", [ParRes]),
    io:format("Same as lists:map: ~p~n", [SeqRes =:= ParRes]),
    io:format("Sequential: ~.1f ms, parallel: ~.1f ms.~n", [SeqUs / 1000, ParUs / 1000]),
    Squares = pmap(fun(X) -> X * X end, lists:seq(1, 100)),
    io:format("Squares of 1..100 via 100 processes, sum = ~p~n", [lists:sum(Squares)]),
    ok.

pmap(F, List) ->
    Self = self(),
    Workers = [spawn_monitor(fun() -> Self ! {self(), F(X)} end) || X <- List],
    Results = [receive {Pid, R} -> R end || {Pid, _} <- Workers],
    [receive {'DOWN', Ref, process, _, _} -> ok end || {_, Ref} <- Workers],
    Results.

fib(N) when N < 2 -> N;
fib(N) -> fib(N - 1) + fib(N - 2).
