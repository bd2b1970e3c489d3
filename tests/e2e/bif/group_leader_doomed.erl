%% group_leader(GL, Pid) reaches Pid in signal order: after an exit signal that kills it,
%% the change finds it gone and raises badarg; a process that traps exits takes it
%% (bif_SUITE:group_leader_prio, where the caller is a max-priority process and the doomed
%% one a normal process on schedulers kept busy by high ones: the exit is handled at once, as
%% erts elevates the receiver of a more urgent process's signal).
-module(group_leader_doomed).
-export([main/0]).

main() ->
    GL = group_leader(),
    Init = whereis(init),
    Doomed = spawn(fun() -> receive _ -> ok end end),
    M = monitor(process, Doomed),
    exit(Doomed, bang),
    io:format("after exit(P, bang): ~p~n", [try group_leader(Init, Doomed) catch error:R -> R end]),
    receive {'DOWN', M, process, Doomed, Why} -> io:format("down: ~p~n", [Why]) end,
    Self = self(),
    Trapper = spawn(fun() -> process_flag(trap_exit, true), Self ! ready, receive stop -> ok end end),
    receive ready -> ok end,
    exit(Trapper, bang),
    io:format("trapping: ~p~n", [group_leader(Init, Trapper)]),
    io:format("leader now init: ~p~n", [process_info(Trapper, group_leader) =:= {group_leader, Init}]),
    true = group_leader(GL, Trapper),
    Killed = spawn(fun() -> process_flag(trap_exit, true), receive _ -> ok end end),
    exit(Killed, kill),
    io:format("after kill: ~p~n", [try group_leader(Init, Killed) catch error:R2 -> R2 end]),
    Trapper ! stop,
    io:format("dead: ~p~n", [try group_leader(Init, Doomed) catch error:R3 -> R3 end]),
    ok.

