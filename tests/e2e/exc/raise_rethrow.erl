-module(raise_rethrow).
-export([main/0]).

%% erlang:raise/3 for rethrowing with the original class, error/2, error/3.
main() ->
    lists:foreach(fun(C) ->
        R = try rethrow(C) catch Class:Reason -> {Class, Reason} end,
        io:format("~p~n", [R])
    end, [throw, error, exit]),
    R2 = try erlang:raise(throw, custom, []) catch throw:X -> {got, X} end,
    io:format("~p~n", [R2]),
    R3 = try erlang:raise(error, reason, [{m, f, 1, []}]) catch error:Y:St -> {got, Y, St} end,
    io:format("~p~n", [R3]),
    R4 = try erlang:raise(bad_class, r, []) catch C4:E4 -> {C4, E4} end,
    io:format("bad class ~p~n", [R4]),
    R5 = try cleanup_and_rethrow() catch C5:E5 -> {C5, E5} end,
    io:format("~p~n", [R5]),
    R6 = try erlang:error(reason_with_args, [1, 2]) catch error:E6:S6 -> {E6, first_args(S6)} end,
    io:format("~p~n", [R6]),
    R7 = try erlang:error(r7, none, [{error_info, #{}}]) catch error:E7 -> E7 end,
    io:format("~p~n", [R7]),
    R8 = try wrap(fun() -> throw(inner) end) catch C8:E8 -> {C8, E8} end,
    io:format("~p~n", [R8]),
    ok.

rethrow(Class) ->
    try
        case Class of
            throw -> throw(t);
            error -> erlang:error(e);
            exit -> exit(x)
        end
    catch C:R:S ->
        io:format("rethrowing ~p:~p~n", [C, R]),
        erlang:raise(C, {rethrown, R}, S)
    end.

cleanup_and_rethrow() ->
    try 1 / id(0)
    catch error:badarith:S ->
        io:format("cleanup~n"),
        erlang:raise(error, badarith, S)
    end.

first_args([{?MODULE, main, Args, _} | _]) -> Args;
first_args([{_, _, Args, _} | _]) when is_list(Args) -> Args;
first_args(_) -> unknown.

wrap(F) ->
    try F()
    catch throw:T:S -> erlang:raise(exit, {wrapped, T}, S)
    end.

id(X) -> X.
