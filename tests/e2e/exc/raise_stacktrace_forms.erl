%% erlang:raise/3 takes the stacktrace forms OTP takes: {M, F, A, Location} and {Fun, Args,
%% Location} as given, the old {M, F, A} and {Fun, Args} with an empty location, anything
%% else makes it return badarg; and at most backtrace_depth entries are kept.
-module(raise_stacktrace_forms).
-export([main/0]).

main() ->
    F = fun() -> ok end,
    Cases = [{"mfa and mfal", [{a, b, [1]}, {c, d, 2}, {e, f, 3, [{line, 4}]}]},
             {"fun and args", [{F, [1]}]},
             {"fun, args and location", [{F, [1], [{line, 1}]}]},
             {"fun with a bad location", [{F, [1], x}]},
             {"two elements", [{a, b}]},
             {"bad location", [{a, b, c, d}]},
             {"improper list", [{a, b, c, []} | x]},
             {"not a tuple", [abc]},
             {"bad class", bad_class}],
    [io:format("~s: ~w~n", [Label, outcome(Stk)]) || {Label, Stk} <- Cases],
    io:format("longer than the depth: ~w~n", [length(element(2, outcome(lists:duplicate(20, {a, b, 1}))))]),
    Old = erlang:system_flag(backtrace_depth, 3),
    io:format("depth 3: ~w~n", [length(element(2, outcome(lists:duplicate(20, {a, b, 1}))))]),
    erlang:system_flag(backtrace_depth, 0),
    io:format("depth 0: ~w~n", [element(2, outcome([{a, b, 1}, {c, d, 2, []}]))]),
    erlang:system_flag(backtrace_depth, Old),
    ok.

outcome(bad_class) ->
    erlang:raise(bad_class, x, []);
outcome(Stk) ->
    try erlang:raise(error, x, Stk) of
        Returned -> Returned
    catch
        error:x:Got -> {raised, [strip_fun(E) || E <- Got]}
    end.

strip_fun(E) when is_function(element(1, E)) -> setelement(1, E, a_fun);
strip_fun(E) -> E.
