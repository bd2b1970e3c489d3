%% tests/e2e/actors/demonitor_flush_linked.erl — demonitor(Ref, [flush]) drops the 'DOWN' of a
%% linked child even when the child's exit signal came first (a trapping parent, as OTP's
%% file_io_server starter and gen's callers are): no stray 'DOWN' is left in the mailbox,
%% whichever scheduler the child exits on.
-module(demonitor_flush_linked).
-export([main/0]).

main() ->
    process_flag(trap_exit, true),
    Stray = lists:sum([round() || _ <- lists:seq(1, 2000)]),
    io:format("stray DOWN messages: ~p~n", [Stray]),
    io:format("demonitor info after exit: ~p~n", [info_after_exit()]).

round() ->
    Self = self(),
    Tag = make_ref(),
    Pid = spawn_link(fun() -> Self ! {Tag, done}, exit(enoent) end),
    Mref = monitor(process, Pid),
    receive {Tag, done} -> ok end,
    true = demonitor(Mref, [flush]),
    receive {'EXIT', Pid, enoent} -> ok end,
    receive {'DOWN', Mref, _, _, _} -> 1 after 0 -> 0 end.

%% [flush, info]: false when the monitor had fired (its 'DOWN' flushed).
info_after_exit() ->
    Pid = spawn_link(fun() -> exit(enoent) end),
    Mref = monitor(process, Pid),
    receive {'EXIT', Pid, enoent} -> ok end,
    timer:sleep(10),
    {demonitor(Mref, [flush, info]), receive {'DOWN', Mref, _, _, _} -> left after 0 -> none end}.
