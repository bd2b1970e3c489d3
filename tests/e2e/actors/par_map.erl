-module(par_map).
-export([main/0]).

%% Parallel map over 100 elements: one process per element, results gathered in input order
%% (matched by pid / by ref), even though workers finish in a different order; a worker that
%% crashes is reported through a monitor.
main() ->
    L = lists:seq(1, 100),
    F = fun(X) -> work(X), X * X end,
    R1 = pmap_pids(F, L),
    io:format("pmap (by pid) ok: ~p~n", [R1 =:= [X * X || X <- L]]),
    io:format("first 10: ~w~n", [lists:sublist(R1, 10)]),
    R2 = pmap_refs(fun(X) -> {X, X rem 7} end, L),
    io:format("pmap (by ref) ok: ~p~n", [R2 =:= [{X, X rem 7} || X <- L]]),
    %% Reverse finishing order: early elements sleep longest.
    R3 = pmap_pids(fun(X) -> timer:sleep((6 - X) * 10), X * 10 end, [1, 2, 3, 4, 5]),
    io:format("slow-first results: ~p~n", [R3]),
    R4 = pmap_safe(fun(X) when X rem 25 =:= 0 -> exit({bad_element, X}); (X) -> X + 1000 end, L),
    Errors = [E || {error, E} <- R4],
    io:format("safe pmap: ~p ok, errors ~w~n", [length([V || {ok, V} <- R4]), Errors]),
    io:format("sum via pmap: ~p~n", [lists:sum(pmap_pids(fun(X) -> X end, lists:seq(1, 1000)))]),
    ok.

work(X) -> lists:foldl(fun(I, A) -> (A + I * X) rem 1000003 end, 0, lists:seq(1, (X rem 10) * 100)).

pmap_pids(F, L) ->
    Self = self(),
    Ws = [spawn_monitor(fun() -> Self ! {self(), F(X)} end) || X <- L],
    Rs = [receive {P, R} -> R end || {P, _} <- Ws],
    [receive {'DOWN', Ref, process, _, normal} -> ok end || {_, Ref} <- Ws],
    Rs.

pmap_refs(F, L) ->
    Self = self(),
    Ws = [begin Ref = make_ref(), {Ref, spawn_monitor(fun() -> Self ! {Ref, F(X)} end)} end || X <- L],
    Rs = [receive {Ref, R} -> R end || {Ref, _} <- Ws],
    [receive {'DOWN', M, process, _, normal} -> ok end || {_, {_, M}} <- Ws],
    Rs.

pmap_safe(F, L) ->
    Self = self(),
    Ws = [spawn_monitor(fun() -> Self ! {self(), F(X)} end) || X <- L],
    [receive
         {P, R} -> receive {'DOWN', Ref, process, P, normal} -> {ok, R} end;
         {'DOWN', Ref, process, P, Why} -> {error, Why}
     end || {P, Ref} <- Ws].
