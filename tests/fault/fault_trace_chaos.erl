%% tests/fault/fault_trace_chaos.erl — 1000 processes traced for calls, sends, receives and
%% process events while their tracing is torn down and rebuilt under them at random: tracers
%% killed, sessions destroyed, sessions whose strong handle is dropped (their creator exits, so
%% the VM's cleaner destroys them), call patterns switched on, off and to match specs.
%%
%% Each worker runs ?ROUNDS rounds: it calls ?MODULE:work/2 (the traced function), sends one
%% message to the next worker of a ring and receives the previous worker's, and every fifth
%% round spawns a linked child that reports back and exits. Checks, each exact: every worker's
%% sum of work/2 results, every ring message received once and in order and nothing else, every
%% child's report; every trace message any tracer got is well formed; tracers saw events; the
%% chaos made changes while the workers ran; at the end no session of ours is left. Prints one
%% line per check and "all ok"; halts with status 1 on a failed check.
-module(fault_trace_chaos).
-export([main/0, work/2]).

-define(PROCS, 1000).
-define(ROUNDS, 300).
-define(SAMPLE, 40).
-define(PHASE, 30).  % rounds between two barriers, where the chaos makes changes for sure

main() ->
    Self = self(),
    Baseline = length(trace:session_info(all)),
    Workers = [spawn(fun() -> worker(Self) end) || _ <- lists:seq(1, ?PROCS)],
    Ring = list_to_tuple(Workers),
    [W ! {start, I, element(I rem ?PROCS + 1, Ring)} || {I, W} <- lists:zip(lists:seq(1, ?PROCS), Workers)],
    Chaos = spawn(fun() -> chaos_start(Self, Ring) end),
    wait_changes(Chaos, 5),
    [W ! go || W <- Workers],
    barriers(Workers, Chaos, ?ROUNDS div ?PHASE - 1),
    Results = [receive {done, W, R} -> R after 300000 -> timeout end || W <- Workers],
    Chaos ! {stop, Self},
    {Changes, Sessions} = receive {chaos_done, C, S} -> {C, S} end,
    [catch trace:session_destroy(Sn) || Sn <- Sessions],
    erlang:trace(all, false, [all]),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [local, call_count]),
    Expected = [{ok, I, expected_sum(I)} || I <- lists:seq(1, ?PROCS)],
    check(every_sum_every_message_every_child, Results =:= Expected),
    {Seen, Malformed} = tracer_totals(),
    check(trace_messages_well_formed, Malformed =:= 0),
    check(tracers_saw_events, Seen > 0),
    io:format("chaos changes: ~p~n", [Changes]),
    check(tracing_changed_while_running, Changes >= 5 * (?ROUNDS div ?PHASE)),
    check(no_session_left, wait_sessions_gone(Baseline, 2000)),
    [W ! stop || W <- Workers],
    io:format("all ok~n").

work(I, R) -> I * R + 1.

%% Every ?PHASE rounds the workers wait while the chaos makes five more changes.
barriers(_Workers, _Chaos, 0) -> ok;
barriers(Workers, Chaos, N) ->
    [receive {barrier, W} -> ok end || W <- Workers],
    wait_changes(Chaos, changes(Chaos) + 5),
    [W ! go || W <- Workers],
    barriers(Workers, Chaos, N - 1).

expected_sum(I) -> lists:sum([I * R + 1 || R <- lists:seq(1, ?ROUNDS)]).

check(Name, true) -> io:format("~p: ok~n", [Name]);
check(Name, false) -> io:format("~p: FAILED~n", [Name]), halt(1).

%% ---- workers ----

worker(Main) ->
    receive {start, I, Next} -> receive go -> worker(Main, I, Next, 1, 0) end end.

worker(Main, I, _Next, R, Sum) when R > ?ROUNDS ->
    %% Nothing may be left over: no duplicates, no strays.
    Extra = receive M -> {extra, M} after 0 -> none end,
    Main ! {done, self(), case Extra of none -> {ok, I, Sum}; _ -> Extra end},
    receive stop -> ok end;
worker(Main, I, Next, R, Sum) when R rem ?PHASE =:= 1, R > 1 ->
    Main ! {barrier, self()},
    receive go -> ok end,
    worker_round(Main, I, Next, R, Sum);
worker(Main, I, Next, R, Sum) ->
    worker_round(Main, I, Next, R, Sum).

worker_round(Main, I, Next, R, Sum) ->
    V = ?MODULE:work(I, R),
    Next ! {ring, R},
    receive {ring, R} -> ok end,
    ok = case R rem 5 of
             0 -> child(R);
             _ -> ok
         end,
    worker(Main, I, Next, R + 1, Sum + V).

child(R) ->
    Self = self(),
    Pid = spawn_link(fun() -> Self ! {child, self(), R} end),
    receive {child, Pid, R} -> ok after 60000 -> child_lost end.

%% ---- chaos ----

chaos_start(Main, Ring) ->
    process_flag(priority, high),  % changes keep coming while 1000 workers are runnable
    rand:seed(exsss, {17, 42, 4711}),
    register(fault_tracers, spawn(fun() -> tracer_registry([], 0, 0) end)),
    chaos(Main, Ring, [], none, 0).

chaos(Main, Ring, Sessions, Legacy, Changes) ->
    receive
        {stop, From} ->
            From ! {chaos_done, Changes, Sessions};
        {changes, From} ->
            From ! {changes, Changes},
            chaos(Main, Ring, Sessions, Legacy, Changes)
    after 0 ->
        {Sessions1, Legacy1} = act(rand:uniform(7), Ring, Sessions, Legacy),
        receive after rand:uniform(2) - 1 -> ok end,
        chaos(Main, Ring, Sessions1, Legacy1, Changes + 1)
    end.

sample(Ring) -> [element(rand:uniform(?PROCS), Ring) || _ <- lists:seq(1, ?SAMPLE)].

flags() -> [call, send, 'receive', procs].

match_spec() ->
    case rand:uniform(4) of
        1 -> true;
        2 -> [{'_', [], [{return_trace}]}];
        3 -> [{['$1', '_'], [{'>', '$1', 500}], [{message, '$1'}]}];
        4 -> [{'_', [], [{exception_trace}, {message, {caller}}]}]
    end.

%% The legacy session: a fresh tracer for a sample of workers.
act(1, Ring, Sessions, _Legacy) ->
    T = new_tracer(),
    [catch erlang:trace(W, true, [{tracer, T} | flags()]) || W <- sample(Ring)],
    {Sessions, T};
%% Kill the legacy tracer while events are on their way to it.
act(2, _Ring, Sessions, Legacy) when is_pid(Legacy) ->
    exit(Legacy, kill),
    {Sessions, none};
%% A session of our own with its tracer, its call pattern and a sample of workers.
act(3, Ring, Sessions, Legacy) when length(Sessions) < 6 ->
    T = new_tracer(),
    S = trace:session_create(fault_chaos, T, []),
    _ = trace:function(S, {?MODULE, work, 2}, match_spec(), [local]),
    [trace:process(S, W, true, flags()) || W <- sample(Ring)],
    {[S | Sessions], Legacy};
%% Destroy one of our sessions.
act(4, _Ring, [S | Sessions], Legacy) ->
    true = trace:session_destroy(S),
    {Sessions, Legacy};
%% A session whose only strong handle is dropped: its creator exits with it.
act(5, Ring, Sessions, Legacy) ->
    Sample = sample(Ring),
    T = new_tracer(),
    {Pid, Ref} = spawn_monitor(fun() ->
                                       S = trace:session_create(fault_dropped, T, []),
                                       _ = trace:function(S, {?MODULE, work, 2}, true, [local]),
                                       [trace:process(S, W, true, flags()) || W <- Sample]
                               end),
    receive {'DOWN', Ref, process, Pid, normal} -> ok end,
    {Sessions, Legacy};
%% The legacy call pattern: on, off, or a match spec; and call_count.
act(6, _Ring, Sessions, Legacy) ->
    erlang:trace_pattern({?MODULE, work, 2}, case rand:uniform(3) of 1 -> false; _ -> match_spec() end, [local]),
    erlang:trace_pattern({?MODULE, work, 2}, rand:uniform(2) =:= 1, [call_count]),
    {Sessions, Legacy};
%% Kill a session's tracer: the session stays, its events are dropped.
act(7, _Ring, [_ | _] = Sessions, Legacy) ->
    [exit(T, kill) || T <- session_tracers()],
    {Sessions, Legacy};
act(_, Ring, Sessions, Legacy) ->
    act(1, Ring, Sessions, Legacy).

%% ---- tracers ----

new_tracer() ->
    T = spawn(fun() -> tracer(0, 0) end),
    fault_tracers ! {add, T},
    T.

session_tracers() ->
    fault_tracers ! {list, self()},
    receive {tracers, Ts} -> lists:sublist(Ts, 2) end.

%% Counts the trace messages it gets and those that are not {trace, Pid, Tag, ...}.
tracer(Seen, Malformed) ->
    receive
        {report, From} -> From ! {report, Seen, Malformed};
        {trace, Pid, Tag, _} when is_pid(Pid), is_atom(Tag) -> tracer(Seen + 1, Malformed);
        {trace, Pid, Tag, _, _} when is_pid(Pid), is_atom(Tag) -> tracer(Seen + 1, Malformed);
        _ -> tracer(Seen, Malformed + 1)
    end.

%% Keeps every tracer ever started; a killed one has reported nothing, which is fine.
tracer_registry(Tracers, _, _) ->
    receive
        {add, T} -> tracer_registry([T | Tracers], 0, 0);
        {list, From} -> From ! {tracers, Tracers}, tracer_registry(Tracers, 0, 0);
        {totals, From} ->
            Totals = [begin
                          T ! {report, self()},
                          receive {report, S, M} -> {S, M} after 1000 -> {0, 0} end
                      end || T <- Tracers, is_process_alive(T)],
            From ! {totals, lists:sum([S || {S, _} <- Totals]), lists:sum([M || {_, M} <- Totals])}
    end.

tracer_totals() ->
    fault_tracers ! {totals, self()},
    receive {totals, S, M} -> {S, M} end.

%% ---- sessions ----

changes(Chaos) ->
    Chaos ! {changes, self()},
    receive {changes, N} -> N end.

wait_changes(Chaos, N) ->
    case changes(Chaos) >= N of
        true -> ok;
        false -> timer:sleep(1), wait_changes(Chaos, N)
    end.

%% Sessions destroyed, and those whose handle was dropped collected: only the sessions that
%% existed before the test are left.
wait_sessions_gone(Baseline, Ms) ->
    Left = length(trace:session_info(all)) - Baseline,
    if
        Left =< 0 -> true;
        Ms =< 0 -> io:format("sessions left: ~p~n", [Left]), false;
        true -> erlang:garbage_collect(), timer:sleep(10), wait_sessions_gone(Baseline, Ms - 10)
    end.
