-module(try_of_clauses).
-export([main/0]).

%% try ... of with pattern clauses, guards, and try_clause errors.
main() ->
    lists:foreach(fun(In) -> io:format("~p -> ~p~n", [In, classify(In)]) end,
                  [{ok, 1}, {ok, -1}, {error, x}, boom, crash, other]),
    R = try try_clause_test(surprise) catch error:E -> E end,
    io:format("~p~n", [R]),
    R2 = try try id(1) of 2 -> two catch _:_ -> caught end catch error:E2 -> {outer, E2} end,
    io:format("~p~n", [R2]),
    R3 = try try id(1) of 1 -> throw(from_of) catch throw:_ -> caught_inner end catch throw:T -> {outer, T} end,
    io:format("~p~n", [R3]),
    io:format("~p~n", [[bindings(X) || X <- [1, 2, 3]]]),
    ok.

classify(In) ->
    try produce(In) of
        {ok, N} when N > 0 -> positive;
        {ok, _} -> non_positive;
        {error, Why} -> {error, Why}
    catch
        throw:boom -> thrown_boom;
        error:crash -> error_crash
    end.

produce(boom) -> throw(boom);
produce(crash) -> erlang:error(crash);
produce(other) -> {ok, 0};
produce(X) -> X.

try_clause_test(X) ->
    try id(X) of
        expected -> fine
    catch
        _:_ -> caught
    end.

bindings(X) ->
    try id(X) of
        1 -> A = one, A;
        N when N > 1 -> B = {many, N}, B
    after
        ok
    end.

id(X) -> X.
