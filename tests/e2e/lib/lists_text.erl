-module(lists_text).
-export([main/0]).

%% Text processing with lists functions only: tokenizing, counting, formatting tables.
main() ->
    Text = "the quick brown fox jumps over the lazy dog the end",
    Words = split(Text, $\s),
    io:format("~p~n", [Words]),
    io:format("~w words, ~w unique~n", [length(Words), length(lists:usort(Words))]),
    Freq = lists:foldl(fun(W, Acc) ->
                           case lists:keyfind(W, 1, Acc) of
                               {W, N} -> lists:keyreplace(W, 1, Acc, {W, N + 1});
                               false -> [{W, 1} | Acc]
                           end
                       end, [], Words),
    Sorted = lists:sort(fun({A, NA}, {B, NB}) -> {NB, A} =< {NA, B} end, Freq),
    lists:foreach(fun({W, N}) -> io:format("~-6s ~s~n", [W, lists:duplicate(N, $*)]) end, Sorted),
    io:format("~s~n", [lists:join("-", lists:map(fun capitalize/1, Words))]),
    io:format("~p~n", [lists:filter(fun(W) -> length(W) > 4 end, Words)]),
    io:format("longest ~p~n", [lists:foldl(fun(W, Best) when length(W) > length(Best) -> W; (_, Best) -> Best end, "", Words)]),
    io:format("~p~n", [split("a,b,,c,", $,)]),
    io:format("~p~n", [lists:map(fun lists:reverse/1, Words)]),
    io:format("~p~n", [lists:zip(lists:seq(1, 3), lists:sublist(Words, 3))]),
    io:format("~s~n", [lists:flatten([io_lib:format("~2w. ~s~n", [I, W]) || {I, W} <- lists:enumerate(lists:usort(Words))])]),
    ok.

split(S, Sep) -> split(S, Sep, [], []).
split([], _, Cur, Acc) -> lists:reverse([lists:reverse(Cur) | Acc]);
split([Sep | T], Sep, Cur, Acc) -> split(T, Sep, [], [lists:reverse(Cur) | Acc]);
split([C | T], Sep, Cur, Acc) -> split(T, Sep, [C | Cur], Acc).

capitalize([C | T]) when C >= $a, C =< $z -> [C - 32 | T];
capitalize(W) -> W.
