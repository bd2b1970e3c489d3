%% erlang:statistics/1's items other than time: reductions and exact_reductions ({Total,
%% SinceLastCall}, totals growing as processes run), the run queue lengths and active tasks
%% (one entry per scheduler, then the dirty queues; the caller counts as active), and
%% garbage_collection ({Collections, WordsReclaimed, 0}); badarg for an unknown item.
-module(statistics_items).
-export([main/0]).

main() ->
    Scheds = erlang:system_info(schedulers_online),
    {R0, _} = statistics(reductions),
    burn(20000),
    {R1, D1} = statistics(reductions),
    io:format("reductions grew: ~p, since last call consistent: ~p~n", [R1 > R0 + 20000, R1 =:= R0 + D1]),
    {E0, _} = statistics(exact_reductions),
    burn(20000),
    {E1, ED} = statistics(exact_reductions),
    io:format("exact_reductions grew: ~p, since last call consistent: ~p~n", [E1 > E0 + 20000, E1 =:= E0 + ED]),
    Lengths = statistics(run_queue_lengths),
    LengthsAll = statistics(run_queue_lengths_all),
    io:format("run queues: ~p, all: ~p~n", [length(Lengths) =:= Scheds + 1, length(LengthsAll) =:= Scheds + 2]),
    Active = statistics(active_tasks),
    ActiveAll = statistics(active_tasks_all),
    io:format("active tasks: ~p, all: ~p, the caller among them: ~p~n",
              [length(Active) =:= Scheds + 1, length(ActiveAll) =:= Scheds + 2,
               statistics(total_active_tasks) >= 1 andalso statistics(total_active_tasks_all) >= 1]),
    io:format("totals are integers: ~p~n",
              [lists:all(fun is_integer/1, [statistics(run_queue), statistics(total_run_queue_lengths),
                                            statistics(total_run_queue_lengths_all)])]),
    %% Runnable processes wait in the queues while this one runs at max priority.
    process_flag(priority, max),
    Spinners = [spawn(fun spin/0) || _ <- lists:seq(1, 4 * Scheds)],
    burn(1000),
    Queued = statistics(total_run_queue_lengths),
    [exit(S, kill) || S <- Spinners],
    process_flag(priority, normal),
    io:format("runnable processes queued: ~p~n", [Queued >= 2 * Scheds]),
    {Gcs0, Words0, 0} = statistics(garbage_collection),
    garbage(100),
    erlang:garbage_collect(),
    {Gcs1, Words1, 0} = statistics(garbage_collection),
    io:format("collections counted: ~p, words reclaimed: ~p~n", [Gcs1 > Gcs0, Words1 > Words0]),
    io:format("bad item: ~p~n", [try statistics(no_such_item) catch error:R -> R end]).

burn(0) -> ok;
burn(N) -> burn(N - 1).

spin() -> spin().

garbage(0) -> ok;
garbage(N) ->
    _ = lists:seq(1, 1000),
    garbage(N - 1).
