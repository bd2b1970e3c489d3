-module(kill_signal).
-export([main/0]).

%% 'kill' cannot be trapped: the target dies with reason 'killed'. 'killed' then propagates along
%% links as an ordinary (trappable) reason: a trapping partner gets {'EXIT', P, killed}, a
%% non-trapping partner dies with 'killed'. exit(kill) (exit/1) is an ordinary reason.
main() ->
    Self = self(),
    %% Victim traps exits, but kill still kills it.
    {V, RefV} = spawn_monitor(fun() ->
                                      process_flag(trap_exit, true),
                                      Self ! ready,
                                      receive Any -> exit({survived_with, Any}) end
                              end),
    receive ready -> ok end,
    exit(V, kill),
    io:format("trapping victim of kill: ~p~n", [receive {'DOWN', RefV, process, V, W1} -> W1 end]),
    %% Chain: Watcher (trapping) <-link-> Middle <-link-> Leaf (not trapping). Kill Middle.
    {W, RefW} = spawn_monitor(fun() -> watcher(Self) end),
    {Middle, Leaf} = receive {chain, M, L} -> {M, L} end,
    RefM = monitor(process, Middle),
    RefL = monitor(process, Leaf),
    exit(Middle, kill),
    io:format("middle: ~p~n", [receive {'DOWN', RefM, process, Middle, W2} -> W2 end]),
    io:format("leaf (linked, not trapping): ~p~n", [receive {'DOWN', RefL, process, Leaf, W3} -> W3 end]),
    io:format("watcher got: ~p~n", [receive {watcher_got, G} -> G end]),
    io:format("watcher: ~p~n", [receive {'DOWN', RefW, process, W, W4} -> W4 end]),
    %% A process that calls exit(kill) itself dies with the ordinary reason 'kill' (not 'killed'),
    %% and that is what links and monitors see.
    {X, RefX} = spawn_monitor(fun() ->
                                      process_flag(trap_exit, true),
                                      Y = spawn_link(fun() -> exit(kill) end),
                                      Self ! {y_exit, receive {'EXIT', Y, Ry} -> Ry end}
                              end),
    io:format("trapping partner of exit(kill) gets: ~p~n", [receive {y_exit, Ry} -> Ry end]),
    receive {'DOWN', RefX, process, X, _} -> ok end,
    {Z, RefZ} = spawn_monitor(fun() -> exit(kill) end),
    io:format("monitor of exit(kill): ~p~n", [receive {'DOWN', RefZ, process, Z, W5} -> W5 end]),
    %% ...and a non-trapping linked partner dies with reason 'kill' too.
    {Q, RefQ} = spawn_monitor(fun() ->
                                      spawn_link(fun() -> exit(kill) end),
                                      receive never -> ok end
                              end),
    io:format("non-trapping partner of exit(kill): ~p~n", [receive {'DOWN', RefQ, process, Q, W6} -> W6 end]),
    ok.

watcher(Main) ->
    process_flag(trap_exit, true),
    Me = self(),
    Middle = spawn_link(fun() ->
                                Leaf = spawn_link(fun() -> receive never -> ok end end),
                                Me ! {leaf, Leaf},
                                receive never -> ok end
                        end),
    Leaf = receive {leaf, L} -> L end,
    Main ! {chain, Middle, Leaf},
    receive {'EXIT', Middle, Why} -> Main ! {watcher_got, Why} end,
    exit(watcher_done).
