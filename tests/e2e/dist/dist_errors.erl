%% What goes wrong between nodes, against a real erl peer: a wrong cookie either way (refused
%% and logged as erl logs it), a node that is not there, a name taken by another node,
%% net_kernel stopped and started again at run time, a node disconnected on purpose.
-module(dist_errors).
-export([main/0]).

main() ->
    ok = e2e_dist:start("dist_errors"),
    {_, N} = Peer = e2e_dist:peer("dist_errors_peer"),
    %% A cookie the peer does not have: its node refuses us (and logs it), we get pang.
    true = erlang:disconnect_node(N),
    wait_until(fun() -> nodes() =:= [] end),
    true = erlang:set_cookie(N, not_the_cookie),
    io:format("wrong cookie: ~p~n", [net_adm:ping(N)]),
    io:format("nodes: ~p~n", [nodes()]),
    true = erlang:set_cookie(N, erlang:get_cookie()),
    io:format("right cookie again: ~p~n", [net_adm:ping(N)]),
    %% The peer tries with a cookie we do not have: we refuse (and log it).
    Me = node(),
    register(errors_main, self()),
    spawn(N, fun() ->
                 Cookie = erlang:get_cookie(),
                 erlang:set_cookie(Me, bad),
                 erlang:disconnect_node(Me),
                 Wrong = net_adm:ping(Me),
                 erlang:set_cookie(Me, Cookie),
                 Right = net_adm:ping(Me),
                 {errors_main, Me} ! {peer_pinged, Wrong, Right}
             end),
    io:format("peer with a wrong cookie, then the right one: ~p~n",
              [receive {peer_pinged, W, R0} -> {W, R0} after 10000 -> timeout end]),
    %% Nobody there.
    io:format("no such node: ~p~n", [net_adm:ping(list_to_atom("nobody_" ++ os:getpid() ++ "@localhost"))]),
    io:format("rpc to nobody: ~p~n", [rpc:call(list_to_atom("nobody_" ++ os:getpid() ++ "@localhost"), erlang, node, [])]),
    %% disconnect_node/1: nodedown for monitor_node/2 and nodes monitors, noconnection for
    %% links.
    ok = net_kernel:monitor_nodes(true),
    ok = net_kernel:monitor_nodes(true, #{node_type => all, nodedown_reason => true}),
    ok = net_kernel:monitor_nodes(true, [{node_type, visible}, nodedown_reason]),
    monitor_node(N, true),
    process_flag(trap_exit, true),
    L = spawn_link(N, fun() -> receive after infinity -> ok end end),
    io:format("disconnect: ~p~n", [erlang:disconnect_node(N)]),
    io:format("nodedown: ~p~n", [receive {nodedown, N} -> yes after 5000 -> timeout end]),
    io:format("link: ~p~n", [receive {'EXIT', L, R} -> R after 5000 -> timeout end]),
    io:format("disconnect again: ~p~n", [erlang:disconnect_node(N)]),
    io:format("nodes monitors: ~p~n", [lists:sort(node_events(N))]),
    pong = net_adm:ping(N),
    io:format("nodes monitors on reconnection: ~p~n", [lists:sort(node_events(N))]),
    ok = net_kernel:monitor_nodes(false),
    ok = net_kernel:monitor_nodes(false, #{node_type => all, nodedown_reason => true}),
    ok = net_kernel:monitor_nodes(false, [{node_type, visible}, nodedown_reason]),
    %% net_kernel stopped: not alive, no nodes; a name another node holds cannot be taken.
    io:format("stop: ~p~n", [net_kernel:stop()]),
    wait_until(fun() -> not is_alive() end),
    io:format("stopped: ~p ~p~n", [node(), nodes()]),
    %% (net_kernel's start-up failure makes reports, whose pids and sizes are each VM's own.)
    logger:set_primary_config(level, none),
    {error, _} = net_kernel:start([N, shortnames]),
    logger:set_primary_config(level, notice),
    io:format("a taken name: refused, ~p~n", [node()]),
    ok = e2e_dist:start("dist_errors"),
    io:format("started again: ~p ~p~n", [is_alive(), net_adm:ping(N)]),
    e2e_dist:stop_peer(Peer),
    io:format("after the peer halted: ~p~n", [nodes()]).

%% The nodeup/nodedown messages about N so far, N named peer.
node_events(N) ->
    receive
        E when element(1, E) =:= nodeup; element(1, E) =:= nodedown ->
            [setelement(2, E, case element(2, E) of N -> peer; Other -> Other end) | node_events(N)]
    after 500 -> []
    end.

wait_until(F) ->
    case F() of
        true -> ok;
        false -> timer:sleep(10), wait_until(F)
    end.
