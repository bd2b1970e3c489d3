-module(link_crash).
-export([main/0]).

%% Links: an abnormal exit kills a non-trapping linked partner with the same reason, the signal
%% travels along a chain, links are bidirectional, and a normal exit does not kill the partner.
main() ->
    quiet_logger(),
    Self = self(),
    %% A spawns linked B; B crashes; A (not trapping) dies with B's reason.
    {A, RefA} = spawn_monitor(fun() ->
                                      process_flag(trap_exit, false),
                                      B = spawn_link(fun() -> receive go -> exit(b_crashed) end end),
                                      Self ! {b, B},
                                      receive never -> ok end
                              end),
    B = receive {b, Pb} -> Pb end,
    RefB = monitor(process, B),
    B ! go,
    io:format("B: ~p~n", [receive {'DOWN', RefB, process, B, W1} -> W1 end]),
    io:format("A (linked to B): ~p~n", [receive {'DOWN', RefA, process, A, W2} -> W2 end]),
    %% Parent crashes: linked child dies too (links are bidirectional).
    {Par, RefP} = spawn_monitor(fun() ->
                                        C = spawn_link(fun() -> receive never -> ok end end),
                                        Self ! {child, C},
                                        receive go -> exit(parent_crashed) end
                                end),
    C = receive {child, Pc} -> Pc end,
    RefC = monitor(process, C),
    Par ! go,
    io:format("parent: ~p~n", [receive {'DOWN', RefP, process, Par, W3} -> W3 end]),
    io:format("child: ~p~n", [receive {'DOWN', RefC, process, C, W4} -> W4 end]),
    %% A chain of 5 linked processes; crashing the deepest kills all of them with the same reason.
    Chain = chain(5),
    Refs = [monitor(process, P) || P <- Chain],
    hd(Chain) ! {crash, {chain_reason, 5}},
    Downs = [receive {'DOWN', R, process, _, W} -> W end || R <- Refs],
    io:format("chain: ~w~n", [Downs]),
    %% A normal exit of a linked process does not kill a non-trapping partner.
    {N, RefN} = spawn_monitor(fun() ->
                                      process_flag(trap_exit, false),
                                      L = spawn_link(fun() -> receive go -> ok end end),
                                      Mr = monitor(process, L),
                                      L ! go,
                                      receive {'DOWN', Mr, process, L, normal} -> ok end,
                                      Self ! {partner_survived, is_process_alive(self())},
                                      receive go -> exit(done_waiting) end
                              end),
    io:format("partner alive after normal exit: ~p~n", [receive {partner_survived, S} -> S end]),
    N ! go,
    io:format("partner: ~p~n", [receive {'DOWN', RefN, process, N, W5} -> W5 end]),
    %% link/1 returns true; linking to self is a no-op.
    {L2, RefL2} = spawn_monitor(fun() ->
                                        Self ! {link_self, link(self())},
                                        {links, Ls} = process_info(self(), links),
                                        Self ! {links_after_self_link, Ls}
                                end),
    io:format("link(self()): ~p~n", [receive {link_self, V} -> V end]),
    io:format("links after link(self()): ~p~n", [receive {links_after_self_link, Ls} -> Ls end]),
    receive {'DOWN', RefL2, process, L2, _} -> ok end,
    %% An error (not just exit/1) also propagates; the reason is {Error, Stack}.
    {E, RefE} = spawn_monitor(fun() ->
                                      spawn_link(fun() -> list_to_atom(self()) end),
                                      receive never -> ok end
                              end),
    {Err, Stack} = receive {'DOWN', RefE, process, E, W6} -> W6 end,
    io:format("linked crash reason: {~p, Stack} (stack is a list: ~p)~n", [Err, is_list(Stack)]),
    ok.

chain(N) ->
    Self = self(),
    spawn(fun() -> chain_node(N, Self) end),
    receive {chain, Pids} -> Pids end.

chain_node(1, Main) ->
    Main ! {chain, collect_up([self()])},
    receive {crash, R} -> exit(R) end;
chain_node(N, Main) ->
    spawn_link(fun() -> chain_node(N - 1, Main) end),
    receive never -> ok end.

%% The deepest node walks the links up to the root: [deepest, ..., root].
collect_up(Acc = [Me | _]) ->
    {links, Ls} = process_info(Me, links),
    case [P || P <- Ls, not lists:member(P, Acc)] of
        [] -> lists:reverse(Acc);   %% reached the root
        [Next] -> collect_up([Next | Acc])
    end.

%% erl's logger writes a crash report for every uncaught error/throw in a process to *stdout*
%% (asynchronously, with a timestamp and pids), which would make the expected output
%% nondeterministic; switch it off. beamlet has no logger module: the call raises undef, ignored.
quiet_logger() ->
    try logger:set_primary_config(level, none) catch error:undef -> ok end.
