-module(exc_through_funs).
-export([main/0]).

%% Exceptions propagating through funs, lists:foldl/map, and recursion.
main() ->
    R1 = try lists:map(fun(X) -> check(X) end, [1, 2, -3, 4]) catch throw:{negative, N} -> {stopped_at, N} end,
    io:format("~p~n", [R1]),
    R2 = try lists:foldl(fun(X, Acc) -> Acc + 100 div X end, 0, [1, 2, 0, 4]) catch error:E -> E end,
    io:format("~p~n", [R2]),
    Find = fun(Pred, L) ->
               try lists:foreach(fun(X) -> case Pred(X) of true -> throw({found, X}); false -> ok end end, L), not_found
               catch throw:{found, X} -> {found, X}
               end
           end,
    io:format("~p ~p~n", [Find(fun(X) -> X > 3 end, [1, 5, 2, 7]), Find(fun(X) -> X > 10 end, [1, 2])]),
    R3 = try deep_throw(1000) catch throw:{depth, D} -> D end,
    io:format("deep ~p~n", [R3]),
    Safe = fun(F) -> fun(X) -> try F(X) catch _:R -> {error, R} end end end,
    SafeHd = Safe(fun erlang:hd/1),
    io:format("~p ~p~n", [SafeHd([a, b]), SafeHd([])]),
    SafeDiv = Safe(fun(X) -> 10 / X end),
    io:format("~p ~p~n", [SafeDiv(4), SafeDiv(0)]),
    R4 = try (fun() -> exit(from_fun) end)() catch exit:W -> W end,
    io:format("~p~n", [R4]),
    R5 = try lists:sort(fun(_, _) -> throw(in_sort) end, [3, 1, 2]) catch throw:T -> T end,
    io:format("~p~n", [R5]),
    R6 = try maps:map(fun(K, _) when K =:= b -> erlang:error({bad_key, K}); (_, V) -> V end, #{a => 1, b => 2})
         catch error:Er -> Er end,
    io:format("~p~n", [R6]),
    ok.

check(X) when X < 0 -> throw({negative, X});
check(X) -> X * 2.

deep_throw(0) -> throw({depth, bottom});
deep_throw(N) -> 1 + deep_throw(N - 1).
