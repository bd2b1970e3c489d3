%% tests/stress/trace_stress.erl — trace patterns change all the time while processes run.
%%
%% Workers call a steadily traced function (steady/1, local pattern, set before they start)
%% and the 1000 functions of stress_funs, whose patterns a toggler enables and disables over
%% and over (global and local, in the legacy session and in sessions it creates and destroys;
%% with return/exception trace match specs, meta tracing and call_time/call_count counters, so
%% trace frames are pushed and popped while the breakpoints under them come and go).
%% Checks: every call to the steady function by a traced worker gives exactly one message, none
%% for untraced workers; every message is well formed; every worker keeps making progress
%% while patterns change. Prints one line per check; halts with status 1 on failure.
-module(trace_stress).
-export([main/0, steady/1]).

-define(WORKERS, 4).
-define(TOGGLES, 200).

steady(X) -> X.

main() ->
    Self = self(),
    Tracer = spawn(fun() -> tracer(#{}, 0) end),
    _ = stress_funs:f1(0),
    1 = erlang:trace_pattern({?MODULE, steady, 1}, true, [local]),
    Workers = [spawn(fun() -> worker(N) end) || N <- lists:seq(1, ?WORKERS)],
    Traced = [W || {W, N} <- lists:zip(Workers, lists:seq(1, ?WORKERS)), N rem 2 =:= 1],
    [1 = erlang:trace(W, true, [call, {tracer, Tracer}]) || W <- Traced],
    [W ! go || W <- Workers],
    Toggler = spawn(fun() -> toggler(Self, Tracer, 0) end),
    %% Progress: sample the workers' counters while the toggler changes patterns.
    Samples = sample(Workers, Toggler, []),
    Toggles = receive {toggled, T} -> T end,
    Calls = [begin W ! {stop, self()}, receive {stopped, W, C} -> C end end || W <- Workers],
    timer:sleep(100),
    Tracer ! {report, self()},
    {Counts, Bad} = receive {report, Cs, B} -> {Cs, B} end,
    SteadyOk = lists:all(fun({W, C}) -> not lists:member(W, Traced) orelse maps:get({W, steady}, Counts, 0) =:= C end,
                         lists:zip(Workers, Calls)),
    UntracedQuiet = lists:all(fun({W, _}) -> lists:member(W, Traced) end, maps:keys(Counts)),
    check(steady_exactly_once_per_call, SteadyOk),
    check(no_messages_from_untraced_workers, UntracedQuiet),
    check(no_malformed_messages, Bad =:= 0),
    check(workers_progress_during_pattern_changes, progressed(Samples)),
    check(patterns_changed, Toggles =:= ?TOGGLES),
    check(workers_made_calls, lists:all(fun(C) -> C > 0 end, Calls)),
    Tracer ! stop,
    io:format("all ok~n").

worker(N) ->
    receive go -> loop(N, 0) end.

loop(N, I) ->
    ?MODULE:steady(I),
    F = list_to_atom("f" ++ integer_to_list(1 + (I * 7 + N) rem 1000)),
    stress_funs:F(I),
    receive
        {count, From} -> From ! {count, self(), I}, loop(N, I + 1);
        {stop, From} -> From ! {stopped, self(), I + 1}
    after 0 -> loop(N, I + 1)
    end.

toggler(Main, _Tracer, ?TOGGLES) ->
    Main ! {toggled, ?TOGGLES};
toggler(Main, Tracer, Done) ->
    case Done rem 5 of
        0 ->
            1002 = erlang:trace_pattern({stress_funs, '_', '_'}, true, [global]),
            1002 = erlang:trace_pattern({stress_funs, '_', '_'}, false, [global]);
        1 ->
            1002 = erlang:trace_pattern({stress_funs, '_', '_'}, true, [local]),
            1002 = erlang:trace_pattern({stress_funs, '_', '_'}, false, [local]);
        2 ->
            S = trace:session_create(stress, Tracer, []),
            _ = trace:process(S, all, true, [call]),
            1002 = trace:function(S, {stress_funs, '_', '_'}, true, [local]),
            true = trace:session_destroy(S);
        3 ->
            MS = [{'_', [], [{return_trace}, {exception_trace}]}],
            1002 = erlang:trace_pattern({stress_funs, '_', '_'}, MS, [local, call_time]),
            1002 = erlang:trace_pattern({stress_funs, '_', '_'}, false, [local, call_time]);
        4 ->
            MS = [{['$1'], [{is_integer, '$1'}], [{return_trace}]}],
            1002 = erlang:trace_pattern({stress_funs, '_', '_'}, MS, [{meta, Tracer}, call_count]),
            _ = erlang:trace_info({stress_funs, f1, 1}, all),
            1002 = erlang:trace_pattern({stress_funs, '_', '_'}, false, [meta, call_count])
    end,
    toggler(Main, Tracer, Done + 1).

%% Samples the workers' counters until the toggler is done.
sample(Workers, Toggler, Acc) ->
    timer:sleep(5),
    Counts = [begin W ! {count, self()}, receive {count, W, C} -> C end end || W <- Workers],
    case is_process_alive(Toggler) of
        true -> sample(Workers, Toggler, [Counts | Acc]);
        false -> lists:reverse([Counts | Acc])
    end.

%% Between consecutive samples every worker advanced.
progressed([A, B | Rest]) ->
    lists:all(fun({X, Y}) -> Y > X end, lists:zip(A, B)) andalso progressed([B | Rest]);
progressed(_) -> true.

tracer(Counts, Bad) ->
    receive
        {trace, Pid, call, {?MODULE, steady, [_]}} ->
            tracer(maps:update_with({Pid, steady}, fun(C) -> C + 1 end, 1, Counts), Bad);
        {trace, Pid, call, {stress_funs, F, [_]}} when is_pid(Pid), is_atom(F) ->
            tracer(Counts, Bad);
        {trace, Pid, return_from, {stress_funs, F, 1}, _} when is_pid(Pid), is_atom(F) ->
            tracer(Counts, Bad);
        {trace_ts, Pid, call, {stress_funs, F, [_]}, {_, _, _}} when is_pid(Pid), is_atom(F) ->
            tracer(Counts, Bad);
        {trace_ts, Pid, return_from, {stress_funs, F, 1}, _, {_, _, _}} when is_pid(Pid), is_atom(F) ->
            tracer(Counts, Bad);
        {report, From} ->
            From ! {report, Counts, Bad},
            tracer(Counts, Bad);
        stop -> ok;
        _Other ->
            tracer(Counts, Bad + 1)
    end.

check(Name, true) -> io:format("~p: ok~n", [Name]);
check(Name, Other) -> io:format("~p: FAILED (~p)~n", [Name, Other]), erlang:halt(1).
