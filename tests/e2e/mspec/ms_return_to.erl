%% tests/e2e/mspec/ms_return_to.erl — the return_to process flag combined with match specs:
%% with {return_trace} the return_from message comes before the return_to; {message,false}
%% suppresses the return_to too; after an exception is caught, one return_to names the function
%% whose catch/try handles it (even when several traced frames were unwound), and with
%% exception_trace the exception_from messages come first.
-module(ms_return_to).
-export([main/0, drive/1, outer/1, inner/1, thrower/1, mid/1, catcher/1, trier/1]).

outer(X) -> Y = inner(X), {outer, Y}.
inner(X) -> X + 1.
thrower(X) -> throw({boom, X}).
mid(X) -> R = thrower(X), {mid, R}.
catcher(X) -> catch mid(X).
trier(X) -> try mid(X) catch throw:T -> {tried, T} end.

drive(outer) -> _ = outer(1), ok;
drive(catcher) -> _ = catcher(2), ok;
drive(trier) -> _ = trier(3), ok;
drive(error) -> _ = (catch mid(error_in_drive)), ok.

main() ->
    RT = [{'_', [], [{return_trace}]}],
    ET = [{'_', [], [{exception_trace}]}],
    t("outer/inner, return_trace", [{outer, RT}, {inner, RT}], outer),
    t("outer/inner, inner only, return_trace", [{inner, RT}], outer),
    t("outer/inner, no return_trace", [{outer, true}, {inner, true}], outer),
    t("inner with message false", [{outer, true}, {inner, [{'_', [], [{message, false}]}]}], outer),
    t("inner message false + return_trace", [{inner, [{'_', [], [{message, false}, {return_trace}]}]}], outer),
    t("throw through mid, caught in untraced catcher", [{mid, true}, {thrower, true}], catcher),
    t("same with exception_trace", [{mid, ET}, {thrower, ET}], catcher),
    t("same with return_trace", [{mid, RT}, {thrower, RT}], catcher),
    t("caught by try in traced trier", [{trier, true}, {mid, true}, {thrower, true}], trier),
    t("caught by try, exception_trace", [{trier, ET}, {mid, ET}, {thrower, ET}], trier),
    t("caught by catch in drive", [{mid, true}, {thrower, true}], error),
    ok.

t(Label, Patterns, Tag) ->
    _ = erlang:trace_pattern({?MODULE, '_', '_'}, false, [local]),
    [1 = erlang:trace_pattern({?MODULE, F, 1}, MS, [local]) || {F, MS} <- Patterns],
    W = spawn(fun() -> receive go -> ?MODULE:drive(Tag) end end),
    Ref = monitor(process, W),
    1 = erlang:trace(W, true, [call, return_to]),
    W ! go,
    receive {'DOWN', Ref, process, W, _} -> ok end,
    io:format("~s:~n", [Label]),
    lists:foreach(fun(M) -> io:format("  ~w~n", [M]) end, collect(W)).

collect(W) ->
    receive
        {trace, W, call, {_, F, Args}} -> [{call, F, Args} | collect(W)];
        {trace, W, return_to, MFA} -> [{return_to, MFA} | collect(W)];
        {trace, W, Tag, {_, F, A}, V} -> [{Tag, {F, A}, V} | collect(W)]
    after 50 -> []
    end.
