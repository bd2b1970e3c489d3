-module(ev_send).
-export([main/0]).

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
    T = spawn(fun() -> collector([]) end),
    Sink = spawn(fun sink/0),
    true = register(ev_send_sink, Sink),
    Dead = spawn(fun() -> ok end),
    stop_wait(Dead, none),
    W = spawn(fun worker_loop/0),
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

%% ---- helpers
collector(Acc) ->
    receive
        {give, From} -> From ! {msgs, self(), lists:reverse(Acc)}, collector([]);
        stop -> ok;
        M -> collector([M | Acc])
    end.

%% The trace messages tracer T holds, once those generated so far by each of Ps are delivered.
events(T, Ps) ->
    [begin Ref = erlang:trace_delivered(P), receive {trace_delivered, P, Ref} -> ok end end
     || P <- Ps],
    T ! {give, self()},
    receive {msgs, T, Msgs} -> Msgs end.

worker_loop() ->
    receive
        {run, F, From} -> R = F(), From ! {done, self(), R}, worker_loop();
        stop -> ok
    end.

run(W, F) ->
    W ! {run, F, self()},
    receive {done, W, R} -> R end.

norm(P, Names) when is_pid(P) ->
    case lists:keyfind(P, 1, Names) of {P, N} -> N; false -> other_pid end;
norm(R, _) when is_reference(R) -> ref;
norm(F, _) when is_function(F) -> 'fun';
norm(T, Names) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T), Names));
norm([H | T], Names) -> [norm(H, Names) | norm(T, Names)];
norm(X, _) -> X.

stop_wait(P, How) ->
    Ref = monitor(process, P),
    case How of
        stop -> P ! stop;
        kill -> exit(P, kill);
        none -> ok
    end,
    receive {'DOWN', Ref, process, P, _} -> ok end.
