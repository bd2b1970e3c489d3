%% beamlet dis golden: local, remote, tail and fun calls, guards, list recursion.
-module(dis_calls).
-export([main/0, sum/1, twice/2]).

main() -> io:format("~p~n", [{sum([1, 2, 3]), twice(fun(X) -> X * 2 end, 5), sign(-1)}]).

sum(L) -> sum(L, 0).

sum([], Acc) -> Acc;
sum([H | T], Acc) when is_integer(H) -> sum(T, Acc + H).

twice(F, X) -> F(F(X)).

sign(N) when N < 0 -> negative;
sign(0) -> zero;
sign(_) -> lists:max([positive]).
