%% OTP's global and pg across this node and a real erl peer: names registered on one node are
%% seen, sent to and released on the other; pg groups have members on both; a name whose
%% process dies goes with it.
-module(dist_global_pg).
-export([main/0]).

main() ->
    ok = e2e_dist:start("dist_global_pg"),
    {_, N} = Peer = e2e_dist:peer("dist_global_pg_peer"),
    %% ---- global ----
    Self = self(),
    Server = spawn(N, fun() -> yes = global:register_name(gp_server, self()), Self ! registered,
                               receive {hi, From} -> From ! {hello_from, node()}, receive stop -> ok end end end),
    receive registered -> ok end,
    global:sync(),
    io:format("whereis there's name here: ~p~n", [global:whereis_name(gp_server) =:= Server]),
    global:send(gp_server, {hi, self()}),
    io:format("global:send: ~p~n", [receive {hello_from, Node} -> Node =:= N after 5000 -> timeout end]),
    io:format("registered names: ~p~n", [lists:member(gp_server, global:registered_names())]),
    yes = global:register_name(gp_here, self()),
    io:format("here's name there: ~p~n", [erpc:call(N, global, whereis_name, [gp_here]) =:= self()]),
    io:format("taken: ~p~n", [erpc:call(N, global, register_name, [gp_here, Server])]),
    Server ! stop,
    timer:sleep(200),
    io:format("gone with its process: ~p~n", [global:whereis_name(gp_server)]),
    _ = global:unregister_name(gp_here),
    global:sync(),
    io:format("unregistered there: ~p~n", [erpc:call(N, global, whereis_name, [gp_here])]),
    %% ---- pg ----
    {ok, _} = pg:start_link(),
    {ok, _} = erpc:call(N, pg, start, [pg]),
    ok = pg:join(workers, self()),
    Member = spawn(N, fun() -> ok = pg:join(workers, self()), Self ! joined, receive stop -> ok end end),
    receive joined -> ok end,
    timer:sleep(300),
    io:format("members here: ~p~n", [lists:sort([where(P) || P <- pg:get_members(workers)])]),
    io:format("local members: ~p~n", [pg:get_local_members(workers) =:= [self()]]),
    io:format("members there: ~p~n", [lists:sort([where(P) || P <- erpc:call(N, pg, get_members, [workers])])]),
    Member ! stop,
    timer:sleep(300),
    io:format("after one left: ~p~n", [lists:sort([where(P) || P <- pg:get_members(workers)])]),
    e2e_dist:stop_peer(Peer),
    io:format("after the peer halted: ~p ~p~n", [global:whereis_name(gp_server), pg:which_groups()]).

where(P) when node(P) =:= node() -> here;
where(_) -> there.
