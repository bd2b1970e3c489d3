%% tests/e2e/shared/e2e_dist.erl — distribution for the test programs (tests/e2e/dist/): this
%% program becomes a node, and real erl nodes are started as its peers on 127.0.0.1 (so under
%% erl this is erl with erl, under beamlet beamlet with erl). Names carry the OS pid, so that
%% runs in parallel never meet; every node shares one cookie. Not a test itself.
-module(e2e_dist).
-export([start/1, peer/1, stop_peer/1, kill_peer/1, wait_exit/1]).

-define(COOKIE, e2e_dist_cookie).

name(Tag) -> Tag ++ "_" ++ os:getpid().

%% This node: Tag_OsPid@localhost.
start(Tag) ->
    {ok, _} = net_kernel:start([list_to_atom(name(Tag) ++ "@localhost"), shortnames]),
    true = erlang:set_cookie(node(), ?COOKIE),
    ok.

%% An erl node Tag_OsPid@localhost with this program's code path, up and connected: {Port, Node}.
peer(Tag) ->
    Dirs = [filename:dirname(code:which(?MODULE)), filename:dirname(code:which(e2e_dist_peer_code()))],
    Args = ["-sname", name(Tag) ++ "@localhost", "-setcookie", atom_to_list(?COOKIE), "-noshell",
            "-pa" | lists:usort(Dirs)] ++ ["-eval", "io:format(\"ready~n\"), receive after infinity -> ok end"],
    Port = open_port({spawn_executable, os:find_executable("erl")}, [{args, Args}, {line, 200}, exit_status, binary]),
    receive {Port, {data, {eol, <<"ready">>}}} -> ok after 60000 -> error(peer_did_not_start) end,
    Node = list_to_atom(name(Tag) ++ "@localhost"),
    pong = net_adm:ping(Node),
    {Port, Node}.

%% The module whose directory the peer gets: the program's own (the caller of peer/1).
e2e_dist_peer_code() ->
    {current_stacktrace, Stack} = process_info(self(), current_stacktrace),
    hd([M || {M, _, _, _} <- Stack, M =/= ?MODULE]).

%% Stops the peer as erl's halt/0 would, and waits for its exit.
stop_peer({Port, Node}) ->
    erpc:cast(Node, erlang, halt, []),
    wait_exit(Port).

%% kill -9 of the peer's OS process.
kill_peer({Port, _Node}) ->
    {os_pid, OsPid} = erlang:port_info(Port, os_pid),
    os:cmd("kill -9 " ++ integer_to_list(OsPid)),
    wait_exit(Port).

wait_exit(Port) ->
    receive {Port, {exit_status, _}} -> ok after 60000 -> error(peer_did_not_exit) end.
