-module(nested_try).
-export([main/0]).

%% Nested try: inner handlers, re-throwing from catch clauses, unmatched classes.
main() ->
    io:format("~p~n", [level1(throw)]),
    io:format("~p~n", [level1(error)]),
    io:format("~p~n", [level1(exit)]),
    io:format("~p~n", [level1(none)]),
    io:format("~p~n", [convert(fun() -> throw(a) end)]),
    io:format("~p~n", [convert(fun() -> erlang:error(b) end)]),
    io:format("~p~n", [convert(fun() -> exit(c) end)]),
    io:format("~p~n", [deep(5)]),
    io:format("~p~n", [try deep2(5) catch throw:W -> {top, W} end]),
    io:format("~p~n", [try try throw(x) catch error:_ -> inner end catch throw:x -> outer end]),
    io:format("~p~n", [try try throw(x) catch throw:Y -> throw({wrapped, Y}) end catch throw:Z -> Z end]),
    io:format("~p~n", [try [catch_each(I) || I <- [1, 2, 3]] catch throw:E -> {outer, E} end]),
    io:format("~p~n", [try_in_of()]),
    io:format("~p~n", [try_var_scope()]),
    ok.

level1(What) ->
    try level2(What)
    catch exit:R -> {level1_caught_exit, R}
    end.

level2(What) ->
    try level3(What)
    catch error:R -> {level2_caught_error, R}
    end.

level3(throw) -> try throw(t) catch throw:t -> {level3_caught, t} end;
level3(error) -> erlang:error(e);
level3(exit) -> exit(x);
level3(none) -> fine.

convert(F) ->
    try
        try F()
        catch throw:T -> erlang:error({converted_throw, T});
              error:E -> exit({converted_error, E})
        end
    catch
        error:R -> {outer_error, R};
        exit:R -> {outer_exit, R}
    end.

deep(0) -> throw(bottom);
deep(N) ->
    try deep(N - 1)
    catch throw:bottom when N =:= 3 -> {caught_at, N};
          throw:Other -> throw(Other)
    end.

deep2(0) -> throw(bottom);
deep2(N) ->
    try deep2(N - 1)
    catch throw:Other -> throw({N, Other})
    end.

catch_each(2) -> throw(two);
catch_each(I) -> try I * 10 catch _:_ -> never end.

try_in_of() ->
    %% an exception raised in an `of` clause is not caught by the same try
    try
        try id(2) of 2 -> throw(in_of) catch throw:_ -> not_caught_here end
    catch
        throw:in_of -> caught_outside
    end.

try_var_scope() ->
    X = try id(10) of V -> V * 2 catch _:_ -> 0 end,
    Y = try throw(id(5)) catch throw:W -> W + X end,
    {X, Y}.

id(X) -> X.
