-module(demonitor_test).
-export([main/0]).

%% demonitor/1 and demonitor/2 with [flush], [info], [flush, info]: return values, and whether a
%% DOWN message that was already delivered stays in the mailbox.
main() ->
    %% demonitor before the process dies: no DOWN ever arrives.
    P1 = spawn(fun() -> receive go -> exit(x) end end),
    R1 = monitor(process, P1),
    io:format("demonitor/1 live: ~p~n", [demonitor(R1)]),
    P1 ! go,
    wait_dead(P1),
    io:format("DOWN after demonitor: ~p~n", [pending(R1)]),
    %% demonitor/1 after the DOWN was delivered: returns true, the message stays.
    {P2, R2} = dead_monitored(),
    io:format("demonitor/1 after death: ~p~n", [demonitor(R2)]),
    io:format("DOWN still queued: ~p~n", [pending(R2) =:= {down, P2, died}]),
    %% [flush] removes a delivered DOWN.
    {_P3, R3} = dead_monitored(),
    io:format("demonitor [flush]: ~p~n", [demonitor(R3, [flush])]),
    io:format("DOWN after flush: ~p~n", [pending(R3)]),
    %% [info]: true if the monitor was active and removed, false if it was already gone.
    P4 = spawn(fun() -> receive go -> ok end end),
    R4 = monitor(process, P4),
    io:format("demonitor [info] live: ~p~n", [demonitor(R4, [info])]),
    io:format("demonitor [info] again: ~p~n", [demonitor(R4, [info])]),
    P4 ! go,
    wait_dead(P4),
    {_P5, R5} = dead_monitored(),
    io:format("demonitor [info] after DOWN: ~p~n", [demonitor(R5, [info])]),
    io:format("DOWN kept with [info]: ~p~n", [element(1, pending(R5))]),
    {_P6, R6} = dead_monitored(),
    io:format("demonitor [flush, info] after DOWN: ~p~n", [demonitor(R6, [flush, info])]),
    io:format("DOWN after [flush, info]: ~p~n", [pending(R6)]),
    P7 = spawn(fun() -> receive go -> ok end end),
    R7 = monitor(process, P7),
    io:format("demonitor [flush, info] live: ~p~n", [demonitor(R7, [flush, info])]),
    P7 ! go,
    wait_dead(P7),
    io:format("demonitor [] live-then-dead: ~p~n", [demonitor(R7, [])]),
    io:format("demonitor unknown ref: ~p~n", [demonitor(make_ref())]),
    io:format("demonitor [info] unknown ref: ~p~n", [demonitor(make_ref(), [info])]),
    io:format("demonitor non-ref: ~p~n", [try demonitor(list_to_atom("r")) catch C:E -> {C, E} end]),
    io:format("demonitor bad option: ~p~n", [try demonitor(make_ref(), [list_to_atom("bogus")]) catch C2:E2 -> {C2, E2} end]),
    %% Flush only removes the DOWN for its own ref.
    {_P8, R8} = dead_monitored(),
    {P9, R9} = dead_monitored(),
    demonitor(R8, [flush]),
    io:format("other DOWN untouched: ~p~n", [pending(R9) =:= {down, P9, died}]),
    io:format("mailbox: ~p~n", [receive M -> M after 0 -> empty end]),
    ok.

%% A monitored process that has died, with its DOWN message already in our mailbox (we wait for
%% it with a second monitor, whose DOWN is ordered after the first).
dead_monitored() ->
    P = spawn(fun() -> receive go -> exit(died) end end),
    R = monitor(process, P),
    R2 = monitor(process, P),
    P ! go,
    receive {'DOWN', R2, process, P, _} -> ok end,
    {P, R}.

pending(R) ->
    receive {'DOWN', R, process, P, W} -> {down, P, W} after 0 -> none end.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
