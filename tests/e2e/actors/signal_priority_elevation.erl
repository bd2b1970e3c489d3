%% A signal from a more urgent process is handled at the sender's priority (erts's
%% no-priority-inversion, bif_SUITE:group_leader_prio): a max process changes the group leader
%% of normal processes, asks them for process_info and kills them while high processes keep
%% every scheduler busy. Without the elevation the normal processes never run and this hangs.
-module(signal_priority_elevation).
-export([main/0]).

main() ->
    Tester = self(),
    Init = whereis(init),
    GL = group_leader(),
    process_flag(priority, max),
    TPs = [spawn_opt(fun() -> Tester ! {alive, self()}, receive after infinity -> ok end end,
                     [link, {priority, normal}])
           || _ <- lists:seq(1, 10)],
    [receive {alive, TP} -> ok end || TP <- TPs],
    Hogs = [spawn_opt(fun hog/0, [link, {priority, high}])
            || _ <- lists:seq(1, 2 * erlang:system_info(schedulers))],
    receive after 200 -> ok end,
    Changes = [begin
                   erlang:yield(),
                   erlang:demonitor(erlang:monitor(process, TP)),
                   true = group_leader(Init, TP),
                   {group_leader, Init} = process_info(TP, group_leader),
                   true = group_leader(GL, TP),
                   process_info(TP, group_leader) =:= {group_leader, GL}
               end || TP <- TPs],
    Exits = [begin
                 M = monitor(process, TP),
                 unlink(TP),
                 exit(TP, bang),
                 R = try group_leader(Init, TP) catch error:E -> E end,
                 receive {'DOWN', M, process, TP, Why} -> {R, Why} end
             end || TP <- TPs],
    [begin unlink(H), exit(H, kill) end || H <- Hogs],
    process_flag(priority, normal),
    io:format("~p~n~p~n", [lists:usort(Changes), lists:usort(Exits)]).

hog() -> hog().
