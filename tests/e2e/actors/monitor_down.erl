-module(monitor_down).
-export([main/0]).

%% monitor(process, Pid): {'DOWN', Ref, process, Pid, Reason} for normal and custom exits, noproc
%% for a dead pid, several monitors on one process, monitors are one-way and not affected by
%% trap_exit, and the monitoring process is not killed by the monitored one.
main() ->
    quiet_logger(),
    Self = self(),
    P1 = spawn(fun() -> receive go -> ok end end),
    R1 = monitor(process, P1),
    io:format("monitor returns a ref: ~p~n", [is_reference(R1)]),
    P1 ! go,
    receive
        {'DOWN', R1a, process, P1a, Why1} = D1 ->
            io:format("normal: tuple size ~p, ref ok ~p, pid ok ~p, reason ~p~n",
                      [tuple_size(D1), R1a =:= R1, P1a =:= P1, Why1])
    end,
    io:format("custom: ~p~n", [down(fun() -> exit({custom, [reason]}) end)]),
    io:format("killed: ~p~n", [down_killed()]),
    {Err, Stack} = down(fun() -> erlang:error(oops) end),
    io:format("error: {~p, Stack} (stack is a list: ~p)~n", [Err, is_list(Stack)]),
    Dead = spawn(fun() -> ok end),
    wait_dead(Dead),
    R2 = monitor(process, Dead),
    receive
        {'DOWN', R2, process, Pd, noproc} -> io:format("dead pid: noproc, pid ok ~p~n", [Pd =:= Dead])
    end,
    %% Three monitors on one process: three DOWN messages, each with its own ref.
    P3 = spawn(fun() -> receive go -> exit(triple) end end),
    Refs = [monitor(process, P3) || _ <- [1, 2, 3]],
    io:format("distinct refs: ~p~n", [length(lists:usort(Refs)) =:= 3]),
    P3 ! go,
    io:format("three DOWNs: ~p~n", [[receive {'DOWN', R, process, P3, W} -> W end || R <- Refs]]),
    %% The monitored process crashing does not kill the (non-trapping) monitoring process.
    {M, RefM} = spawn_monitor(fun() ->
                                      process_flag(trap_exit, false),
                                      {_, Rc} = spawn_monitor(fun() -> exit(crash) end),
                                      receive {'DOWN', Rc, process, _, Wc} -> Self ! {watcher_saw, Wc} end
                              end),
    io:format("watcher saw: ~p~n", [receive {watcher_saw, Ws} -> Ws end]),
    io:format("watcher: ~p~n", [receive {'DOWN', RefM, process, M, Wm} -> Wm end]),
    %% Monitors are one-way: the monitored process is not told when the monitoring one dies.
    Target = spawn(fun() -> process_flag(trap_exit, true), receive X -> Self ! {target_got, X} end end),
    {Mon, RefMon} = spawn_monitor(fun() -> monitor(process, Target), Self ! monitoring, exit(bye) end),
    receive monitoring -> ok end,
    receive {'DOWN', RefMon, process, Mon, _} -> ok end,
    Target ! ping,
    io:format("target got: ~p~n", [receive {target_got, T} -> T end]),
    wait_dead(Target),
    %% The DOWN message is ordered after messages the process sent before dying.
    {P4, R4} = spawn_monitor(fun() -> [Self ! {msg, N} || N <- [1, 2, 3]], exit(last) end),
    Msgs = [receive X -> X end || _ <- [1, 2, 3, 4]],
    io:format("order: ~p~n", [[case Ms of {'DOWN', R4, process, P4, W4} -> {'DOWN', W4}; _ -> Ms end || Ms <- Msgs]]),
    io:format("bad monitor type: ~p~n", [try monitor(list_to_atom("proc"), self()) catch C:E -> {C, E} end]),
    io:format("bad monitor target: ~p~n", [try monitor(process, list_to_tuple([1, 2, 3])) catch C2:E2 -> {C2, E2} end]),
    ok.

down(F) ->
    {P, R} = spawn_monitor(F),
    receive {'DOWN', R, process, P, W} -> W end.

down_killed() ->
    P = spawn(fun() -> receive never -> ok end end),
    R = monitor(process, P),
    exit(P, kill),
    receive {'DOWN', R, process, P, W} -> W end.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.

%% erl's logger writes a crash report for every uncaught error/throw in a process to *stdout*
%% (asynchronously, with a timestamp and pids), which would make the expected output
%% nondeterministic; switch it off. beamlet has no logger module: the call raises undef, ignored.
quiet_logger() ->
    try logger:set_primary_config(level, none) catch error:undef -> ok end.
