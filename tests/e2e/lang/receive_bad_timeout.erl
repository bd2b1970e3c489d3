%% A receive whose after-value is not a timeout raises timeout_value and ends the receive: the
%% next receive looks at every message again, the ones the failed receive skipped too
%% (OTP's receive_SUITE:gh_5235_missing_save_reset and gh_5235_recv_mark).
-module(receive_bad_timeout).
-export([main/0]).

main() ->
    id(self()) ! init,
    R1 = try receive blipp -> ok after blupp -> ok end catch C1:E1 -> {C1, E1} end,
    io:format("literal: ~p~n", [R1]),
    receive init -> io:format("init received~n") after 1000 -> io:format("init lost~n") end,
    id(self()) ! init2,
    R2 = try receive blapp -> ok after id(-5) -> ok end catch C2:E2 -> {C2, E2} end,
    io:format("negative: ~p~n", [R2]),
    Ref = make_ref(),
    id(self()) ! Ref,
    receive init2 -> io:format("init2 received~n") after 1000 -> io:format("init2 lost~n") end,
    receive Ref -> io:format("ref received~n") after 1000 -> io:format("ref lost~n") end,
    %% demonitor(Ref, [flush]) of a monitor that fired still drops its 'DOWN'.
    Pid = spawn(fun() -> ok end),
    MRef = monitor(process, Pid),
    [self() ! {filler, N} || N <- lists:seq(1, 1000)],
    timer:sleep(50),
    io:format("flush: ~p~n", [demonitor(MRef, [flush, info])]),
    io:format("down left: ~p~n", [receive {'DOWN', MRef, _, _, _} -> yes after 0 -> no end]),
    io:format("queue: ~p~n", [element(2, process_info(self(), message_queue_len))]).

id(X) -> X.
