%% Distribution against a real erl node on the same machine: this program becomes a node
%% (net_kernel:start/1), starts erl as its peer and uses it as Erlang programs use nodes —
%% rpc and erpc, remote spawn, registered names, links, monitors, exit signals, group leaders,
%% large messages, message order, and the peer's death (kill -9): nodedown, noconnection.
-module(dist_erl_peer).
-export([main/0, run/2, echo/0, collector/2, watch/2]).

main() -> run("dist_erl_peer", erl).

%% Also dist_same_peer's, with a peer of the VM that runs it (beamlet with beamlet).
run(Tag, PeerKind) ->
    process_flag(trap_exit, true),
    io:format("alive before: ~p~n", [is_alive()]),
    ok = e2e_dist:start(Tag),
    io:format("alive: ~p, nodes: ~p~n", [is_alive(), nodes()]),
    {_, N} = Peer = e2e_dist:peer(Tag ++ "_peer", PeerKind),
    io:format("connected: ~p ~p~n", [nodes() =:= [N], nodes(hidden)]),

    %% ---- rpc and erpc ----
    io:format("rpc node: ~p~n", [rpc:call(N, erlang, node, []) =:= N]),
    io:format("rpc seq: ~p~n", [rpc:call(N, lists, seq, [1, 5])]),
    io:format("erpc: ~p~n", [erpc:call(N, erlang, '+', [1, 2])]),
    io:format("erpc error: ~p~n", [try erpc:call(N, erlang, error, [oops]) catch error:{exception, R, _} -> R end]),
    io:format("erpc throw: ~p~n", [try erpc:call(N, erlang, throw, [ball]) catch throw:T -> T end]),
    io:format("rpc undef: ~p~n", [element(1, rpc:call(N, nomod, nofun, []))]),
    io:format("multicall: ~p~n", [[node_name(R) || R <- erpc:multicall([N, node()], erlang, node, [])]]),

    %% ---- remote spawn, names, messages ----
    Echo = spawn(N, ?MODULE, echo, []),
    io:format("spawned there: ~p~n", [node(Echo) =:= N]),
    Echo ! {self(), hello},
    io:format("echo: ~p~n", [receive {echo, M1} -> M1 after 5000 -> timeout end]),
    true = rpc:call(N, erlang, register, [echo_there, Echo]),
    {echo_there, N} ! {self(), by_name},
    io:format("by name: ~p~n", [receive {echo, M2} -> M2 after 5000 -> timeout end]),
    register(here, self()),
    Home = node(),
    spawn(N, fun() -> {here, Home} ! {from_there, node()} end),
    io:format("to a name here: ~p~n", [receive {from_there, From} -> From =:= N after 5000 -> timeout end]),
    Big = binary:copy(<<"0123456789">>, 1000000),
    List = lists:seq(1, 100000),
    Echo ! {self(), {Big, List, #{key => [a, {b, 1.5}, <<"c">>]}}},
    io:format("10 MB and a list back intact: ~p~n",
              [receive {echo, {B, L, Map}} -> {B =:= Big, L =:= List, Map} after 20000 -> timeout end]),
    %% 100 MB: fragments both ways (OTP's nodes and beamlet cut messages into 64 KB pieces).
    Huge = binary:copy(<<"0123456789">>, 10000000),
    Echo ! {self(), {huge, Huge}},
    io:format("100 MB back intact: ~p~n", [receive {echo, {huge, H}} -> H =:= Huge after 60000 -> timeout end]),
    %% More atoms than the atom cache holds (2048) and than one header names (255), twice.
    Atoms = [list_to_atom("dist_cache_atom_" ++ integer_to_list(I)) || I <- lists:seq(1, 3000)],
    [begin Echo ! {self(), {atoms, Atoms}},
           io:format("3000 atoms back intact: ~p~n",
                     [receive {echo, {atoms, As}} -> As =:= Atoms after 10000 -> timeout end])
     end || _ <- [1, 2]],
    Ref = make_ref(),
    Echo ! {self(), {Ref, self(), Echo}},
    io:format("refs and pids keep their identity: ~p~n",
              [receive {echo, {Ref2, Me, E}} -> {Ref2 =:= Ref, Me =:= self(), E =:= Echo} after 5000 -> timeout end]),
    spawn(N, fun() -> io:format("printed by a process on the peer~n") end),
    timer:sleep(200),

    %% ---- message order: 10 senders here, 1000 messages each, one collector there; then
    %% 10,000 senders, 10 messages each ----
    Collector = spawn(N, ?MODULE, collector, [self(), 10 * 1000]),
    [spawn(fun() -> [Collector ! {I, S} || S <- lists:seq(1, 1000)] end) || I <- lists:seq(1, 10)],
    io:format("order kept per sender: ~p~n", [receive {collected, Res} -> Res after 30000 -> timeout end]),
    Collector2 = spawn(N, ?MODULE, collector, [self(), 10000 * 10]),
    [spawn(fun() -> [Collector2 ! {I, S} || S <- lists:seq(1, 10)] end) || I <- lists:seq(1, 10000)],
    io:format("order kept for 10,000 senders: ~p~n", [receive {collected, Res2} -> Res2 after 60000 -> timeout end]),

    %% ---- links and exit signals ----
    P1 = spawn_link(N, fun() -> receive X -> exit(X) end end),
    P1 ! bang,
    io:format("linked exit: ~p~n", [receive {'EXIT', P1, R1} -> R1 after 5000 -> timeout end]),
    P2 = spawn(N, fun() -> receive _ -> ok end end),
    link(P2),
    exit(P2, kill),
    io:format("killed through exit/2: ~p~n", [receive {'EXIT', P2, R2} -> R2 after 5000 -> timeout end]),
    Main = self(),
    P3 = spawn(N, fun() ->
                          process_flag(trap_exit, true),
                          Main ! trapping,
                          receive {'EXIT', F, Why} -> exit({got, node(F) =:= Home, Why}) end
                  end),
    receive trapping -> ok end,
    link(P3),
    exit(P3, from_here),
    io:format("a trapping process there: ~p~n", [receive {'EXIT', P3, R3} -> R3 after 5000 -> timeout end]),
    P4 = spawn(N, fun() -> receive _ -> ok end end),
    link(P4),
    unlink(P4),
    P4 ! done,
    io:format("unlinked: ~p~n", [receive {'EXIT', P4, R4} -> R4 after 500 -> no_exit end]),
    Dead = spawn(N, fun() -> ok end),
    timer:sleep(100),
    link(Dead),
    io:format("link to a dead process: ~p~n", [receive {'EXIT', Dead, R5} -> R5 after 5000 -> timeout end]),

    %% ---- monitors ----
    P6 = spawn(N, fun() -> receive X -> exit(X) end end),
    M6 = monitor(process, P6),
    P6 ! gone,
    io:format("down: ~p~n", [receive {'DOWN', M6, process, P6, R6} -> R6 after 5000 -> timeout end]),
    M7 = monitor(process, {echo_there, N}),
    {echo_there, N} ! {self(), stop},
    io:format("down by name: ~p~n", [receive {'DOWN', M7, process, {echo_there, N7}, R7} -> {N7 =:= N, R7} after 5000 -> timeout end]),
    M8 = monitor(process, Dead),
    io:format("down of a dead process: ~p~n", [receive {'DOWN', M8, process, _, R8} -> R8 after 5000 -> timeout end]),
    M9 = monitor(process, {no_such_name, N}),
    io:format("down of no name: ~p~n", [receive {'DOWN', M9, process, _, R9} -> R9 after 5000 -> timeout end]),
    P10 = spawn(N, fun() -> receive X -> exit(X) end end),
    M10 = monitor(process, P10),
    true = demonitor(M10),
    P10 ! quiet,
    io:format("demonitored: ~p~n", [receive {'DOWN', M10, _, _, _} -> down after 500 -> no_down end]),
    Target = spawn(fun() -> receive X -> exit(X) end end),
    spawn(N, ?MODULE, watch, [self(), Target]),
    receive watching -> ok end,
    Target ! {shutdown, here},
    io:format("a monitor from there: ~p~n", [receive {watched, R11} -> R11 after 5000 -> timeout end]),
    {P12, M12} = spawn_monitor(N, fun() -> exit(spawned_and_monitored) end),
    io:format("spawn_monitor: ~p~n", [receive {'DOWN', M12, process, P12, R12} -> R12 after 5000 -> timeout end]),
    ReqId = spawn_request(N, fun() -> exit(requested) end, [monitor]),
    io:format("spawn_request: ~p~n", [receive {spawn_reply, ReqId, ok, P13} -> node(P13) =:= N after 5000 -> timeout end]),
    io:format("its down: ~p~n", [receive {'DOWN', ReqId, process, _, R13} -> R13 after 5000 -> timeout end]),

    %% ---- the peer dies: kill -9 ----
    monitor_node(N, true),
    L1 = spawn_link(N, fun() -> receive after infinity -> ok end end),
    M14 = monitor(process, spawn(N, fun() -> receive after infinity -> ok end end)),
    e2e_dist:kill_peer(Peer),
    io:format("nodedown: ~p~n", [receive {nodedown, N} -> yes after 10000 -> timeout end]),
    io:format("link: ~p~n", [receive {'EXIT', L1, R14} -> R14 after 5000 -> timeout end]),
    io:format("monitor: ~p~n", [receive {'DOWN', M14, process, _, R15} -> R15 after 5000 -> timeout end]),
    io:format("nodes after: ~p~n", [nodes()]),
    io:format("rpc after: ~p~n", [rpc:call(N, erlang, node, [])]),
    io:format("ping after: ~p~n", [net_adm:ping(N)]),
    monitor_node(N, true),
    io:format("monitor_node of a dead node: ~p~n", [receive {nodedown, N} -> yes after 10000 -> timeout end]),
    ok.

node_name({ok, Node}) -> Node =:= node() orelse peer.

echo() ->
    receive
        {From, stop} -> From ! {echo, stop};
        {From, Msg} -> From ! {echo, Msg}, echo()
    end.

%% Takes Count {Sender, Seq} messages and checks that each sender's come in order.
collector(Parent, Count) -> collect(Parent, Count, #{}).
collect(Parent, 0, Seen) -> Parent ! {collected, {maps:size(Seen), [integer_to_list(V) || V <- lists:usort(maps:values(Seen))]}};
collect(Parent, Left, Seen) ->
    receive
        {I, S} ->
            case maps:get(I, Seen, 0) of
                Prev when Prev =:= S - 1 -> collect(Parent, Left - 1, Seen#{I => S});
                Prev -> Parent ! {collected, {out_of_order, I, Prev, S}}
            end
    end.

%% On the peer: monitors Target (a process on the other node) and reports its 'DOWN'.
watch(Parent, Target) ->
    M = monitor(process, Target),
    Parent ! watching,
    receive {'DOWN', M, process, T, R} -> Parent ! {watched, {T =:= Target, R}} end.
