-module(trace_tracer_conflict).
-export([main/0, f/1]).
-import(e2e_trace, [collector/0, messages/1, worker/0, run/2, stop_wait/2, name/2]).

%% One tracer per process. While W is traced by T1, erlang:trace(W, true, Flags) with another
%% tracer - an explicit {tracer, T2} or, without a tracer flag, the caller itself - fails with
%% error:badarg and changes nothing; the same tracer may add flags. trace(W, false, Flags)
%% without a tracer flag works from any process, but with {tracer, T2} naming a different
%% tracer it is badarg too. Once all flags are removed, W can be traced by T2.
%% (erl also logs "** can only have one tracer per process" for every refused call; see
%% quiet_logger.)
f(X) -> X.

main() ->
    quiet_logger(),
    io:format("pattern: ~p~n", [erlang:trace_pattern({?MODULE, f, 1}, true)]),
    W = worker(),
    T1 = collector(),
    T2 = collector(),
    Names = [{W, worker}, {T1, t1}, {T2, t2}, {self(), main}],
    t("trace by t1", fun() -> erlang:trace(W, true, [call, {tracer, T1}]) end),
    t("trace by t2", fun() -> erlang:trace(W, true, [call, {tracer, T2}]) end),
    t("add arity, caller as tracer", fun() -> erlang:trace(W, true, [arity]) end),
    t("t2 by itself", fun() -> erlang:trace(W, true, [{tracer, T2}]) end),
    info(W, Names),
    run(W, fun() -> ?MODULE:f(1) end),
    show(T1, t1, Names), show(T2, t2, Names),
    t("add arity with t1", fun() -> erlang:trace(W, true, [arity, {tracer, T1}]) end),
    info(W, Names),
    run(W, fun() -> ?MODULE:f(2) end),
    show(T1, t1, Names), show(T2, t2, Names),
    t("remove arity naming t2", fun() -> erlang:trace(W, false, [arity, {tracer, T2}]) end),
    t("remove arity naming t1", fun() -> erlang:trace(W, false, [arity, {tracer, T1}]) end),
    info(W, Names),
    t("remove call, no tracer flag", fun() -> erlang:trace(W, false, [call]) end),
    info(W, Names),
    t("trace by t2 now", fun() -> erlang:trace(W, true, [call, {tracer, T2}]) end),
    info(W, Names),
    run(W, fun() -> ?MODULE:f(3) end),
    show(T1, t1, Names), show(T2, t2, Names),
    t("trace by t1 now", fun() -> erlang:trace(W, true, [call, {tracer, T1}]) end),
    t("trace off", fun() -> erlang:trace(W, false, [call]) end),
    io:format("pattern off: ~p~n", [erlang:trace_pattern({?MODULE, f, 1}, false)]),
    stop_wait(W, stop), stop_wait(T1, stop), stop_wait(T2, stop),
    ok.

%% erl's logger writes an error report for every trace/3 call refused because the process
%% already has another tracer to *stdout*, asynchronously and with a timestamp, so the output
%% would be nondeterministic; switch it off. beamlet has no logger module: the call raises
%% undef, ignored.
quiet_logger() ->
    try logger:set_primary_config(level, none) catch error:undef -> ok end.

t(Label, F) ->
    R = try F() of V -> {returned, V} catch C:E -> {C, E} end,
    io:format("~s: ~p~n", [Label, R]).

info(P, Names) ->
    {flags, Fl} = erlang:trace_info(P, flags),
    Tr = case erlang:trace_info(P, tracer) of
             {tracer, []} -> [];
             {tracer, T} -> name(T, Names)
         end,
    io:format("  flags ~p, tracer ~p~n", [lists:sort(Fl), Tr]).

show(T, Label, Names) ->
    timer:sleep(10),
    Msgs = messages(T),
    io:format("  ~p got ~p~n", [Label, [{trace, name(P, Names), call, What} || {trace, P, call, What} <- Msgs]]).
