%% tests/stress/tracer_module_stress.erl — tracer modules under load: 500 workers exchange
%% messages in a ring while a chaos process keeps tracing random workers for send, 'receive'
%% and procs through an Erlang tracer module (this module) in the legacy session and in
%% sessions it creates with overload limits and destroys; the module's state asks it to trace,
%% discard, answer remove, or crash, and a meta pattern with the module comes and goes.
%% Checks: every worker got every message of every round exactly once and in order; the
%% tracer module saw events; the chaos process made changes while the workers ran; the limited
%% sessions counted what they dropped. Prints one line per check and "all ok"; halts with
%% status 1 on failure.
-module(tracer_module_stress).
-export([main/0, enabled/3, trace/5, meta_target/1]).

-define(PROCS, 500).
-define(ROUNDS, 200).

%% ---- the tracer module: State is {Counters, Mode} ----

enabled(trace_status, {_, remove_status}, _) -> remove;
enabled(trace_status, _, _) -> trace;
enabled(_, {_, discard}, _) -> discard;
enabled(_, {_, remove}, _) -> remove;
enabled(_, {_, crash_enabled}, _) -> error(crash);
enabled(_, _, _) -> trace.

trace(_, {_, crash_trace}, _, _, _) -> exit(crash);
trace(Tag, {C, _}, _Tracee, _Term, _Opts) ->
    counters:add(C, 1, 1),
    case Tag of
        call -> counters:add(C, 2, 1);
        _ -> ok
    end,
    ok.

meta_target(X) -> X.

%% ---- the load ----

main() ->
    Self = self(),
    C = counters:new(2, [write_concurrency]),
    Workers = [spawn(fun() -> worker(Self) end) || _ <- lists:seq(1, ?PROCS)],
    Ring = list_to_tuple(Workers),
    [W ! {start, element(next(I), Ring), element(prev(I), Ring)} || {I, W} <- lists:zip(lists:seq(1, ?PROCS), Workers)],
    Chaos = spawn(fun() -> first_tick(Self, Ring, C) end),
    %% Before each round the chaos process makes one change (the first: the meta pattern, which
    %% then stays for the whole first round); from the second round on it makes more at its own
    %% pace while the workers run.
    [begin
         Chaos ! {tick, self()},
         receive tock -> ok end,
         [W ! {round, R} || W <- Workers],
         [receive {done, W, R} -> ok end || W <- Workers]
     end || R <- lists:seq(1, ?ROUNDS)],
    Chaos ! {stop, self()},
    {Changes, Dropped} = receive {chaos_done, N, D} -> {N, D} end,
    Results = [begin W ! {report, self()}, receive {report, W, Got} -> Got end end || W <- Workers],
    InOrder = lists:all(fun(Got) -> Got =:= lists:seq(1, ?ROUNDS) end, Results),
    check("every message arrived once, in order", InOrder),
    check("the tracer module saw events", counters:get(C, 1) > 0),
    check("the meta pattern with the module reported calls", counters:get(C, 2) > 0),
    check("the chaos process made changes", Changes >= ?ROUNDS),
    io:format("limited sessions dropped ~s events~n", [if Dropped > 0 -> "some"; true -> "no" end]),
    erlang:trace(all, false, [all]),
    io:format("all ok~n").

check(What, true) -> io:format("ok: ~s~n", [What]);
check(What, false) -> io:format("FAILED: ~s~n", [What]), erlang:halt(1).

next(I) -> I rem ?PROCS + 1.
prev(1) -> ?PROCS;
prev(I) -> I - 1.

worker(Main) ->
    receive {start, Next, Prev} -> worker(Main, Next, Prev, []) end.

worker(Main, Next, Prev, Got) ->
    receive
        {round, R} ->
            Next ! {msg, self(), R},
            receive {msg, Prev, R} -> ok end,
            ?MODULE:meta_target(R),
            Main ! {done, self(), R},
            worker(Main, Next, Prev, [R | Got]);
        {report, To} ->
            To ! {report, self(), lists:reverse(Got)}
    end.

first_tick(Main, Ring, C) ->
    receive {tick, From} -> ok end,
    1 = erlang:trace_pattern({?MODULE, meta_target, 1}, [], [{meta, ?MODULE, {C, trace}}]),
    From ! tock,
    receive {tick, From2} -> From2 ! tock end,
    chaos(Main, Ring, C, 2, []).

chaos(Main, Ring, C, Changes, Sessions) ->
    receive
        {tick, From} ->
            Sessions1 = change(Ring, C, Sessions),
            From ! tock,
            chaos(Main, Ring, C, Changes + 1, Sessions1);
        {stop, From} ->
            Dropped = lists:sum([maps:get(dropped, beamlet:trace_limits(S)) || S <- Sessions]),
            [trace:session_destroy(S) || S <- Sessions],
            erlang:trace_pattern({?MODULE, meta_target, 1}, false, [meta]),
            From ! {chaos_done, Changes, Dropped}
    after 0 ->
        Sessions1 = change(Ring, C, Sessions),
        receive after rand:uniform(3) -> ok end,
        chaos(Main, Ring, C, Changes + 1, Sessions1)
    end.

%% One random change of tracing.
change(Ring, C, Sessions) ->
    W = element(rand:uniform(?PROCS), Ring),
    Mode = lists:nth(rand:uniform(7), [trace, trace, discard, remove, remove_status, crash_enabled, crash_trace]),
    Sessions1 =
        case rand:uniform(6) of
            1 ->
                catch erlang:trace(W, true, [send, 'receive', procs, {tracer, ?MODULE, {C, Mode}}]),
                Sessions;
            2 ->
                catch erlang:trace(W, false, [all]),
                Sessions;
            3 when length(Sessions) < 4 ->
                S = trace:session_create(chaos, {?MODULE, {C, Mode}}, [{max_rate, {100, 10}}]),
                [catch trace:process(S, element(rand:uniform(?PROCS), Ring), true, [send, 'receive'])
                 || _ <- lists:seq(1, 20)],
                [S | Sessions];
            4 when Sessions =/= [] ->
                [S | Rest] = Sessions,
                trace:session_destroy(S),
                Rest;
            5 ->
                catch erlang:trace_pattern({?MODULE, meta_target, 1}, [], [{meta, ?MODULE, {C, trace}}]),
                Sessions;
            _ ->
                catch erlang:trace_pattern({?MODULE, meta_target, 1}, false, [meta]),
                Sessions
        end,
    Sessions1.
