%% tests/fault/fault_many_procs.erl — 100,000 processes alive at once. Every one is spawned
%% with a monitor, answers one ping and exits; a tracer counts their spawn and exit events.
%% Checks: each one alive and counted (the count within the system's own churn of
%% Base + N + 1), every pong, every 'DOWN' with reason pong, the tracer's spawn and exit
%% counts, and the count back where it was at the end.
-module(fault_many_procs).
-export([main/0]).

-define(N, 100000).

main() ->
    Base = erlang:system_info(process_count),
    Self = self(),
    Tracer = spawn(fun() -> tracer(0, 0) end),
    1 = erlang:trace(Self, true, [procs, set_on_spawn, {tracer, Tracer}]),
    Pids = [spawn_monitor(fun() -> receive ping -> exit(pong) end end) || _ <- lists:seq(1, ?N)],
    1 = erlang:trace(Self, false, [procs, set_on_spawn]),
    %% Every one alive, and counted: the count may differ from Base + N + 1 by the system's own
    %% processes that started or ended meanwhile (a boot helper, a code loader), never by ours.
    check(all_alive, lists:all(fun({P, _}) -> is_process_alive(P) end, Pids)),
    Count = erlang:system_info(process_count),
    check(counted, Count >= ?N + 1 andalso abs(Count - (Base + ?N + 1)) =< 2),
    check(processes_lists_them, abs(length(erlang:processes()) - Count) =< 2),
    [P ! ping || {P, _} <- Pids],
    %% Each answers by exiting with reason pong.
    check(every_pong, collect_downs(?N, 0) =:= ?N),
    wait_count(Base + 1, 5000),  % the tracer is still alive
    check(count_back, erlang:system_info(process_count) =:= Base + 1),
    Tracer ! {totals, self()},
    {Spawns, Exits} = receive {totals, S, E} -> {S, E} end,
    io:format("spawn events ~p, exit events ~p~n", [Spawns, Exits]),
    check(traced_spawns, Spawns =:= ?N),
    check(traced_exits, Exits =:= ?N),
    io:format("all ok~n").

collect_downs(0, N) -> N;
collect_downs(Left, N) -> receive {'DOWN', _, process, _, pong} -> collect_downs(Left - 1, N + 1) after 60000 -> N end.

wait_count(Want, Ms) ->
    case erlang:system_info(process_count) =< Want orelse Ms =< 0 of
        true -> ok;
        false -> timer:sleep(10), wait_count(Want, Ms - 10)
    end.

tracer(Spawns, Exits) ->
    receive
        {trace, _, spawn, _, _} -> tracer(Spawns + 1, Exits);
        {trace, _, exit, _} -> tracer(Spawns, Exits + 1);
        {totals, From} -> From ! {totals, Spawns, Exits};
        _ -> tracer(Spawns, Exits)
    end.

check(Name, true) -> io:format("~p: ok~n", [Name]);
check(Name, false) -> io:format("~p: FAILED~n", [Name]), halt(1).
