%% tests/e2e/bif/erts_debug_dirty_wait.erl — erts_debug:dirty_cpu/2 and dirty_io/2, OTP's test
%% BIFs that keep a dirty scheduler busy. wait(Ms): the caller is back after Ms with ok;
%% meanwhile its signals are handled (check_process_code answers, as process_SUITE:otp_16436
%% asks) and its status is running (code_SUITE:check_process_code_dirty_exec_proc).
%% reschedule(N) on dirty CPU only (process_SUITE:system_task_failed_enqueue);
%% alive_waitexiting(Pid) tells Pid and stays until killed (bif_SUITE:group_leader_prio_dirty);
%% anything else is badarg.
-module(erts_debug_dirty_wait).
-export([main/0]).

main() ->
    T0 = erlang:monotonic_time(millisecond),
    R = [erts_debug:dirty_io(wait, 50), erts_debug:dirty_cpu(wait, 0)],
    T1 = erlang:monotonic_time(millisecond),
    io:format("~p, waited: ~p~n", [R, T1 - T0 >= 50]),
    io:format("~p~n", [[reason(catch erts_debug:dirty_io(wait, a)), reason(catch erts_debug:dirty_cpu(foo, 1)),
                        reason(catch erts_debug:dirty_io(wait, -1))]]),
    P = spawn_opt(fun() -> erts_debug:dirty_io(wait, 1000) end, [{priority, high}, link]),
    receive after 100 -> ok end,
    io:format("check_process_code meanwhile: ~p~n", [erlang:check_process_code(P, non_existing)]),
    io:format("~p~n", [process_info(P, status)]),
    unlink(P),
    exit(P, kill),
    io:format("~p~n", [is_process_alive(P)]),
    io:format("~p~n", [[in_process(F) || F <- [fun() -> erts_debug:dirty_cpu(reschedule, 100) end,
                                              fun() -> erts_debug:dirty_io(reschedule, 3) end,
                                              fun() -> erts_debug:dirty_cpu(reschedule, 0) end,
                                              fun() -> erts_debug:dirty_cpu(reschedule, -1) end,
                                              fun() -> erts_debug:dirty_cpu(reschedule, a) end,
                                              fun() -> erts_debug:dirty_cpu(alive_waitexiting, a) end,
                                              fun() -> erts_debug:dirty_io(foo, 1) end]]]),
    Self = self(),
    W = spawn(fun() -> erts_debug:dirty_io(alive_waitexiting, Self) end),
    receive {alive, W} -> io:format("alive~n") end,
    io:format("~p~n", [process_info(W, [status, message_queue_len])]),
    W ! hello,
    io:format("~p~n", [process_info(W, [message_queue_len])]),
    M = monitor(process, W),
    exit(W, kill),
    receive {'DOWN', M, _, _, Why} -> io:format("~p~n", [Why]) end,
    ok.

%% F's value (or its error) in a process of its own; timeout if it is not back in 300 ms.
in_process(F) ->
    Self = self(),
    P = spawn(fun() -> Self ! {self(), try F() catch C:E -> {C, E} end} end),
    receive {P, X} -> X after 300 -> exit(P, kill), timeout end.

reason({'EXIT', {R, _}}) -> R;
reason(Other) -> Other.
