-module(unlink_test).
-export([main/0]).

%% unlink/1: after unlinking, a crash no longer propagates; unlink is idempotent and works for
%% dead or never-linked pids; with trap_exit an already-queued 'EXIT' is not removed by unlink.
main() ->
    Self = self(),
    {A, RefA} = spawn_monitor(fun() ->
                                      B = spawn_link(fun() -> receive go -> exit(crash) end end),
                                      {links, L1} = process_info(self(), links),
                                      Self ! {linked, L1 =:= [B]},
                                      Self ! {unlink, unlink(B)},
                                      {links, L2} = process_info(self(), links),
                                      Self ! {links_after, L2},
                                      {links, LB} = process_info(B, links),
                                      Self ! {b_links_after, LB},
                                      Mb = monitor(process, B),
                                      B ! go,
                                      receive {'DOWN', Mb, process, B, Wb} -> Self ! {b_died, Wb} end,
                                      Self ! {a_alive, is_process_alive(self())},
                                      Self ! {unlink_again, unlink(B)},
                                      Self ! {unlink_never_linked, unlink(Self)},
                                      receive stop -> exit(a_stopped) end
                              end),
    [io:format("~p~n", [receive {K, _} = M -> M end]) || K <- [linked, unlink, links_after, b_links_after,
                                                              b_died, a_alive, unlink_again, unlink_never_linked]],
    A ! stop,
    io:format("A: ~p~n", [receive {'DOWN', RefA, process, A, W} -> W end]),
    %% Trapping: the child has already exited; the 'EXIT' message stays in the queue after unlink.
    {C, RefC} = spawn_monitor(fun() ->
                                      process_flag(trap_exit, true),
                                      D = spawn_link(fun() -> receive go -> exit(d_gone) end end),
                                      Md = monitor(process, D),
                                      D ! go,
                                      %% The 'EXIT' is ordered before the DOWN (same sender).
                                      receive {'DOWN', Md, process, D, _} -> ok end,
                                      unlink(D),
                                      Self ! {queued_exit, receive {'EXIT', D, R} -> R after 0 -> none end}
                              end),
    io:format("~p~n", [receive {queued_exit, _} = Q -> Q end]),
    receive {'DOWN', RefC, process, C, _} -> ok end,
    %% unlink from the other side: the child unlinks itself from the parent before crashing.
    {E, RefE} = spawn_monitor(fun() ->
                                      Me = self(),
                                      %% (F waits for go: it must not end before the monitor.)
                                      F = spawn_link(fun() -> unlink(Me), Me ! unlinked,
                                                              receive go -> exit(f_crash) end end),
                                      Mf = monitor(process, F),
                                      receive unlinked -> ok end,
                                      F ! go,
                                      receive {'DOWN', Mf, process, F, Wf} -> Self ! {f_died, Wf} end,
                                      Self ! {e_survived, true}
                              end),
    io:format("~p~n", [receive {f_died, _} = Fd -> Fd end]),
    io:format("~p~n", [receive {e_survived, _} = Es -> Es end]),
    io:format("E: ~p~n", [receive {'DOWN', RefE, process, E, We} -> We end]),
    ok.
