-module(ev_procs).
-export([main/0, child/1]).
-import(e2e_trace, [collector/0, events/2, worker/0, run/2, stop_wait/2, norm/2]).

%% `procs` tracing. The parent gets {trace, P, spawn, Child, {M, F, Args}}; a fun spawn is
%% reported as {erlang, apply, [Fun, []]}; spawn_link and spawn_opt([link]) give spawn then
%% link; spawn_monitor and spawn_opt([monitor]) give only spawn. link/1 and unlink/1 are traced
%% on the caller every time (also when already linked / not linked); the other side, if traced,
%% gets getting_linked / getting_unlinked only when the link really changes. A traced process
%% also gets getting_unlinked when a linked process dies. register/unregister are reported to
%% the tracer of the registered process, whoever calls register (nothing for the caller). A
%% traced process that dies gets {exit, Reason} (normal, boom, killed for exit(P, kill), and
%% {Reason, Stack} for an error), then unregister if it had a name. With trace(new, true,
%% [procs, {tracer, T}]) (returns 0) new processes report {trace, Child, spawned, Parent, MFA}
%% first, then getting_linked for spawn_link.

main() ->
    quiet_logger(),
    T = collector(),
    W = worker(),
    N0 = [{T, tracer}, {W, worker}, {self(), main}],
    io:format("trace worker: ~p~n", [erlang:trace(W, true, [procs, {tracer, T}])]),
    Cs = run(W, fun() ->
        C1 = spawn(?MODULE, child, [c1]),
        C2 = spawn(fun() -> child(c2) end),
        C3 = spawn_link(?MODULE, child, [c3]),
        {C4, _} = spawn_monitor(?MODULE, child, [c4]),
        C5 = spawn_opt(?MODULE, child, [c5], [link]),
        {C6, _} = spawn_opt(?MODULE, child, [c6], [monitor]),
        C7 = spawn_opt(fun() -> child(c7) end, [link]),
        [C1, C2, C3, C4, C5, C6, C7] end),
    [C1, C2 | _] = Cs,
    N = N0 ++ lists:zip(Cs, [c1, c2, c3, c4, c5, c6, c7]),
    show("spawn, spawn_link, spawn_monitor, spawn_opt (worker)", T, [W], N),
    run(W, fun() -> link(C1), link(C1), unlink(C1), unlink(C1), unlink(C2) end),
    show("link, link, unlink, unlink c1, unlink c2 (c1 untraced)", T, [W], N),
    io:format("trace c1: ~p~n", [erlang:trace(C1, true, [procs, {tracer, T}])]),
    run(W, fun() -> link(C1), sync(C1), link(C1), sync(C1), unlink(C1), sync(C1), unlink(C1), sync(C1) end),
    show("same with c1 traced", T, [W, C1], N),
    true = register(ev_procs_worker, W),
    show("main registers worker", T, [W, C1], N),
    true = unregister(ev_procs_worker),
    show("main unregisters worker", T, [W, C1], N),
    run(W, fun() -> register(ev_procs_self, self()), unregister(ev_procs_self) end),
    show("worker registers itself", T, [W, C1], N),
    run(W, fun() -> register(ev_procs_c1, C1), register(ev_procs_c2, C2), unregister(ev_procs_c2) end),
    show("worker registers c1 (traced), c2 (untraced)", T, [W, C1], N),
    run(W, fun() -> process_flag(trap_exit, true), link(C1), C1 ! {exit, boom},
                    receive {'EXIT', C1, R} -> R end end),
    show("registered c1 linked to worker exits with boom", T, [W, C1], N),
    io:format("worker off: ~p~n", [erlang:trace(W, false, [procs])]),
    [stop_wait(C, stop) || C <- tl(Cs)],
    show("after stopping the children (untraced)", T, [W | Cs], N),
    %% New processes.
    io:format("trace new: ~p~n", [erlang:trace(new, true, [procs, {tracer, T}])]),
    io:format("new flags: ~p~n", [erlang:trace_info(new, flags)]),
    Ks = run(W, fun() ->
        K1 = spawn(?MODULE, child, [k1]),
        stop_wait(K1, stop),
        K2 = spawn_link(?MODULE, child, [k2]),
        K2 ! {exit, boom},
        receive {'EXIT', K2, _} -> ok end,
        {K3, M3} = spawn_monitor(fun() -> erlang:error({oops, 3}) end),
        receive {'DOWN', M3, process, K3, _} -> ok end,
        K4 = spawn(?MODULE, child, [k4]),
        stop_wait(K4, kill),
        K5 = spawn(?MODULE, child, [k5]),
        K5 ! {spawn_grandchild, self()},
        G = receive {grandchild, K5, G0} -> G0 end,
        stop_wait(G, stop),
        stop_wait(K5, stop),
        {K6, M6} = spawn_monitor(fun() -> register(ev_procs_k6, self()) end),
        receive {'DOWN', M6, process, K6, _} -> ok end,
        [K1, K2, K3, K4, K5, G, K6] end),
    KN = [k1_spawn_stop, k2_spawn_link_boom, k3_error, k4_killed, k5_parent, grandchild, k6_register],
    N2 = N ++ lists:zip(Ks, KN),
    KEvs = events(T, Ks),
    [begin
         io:format("~s:~n", [Name]),
         [io:format("  ~p~n", [norm(reason(E), N2)]) || E <- KEvs, element(2, E) =:= K]
     end || {K, Name} <- lists:zip(Ks, KN)],
    io:format("new off: ~p~n", [erlang:trace(new, false, [procs])]),
    io:format("new flags: ~p~n", [erlang:trace_info(new, flags)]),
    stop_wait(W, stop),
    stop_wait(T, stop),
    ok.

child(Name) ->
    receive
        {sync, From} -> From ! {synced, self()}, child(Name);
        {spawn_grandchild, From} ->
            G = spawn(?MODULE, child, [grandchild]),
            From ! {grandchild, self(), G},
            child(Name);
        {exit, R} -> exit(R);
        stop -> ok
    end.

%% Once C answers, it has handled the link/unlink signals sent to it before.
sync(C) -> C ! {sync, self()}, receive {synced, C} -> ok end.

show(Label, T, Ps, Names) ->
    io:format("~s:~n", [Label]),
    Evs = events(T, Ps),
    [io:format("  ~p~n", [norm(reason(E), Names)]) || P <- Ps, E <- Evs, element(2, E) =:= P],
    ok.

%% An error exit reason {Reason, Stack}: the stack by its shape.
reason({trace, P, exit, {R, Stack}}) when is_list(Stack) -> {trace, P, exit, {R, stack}};
reason(E) -> E.

%% ---- helpers
%% erl's logger prints a crash report for the process that fails with an error; switch it
%% off. A VM without a logger module raises undef, which is ignored.
quiet_logger() ->
    try logger:set_primary_config(level, none) catch error:undef -> ok end.
