%% beamlet dis golden: try/of/catch/after, catch, throw, raise, a stacktrace.
-module(dis_exceptions).
-export([main/0, safe_div/2]).

main() ->
    io:format("~p~n", [{safe_div(1, 0), catch throw(thrown), guarded(fun() -> erlang:raise(exit, why, []) end)}]).

safe_div(A, B) ->
    try A div B of
        Q -> {ok, Q}
    catch
        error:badarith:St -> {error, length(St) > 0}
    after
        put(done, true)
    end.

guarded(F) ->
    try F() catch Class:Reason -> {Class, Reason} end.
