%% A -- B as OTP computes it: each element of B removes the first remaining =:= element of A,
%% whichever side is long (element by element, or B in a tree); the result shares A's tail
%% after the last element removed; improper lists are badarg.
-module(list_subtract).
-export([main/0]).

main() ->
    Cases = [{[], []}, {[], [a]}, {[a], []}, {[a,b], [b]}, {[a,b,c,d,a,a], [a,b,c]},
             {[a,b,c,d,a,x,a], [a,b,c,a]}, {[42.0,42,42.0], [42,42,42]},
             {[1,2,3,4,5,42.0,43.0], [42.0,5]}, {[x,y,x,y,x], [y,x,y]},
             {lists:seq(1, 40), lists:seq(40, 1, -3)}, {lists:seq(1, 40) ++ lists:seq(1, 40), lists:seq(1, 40, 2)},
             {[{a,1}, "s", <<"b">>, 1.0, 1, [1]], [1, [1], {a,1}, <<"b">>]}],
    [io:format("~w~n", [A -- B]) || {A, B} <- Cases],
    Big = lists:seq(1, 10000) ++ [20, 21, 22],
    io:format("~w~n", [Big -- lists:seq(10, 9998)]),
    Other = lists:seq(0, (1 bsl 16) - 1),
    [begin
         Subset = lists:seq(1, N),
         Disjoint = lists:seq(-N, -1),
         Disjoint = Disjoint -- Other,
         [] = Subset -- Other,
         Other = Other -- Disjoint,
         N = (1 bsl 16) - length(Other -- Subset)
     end || N <- lists:seq(0, 32)],
    Long = lists:duplicate(100000, gurka),
    Rest = Long -- [gurka, gurka],
    io:format("~p ~p~n", [length(Rest), erts_debug:same(Rest, tl(tl(Long)))]),
    io:format("~p~n", [erts_debug:same(Long, Long -- [gaffel])]),
    Bad = [{[a|b], []}, {[a], [a|b]}, {[], [a|b]}, {[a|b], [a]}],
    io:format("~p~n", [[try id(A) -- id(B) catch error:R -> R end || {A, B} <- Bad]]),
    ok.

id(X) -> X.
