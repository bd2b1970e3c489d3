-module(exit_signals).
-export([main/0]).

%% exit/2: normal is ignored by a non-trapping process, kill gives 'killed', custom reasons kill a
%% non-trapping process and arrive as {'EXIT', From, Reason} at a trapping one; exit/2 to self.
main() ->
    Self = self(),
    io:format("exit(P, normal), not trapping: ~p~n", [signal(false, normal)]),
    io:format("exit(P, kill), not trapping: ~p~n", [signal(false, kill)]),
    io:format("exit(P, custom), not trapping: ~p~n", [signal(false, {custom, 1})]),
    io:format("exit(P, shutdown), not trapping: ~p~n", [signal(false, shutdown)]),
    io:format("exit(P, normal), trapping: ~p~n", [signal(true, normal)]),
    io:format("exit(P, kill), trapping: ~p~n", [signal(true, kill)]),
    io:format("exit(P, custom), trapping: ~p~n", [signal(true, {custom, 2})]),
    io:format("exit(P, killed), trapping: ~p~n", [signal(true, killed)]),
    io:format("exit(P, killed), not trapping: ~p~n", [signal(false, killed)]),
    io:format("exit(self(), normal), not trapping: ~p~n", [self_signal(false, normal)]),
    io:format("exit(self(), custom), not trapping: ~p~n", [self_signal(false, custom_self)]),
    io:format("exit(self(), kill), not trapping: ~p~n", [self_signal(false, kill)]),
    io:format("exit(self(), normal), trapping: ~p~n", [self_signal(true, normal)]),
    io:format("exit(self(), custom), trapping: ~p~n", [self_signal(true, custom_self)]),
    io:format("exit(self(), kill), trapping: ~p~n", [self_signal(true, kill)]),
    Dead = spawn(fun() -> ok end),
    wait_dead(Dead),
    io:format("exit/2 to a dead pid returns: ~p~n", [exit(Dead, kill)]),
    io:format("exit/2 with a bad pid: ~p~n", [try exit(list_to_atom("nopid"), kill) catch C:R -> {C, R} end]),
    io:format("main still alive: ~p~n", [is_process_alive(Self)]),
    ok.

%% Spawn a target that (maybe) traps exits and waits; send it an exit signal from main; report
%% whether it died (and why) or what message it received.
signal(Trap, Reason) ->
    Self = self(),
    {P, Ref} = spawn_monitor(fun() ->
                                     process_flag(trap_exit, Trap),
                                     Self ! {ready, self()},
                                     receive
                                         {'EXIT', From, R} -> exit({got_exit_msg, From =:= Self, R});
                                         stop -> exit(stopped)
                                     end
                             end),
    receive {ready, P} -> ok end,
    true = exit(P, Reason),
    P ! stop,
    receive {'DOWN', Ref, process, P, Why} -> Why end.

self_signal(Trap, Reason) ->
    {P, Ref} = spawn_monitor(fun() ->
                                     process_flag(trap_exit, Trap),
                                     exit(self(), Reason),
                                     receive
                                         {'EXIT', From, R} -> exit({got_exit_msg, From =:= self(), R})
                                     after 100 -> exit(survived)
                                     end
                             end),
    receive {'DOWN', Ref, process, P, Why} -> Why end.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
