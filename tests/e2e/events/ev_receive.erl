-module(ev_receive).
-export([main/0]).
-import(e2e_trace, [collector/0, events/2, stop_wait/2, norm/2]).

%% `'receive'` tracing. {trace, W, 'receive', Msg} is generated when a message arrives in the
%% tracee's queue, even if no receive ever matches it (a process waiting in a selective receive
%% for `go` still reports m1, m2, {m,3}), in arrival order (one sender). 'EXIT' messages (from a
%% linked process dying while trap_exit is true, and from exit/2) and 'DOWN' messages from
%% monitors (also the immediate noproc one) are traced like any message; an untrappable kill
%% produces no 'receive' event. A `receive ... after` that expires gives
%% {trace, W, 'receive', timeout} on OTP 25, also for `after 0` (with or without clauses) and
%% for timer:sleep/1; no timeout event when a message matches (also with after 0 or after a
%% variable infinity). Messages a process sends to itself are traced when received.

main() ->
    timer:sleep(1), % load module timer now: loading it later would send the tracee messages
    T = collector(),
    Main = self(),
    %% A process waiting in a selective receive for something else.
    W = spawn(fun() -> waiter(Main) end),
    Names0 = [{T, tracer}, {W, waiter}, {Main, main}],
    io:format("trace receive: ~p~n", [erlang:trace(W, true, ['receive', {tracer, T}])]),
    io:format("flags: ~p~n", [erlang:trace_info(W, flags)]),
    W ! m1, W ! m2, W ! {m, 3},
    show("unmatched messages", T, [W], Names0),
    io:format("still queued: ~p~n", [process_info(W, messages)]),
    W ! go,
    receive {gone, W, Q} -> io:format("after go, queue: ~p~n", [Q]) end,
    show("go", T, [W], Names0),
    stop_wait(W, stop),
    show("stop", T, [W], Names0),
    %% Timeouts, exits, monitors, self-sends.
    P = spawn(fun cmd_loop/0),
    Names = [{T, tracer}, {P, proc}, {Main, main}],
    io:format("trace receive: ~p~n", [erlang:trace(P, true, ['receive', {tracer, T}])]),
    cmd("after 10 expires", P, T, Names, after10),
    cmd("after 0 expires", P, T, Names, after0),
    cmd("receive after 0 (no clauses)", P, T, Names, after0_empty),
    P ! {after1000_hit, Main},
    receive {r, P, waiting} -> P ! hit end,
    receive {r, P, Hit} -> io:format("after 1000, message arrives: ~p~n", [Hit]) end,
    show("  events", T, [P], Names),
    cmd("after 0, message already there", P, T, Names, after0_hit),
    cmd("after infinity (variable), message there", P, T, Names, infinity_hit),
    cmd("timer:sleep(5)", P, T, Names, sleep),
    cmd("send to self", P, T, Names, self_send),
    cmd("linked child exits boom (trap_exit)", P, T, Names, link_boom),
    cmd("linked child exits normal (trap_exit)", P, T, Names, link_normal),
    cmd("monitor, child exits normal", P, T, Names, monitor_normal),
    cmd("monitor a dead pid", P, T, Names, monitor_dead),
    P ! {exit_me, Main},
    receive {ready, P} -> ok end,
    exit(P, from_main),
    receive {r, P, R} -> io:format("exit(proc, from_main): ~p~n", [norm(R, Names)]) end,
    show("  events", T, [P], Names),
    P ! {wait_kill, Main},
    receive {ready, P} -> ok end,
    stop_wait(P, kill),
    show("killed while trapping exits", T, [P], Names),
    stop_wait(T, stop),
    ok.

waiter(Main) ->
    receive go -> ok end,
    {messages, Q} = process_info(self(), messages),
    Main ! {gone, self(), Q},
    receive stop -> ok end.

cmd(Label, P, T, Names, Cmd) ->
    P ! {Cmd, self()},
    receive {r, P, R} -> ok end,
    io:format("~s: ~p~n", [Label, norm(R, Names)]),
    show("  events", T, [P], Names).

cmd_loop() ->
    receive
        {Cmd, From} when Cmd =/= wait_kill ->
            From ! {r, self(), do(Cmd, From)}, cmd_loop();
        {wait_kill, From} ->
            process_flag(trap_exit, true),
            From ! {ready, self()},
            receive never -> ok end;
        stop -> ok
    end.

do(after10, _) -> receive x -> x after 10 -> timed_out end;
do(after0, _) -> receive x -> x after 0 -> timed_out end;
do(after0_empty, _) -> receive after 0 -> timed_out end;
do(after1000_hit, From) ->
    From ! {r, self(), waiting},
    receive hit -> hit after 1000 -> timed_out end;
do(after0_hit, _) -> self() ! y, receive y -> y after 0 -> timed_out end;
do(infinity_hit, _) -> self() ! z, I = infinity, receive z -> z after I -> timed_out end;
do(sleep, _) -> timer:sleep(5), slept;
do(self_send, _) -> self() ! s1, erlang:send(self(), s2), receive s2 -> ok end, receive s1 -> ok end, both;
do(link_boom, _) ->
    process_flag(trap_exit, true),
    C = spawn_link(fun() -> exit(boom) end),
    receive {'EXIT', C, Why} -> process_flag(trap_exit, false), {exit, Why} end;
do(link_normal, _) ->
    process_flag(trap_exit, true),
    C = spawn_link(fun() -> ok end),
    receive {'EXIT', C, Why} -> process_flag(trap_exit, false), {exit, Why} end;
do(monitor_normal, _) ->
    {C, Ref} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', Ref, process, C, Why} -> {down, Why} end;
do(monitor_dead, _) ->
    %% The child waits for go: monitored before it ends, its first DOWN says normal.
    C = spawn(fun() -> receive go -> ok end end),
    Ref0 = monitor(process, C),
    C ! go,
    receive {'DOWN', Ref0, process, C, _} -> ok end,
    Ref = monitor(process, C),
    receive {'DOWN', Ref, process, C, Why} -> {down, Why} end;
do(exit_me, From) ->
    process_flag(trap_exit, true),
    From ! {ready, self()},
    receive {'EXIT', From, Why} -> process_flag(trap_exit, false), {exit, Why} end.

show(Label, T, Ps, Names) ->
    io:format("~s:~n", [Label]),
    [io:format("    ~p~n", [norm(E, Names)]) || E <- events(T, Ps)],
    ok.
