%% tests/e2e/mspec/ms_exception_trace.erl — {exception_trace}: {trace, Pid, exception_from,
%% {M,F,Arity}, {Class, Value}} for every exception-traced frame an exception passes through,
%% for error (Value is the plain reason, no stack trace), throw and exit, and badarith from an
%% operator; caught in an untraced function, caught inside a traced one (return_from for that
%% one), re-raised with erlang:raise/3, and uncaught (the process dies after the exception_from
%% messages; the monitor's 'DOWN' reason is printed last, without its stack trace).
%% An uncaught throw is reported as {error, {nocatch, Value}} in every exception_from.
-module(ms_exception_trace).
-export([main/0, top/2, mid/2, raiser/2, guard/2, rethrow/2, catcher/2]).

raiser(error, X) -> error({err, X});
raiser(throw, X) -> throw({thr, X});
raiser(exit, X) -> exit({ex, X});
raiser(badarith, X) -> X + 1;
raiser(ok, X) -> X.
mid(C, X) -> R = raiser(C, X), {mid, R}.
top(C, X) -> mid(C, X).
guard(C, X) -> try mid(C, X) catch Class:R -> {guarded, Class, R} end.
rethrow(C, X) -> try mid(C, X) catch Class:R:St -> erlang:raise(Class, {re, R}, St) end.
catcher(F, X) -> catch ?MODULE:F(X, X).

main() ->
    quiet_logger(),
    ET = [{'_', [], [{exception_trace}]}],
    [1 = erlang:trace_pattern({?MODULE, F, 2}, ET, [local]) || F <- [top, mid, raiser, guard, rethrow]],
    [t(io_lib:format("caught outside, ~w", [C]), fun() -> catcher(top, C) end) || C <- [error, throw, exit, badarith, ok]],
    t("caught inside traced guard/2", fun() -> catcher(guard, error) end),
    t("re-raised by rethrow/2", fun() -> catcher(rethrow, throw) end),
    [t(io_lib:format("uncaught, ~w", [C]), fun() -> top(C, C) end) || C <- [error, throw, exit]],
    %% Only the frames with exception_trace report; mid/2 here has return_trace only.
    1 = erlang:trace_pattern({?MODULE, mid, 2}, [{'_', [], [{return_trace}]}], [local]),
    t("mid return_trace only", fun() -> catcher(top, error) end),
    1 = erlang:trace_pattern({?MODULE, mid, 2}, false, [local]),
    t("mid untraced", fun() -> catcher(top, throw) end),
    ok.

t(Label, Fun) ->
    W = spawn(fun() -> receive go -> Fun() end end),
    Ref = monitor(process, W),
    1 = erlang:trace(W, true, [call]),
    W ! go,
    Reason = receive {'DOWN', Ref, process, W, R} -> R end,
    io:format("~s:~n", [Label]),
    lists:foreach(fun(M) -> io:format("  ~w~n", [M]) end, collect(W) ++ [{down, strip(Reason)}]).

collect(W) ->
    receive
        {trace, W, call, {_, F, Args}} -> [{call, F, Args} | collect(W)];
        {trace, W, Tag, {_, F, A}, V} -> [{Tag, {F, A}, V} | collect(W)];
        {trace, W, _, _} -> collect(W);
        {trace, W, _, _, _} -> collect(W)
    after 50 -> []
    end.

%% erl's logger writes a crash report for every uncaught error/throw in a process to *stdout*
%% (asynchronously, with a timestamp and pids); switch it off. beamlet has no logger module:
%% the call raises undef, ignored.
quiet_logger() ->
    try logger:set_primary_config(level, none) catch error:undef -> ok end.

%% Exit reasons of errors carry a stack trace (with file names): keep only the reason.
strip({R, [{_, _, _, _} | _]}) -> {R, stacktrace};
strip(R) -> R.
