-module(ev_send).
-export([main/0]).
-import(e2e_trace, [collector/0, events/2, worker/0, run/2, stop_wait/2, norm/2]).

%% `send` tracing (erlang:trace(W, true, [send, {tracer, T}]), T a collector process).
%% Each send by the tracee gives {trace, W, send, Msg, To} where To is the destination exactly
%% as written: a pid, a registered name (the atom, not the pid it resolves to), or
%% {Name, Node} (node() here is nonode@nohost). erlang:send/2 and send/3 (with [] or
%% [noconnect]) are traced like `!`; a message to self is traced as a send to the worker.
%% A send to a dead pid gives {trace, W, send_to_non_existing_process, Msg, DeadPid}.
%% A send to an unregistered atom is still traced as an ordinary `send` to that atom before
%% the badarg is raised; a send to {unregistered, node()} does not fail and is traced as an
%% ordinary `send` (not send_to_non_existing_process). The worker's reply {done, ...} to main
%% is traced as well (shown in the first step, filtered out afterwards). Untraced processes
%% (main, the echo sink) generate no events. trace(W, false, [send]) returns 1 and stops the
%% events; calling it again when send is not set also returns 1.

main() ->
    T = collector(),
    Sink = spawn(fun sink/0),
    true = register(ev_send_sink, Sink),
    Dead = spawn(fun() -> ok end),
    stop_wait(Dead, none),
    W = worker(),
    Names = [{T, tracer}, {Sink, sink}, {Dead, dead}, {W, worker}, {self(), main}],
    io:format("trace send: ~p~n", [erlang:trace(W, true, [send, {tracer, T}])]),
    io:format("flags: ~p~n", [erlang:trace_info(W, flags)]),
    io:format("node() is nonode@nohost: ~p~n", [node() =:= nonode@nohost]),
    step("bang to pid (raw, with the reply to main)", W, T, Names, fun() -> Sink ! a1 end, raw),
    step("erlang:send/2", W, T, Names, fun() -> erlang:send(Sink, a2) end),
    step("erlang:send/3 []", W, T, Names, fun() -> erlang:send(Sink, a3, []) end),
    step("erlang:send/3 [noconnect]", W, T, Names, fun() -> erlang:send(Sink, a4, [noconnect]) end),
    step("registered name", W, T, Names, fun() -> ev_send_sink ! a5 end),
    step("{name, node()}", W, T, Names, fun() -> {ev_send_sink, node()} ! a6 end),
    step("erlang:send/3 {name, node()}", W, T, Names,
         fun() -> erlang:send({ev_send_sink, node()}, a7, []) end),
    step("self", W, T, Names, fun() -> self() ! a8, receive a8 -> got_a8 end end),
    step("dead pid", W, T, Names, fun() -> Dead ! a9 end),
    step("unregistered name", W, T, Names, fun() -> try nosuch_name ! a10 catch C:R -> {C, R} end end),
    step("erlang:send/2 unregistered name", W, T, Names,
         fun() -> try erlang:send(nosuch_name, a11) catch C:R -> {C, R} end end),
    step("{unregistered, node()}", W, T, Names,
         fun() -> try {nosuch_name, node()} ! a12 catch C:R -> {C, R} end end),
    step("echo through an untraced process", W, T, Names,
         fun() -> Sink ! {echo, self(), a13}, receive {echoed, X} -> X end end),
    step("several sends in order", W, T, Names,
         fun() -> Sink ! b1, Sink ! {b2, [x]}, ev_send_sink ! b3, Sink ! <<"b4">>, ok end),
    main_sends(Sink),
    io:format("after main sent (untraced): ~p~n", [norm(events(T, [W]), Names)]),
    io:format("send off: ~p~n", [erlang:trace(W, false, [send])]),
    io:format("flags: ~p~n", [erlang:trace_info(W, flags)]),
    step("after send off", W, T, Names, fun() -> Sink ! c1, Dead ! c2, self() ! c3, ok end, raw),
    io:format("send off again: ~p~n", [erlang:trace(W, false, [send])]),
    io:format("flags: ~p~n", [erlang:trace_info(W, flags)]),
    stop_wait(W, stop),
    stop_wait(Sink, stop),
    io:format("sink name after stop: ~p~n", [whereis(ev_send_sink)]),
    stop_wait(T, stop),
    ok.

main_sends(Sink) -> Sink ! from_main, ev_send_sink ! from_main2, ok.

step(Label, W, T, Names, F) -> step(Label, W, T, Names, F, filtered).

step(Label, W, T, Names, F, Mode) ->
    R = run(W, F),
    Evs = events(T, [W]),
    Main = self(),
    Shown = case Mode of
                raw -> Evs;
                filtered -> [E || E <- Evs, not is_done_reply(E, W, Main)]
            end,
    io:format("~s: ~p~n", [Label, norm(R, Names)]),
    [io:format("  ~p~n", [norm(E, Names)]) || E <- Shown],
    ok.

is_done_reply({trace, W, send, {done, W, _}, Main}, W, Main) -> true;
is_done_reply(_, _, _) -> false.

%% An untraced process: ignores messages, except echo requests and stop.
sink() ->
    receive
        {echo, From, X} -> From ! {echoed, X}, sink();
        stop -> ok;
        _ -> sink()
    end.
