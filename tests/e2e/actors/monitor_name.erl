-module(monitor_name).
-export([main/0]).

%% Monitoring a registered name: monitor(process, Name) and monitor(process, {Name, node()}).
%% The DOWN message names the monitored item as {Name, Node}, not the pid.
main() ->
    P1 = spawn(fun() -> receive go -> exit(named_exit) end end),
    register(mn_one, P1),
    R1 = monitor(process, mn_one),
    P1 ! go,
    receive
        {'DOWN', R1, process, Item1, Why1} ->
            io:format("by name: item ~p, reason ~p~n", [show(Item1), Why1])
    end,
    P2 = spawn(fun() -> receive go -> ok end end),
    register(mn_two, P2),
    R2 = monitor(process, {mn_two, node()}),
    mn_two ! go,
    receive
        {'DOWN', R2, process, Item2, Why2} ->
            io:format("by {name, node()}: item ~p, reason ~p~n", [show(Item2), Why2])
    end,
    R3 = monitor(process, mn_nobody),
    receive
        {'DOWN', R3, process, Item3, Why3} ->
            io:format("unregistered name: item ~p, reason ~p~n", [show(Item3), Why3])
    end,
    R4 = monitor(process, {mn_nobody, node()}),
    receive
        {'DOWN', R4, process, Item4, Why4} ->
            io:format("unregistered {name, node()}: item ~p, reason ~p~n", [show(Item4), Why4])
    end,
    %% The monitor follows the process, not the name: unregistering does not trigger DOWN, and the
    %% DOWN still carries the name used when monitoring.
    P5 = spawn(fun() -> receive go -> exit(after_unregister) end end),
    register(mn_five, P5),
    R5 = monitor(process, mn_five),
    unregister(mn_five),
    io:format("DOWN on unregister: ~p~n", [receive {'DOWN', R5, _, _, _} -> yes after 50 -> no end]),
    register(mn_five_new, P5),
    P5 ! go,
    receive
        {'DOWN', R5, process, Item5, Why5} ->
            io:format("after rename: item ~p, reason ~p~n", [show(Item5), Why5])
    end,
    %% demonitor works with name monitors too.
    P6 = spawn(fun() -> receive go -> ok end end),
    register(mn_six, P6),
    R6 = monitor(process, mn_six),
    io:format("demonitor name monitor: ~p~n", [demonitor(R6, [info])]),
    P6 ! go,
    wait_dead(P6),
    io:format("no DOWN after demonitor: ~p~n", [receive {'DOWN', R6, _, _, _} -> yes after 0 -> no end]),
    io:format("node() is an atom: ~p~n", [is_atom(node())]),
    ok.

show({Name, Node}) when Node =:= node() -> {Name, 'node()'};
show(P) when is_pid(P) -> pid;
show(Other) -> {other, Other}.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
