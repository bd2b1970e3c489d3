-module(after_semantics).
-export([main/0]).

%% after: its value is discarded; an exception raised in after replaces the original.
main() ->
    R1 = try 1 after 2 end,
    io:format("value ~p~n", [R1]),
    R2 = try try throw(original) after throw(from_after) end catch throw:T -> T end,
    io:format("replaced ~p~n", [R2]),
    R3 = try try ok after erlang:error(after_error) end catch C:E -> {C, E} end,
    io:format("after raises ~p~n", [R3]),
    put(trace, []),
    R4 = try counted(5) catch throw:X -> {thrown, X} end,
    io:format("~p trace ~p~n", [R4, lists:reverse(get(trace))]),
    R5 = try try {ok, id(1)} of {ok, V} -> V + 1 after note(of_after) end catch _:_ -> bad end,
    io:format("of+after ~p trace ~p~n", [R5, lists:reverse(get(trace))]),
    R6 = try catch_in_after() catch C6:E6 -> {C6, E6} end,
    io:format("catch in after ~p trace ~p~n", [R6, lists:reverse(get(trace))]),
    R7 = [try X after note({a7, X}) end || X <- [1, 2, 3]],
    io:format("lc ~p trace ~p~n", [R7, lists:reverse(get(trace))]),
    ok.

counted(0) -> throw(done);
counted(N) ->
    try counted(N - 1) after note({after_level, N}) end.

catch_in_after() ->
    try throw(main_throw)
    after
        R = (catch throw(inside_after)),
        note({after_caught, R})
    end.

note(X) -> put(trace, [X | get(trace)]).

id(X) -> X.
