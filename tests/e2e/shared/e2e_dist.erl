%% tests/e2e/shared/e2e_dist.erl — distribution for the test programs (tests/e2e/dist/): this
%% program becomes a node, and real erl nodes are started as its peers on 127.0.0.1 (so under
%% erl this is erl with erl, under beamlet beamlet with erl). Names carry the OS pid, so that
%% runs in parallel never meet; every node shares one cookie. Not a test itself.
-module(e2e_dist).
-export([start/1, peer/1, peer/2, peer/3, stop_peer/1, kill_peer/1, wait_exit/1, main/0, serve/1]).

-define(COOKIE, e2e_dist_cookie).

name(Tag) -> Tag ++ "_" ++ os:getpid().

%% This node: Tag_OsPid@localhost. epmd is started first if none runs, as erlexec starts it
%% for -sname (net_kernel:start/1 does not).
start(Tag) ->
    _ = os:cmd("epmd -daemon"),
    {ok, _} = net_kernel:start([list_to_atom(name(Tag) ++ "@localhost"), shortnames]),
    true = erlang:set_cookie(node(), ?COOKIE),
    ok.

%% A node Tag_OsPid@localhost with this program's code path, up and connected: {Port, Node}.
%% It connects to this node itself (the accepting side is this one's). Kind: erl, a real erl;
%% same, a node of the VM running this program (beamlet's own executable under beamlet, erl
%% under erl).
%% Flags: more of erl's flags for the peer (-proto_dist Mod, ...).
peer(Tag) -> peer(Tag, erl).
peer(Tag, Kind) -> peer(Tag, Kind, []).
peer(Tag, Kind, Flags) ->
    Dirs = lists:usort([filename:dirname(code:which(?MODULE)), filename:dirname(code:which(e2e_dist_peer_code()))]),
    Name = name(Tag) ++ "@localhost",
    Eval = lists:flatten(io_lib:format("e2e_dist:serve('~s')", [node()])),
    {Exe, Args} =
        case {Kind, beamlet()} of
            {same, {ok, Beamlet}} ->
                {Beamlet, ["run", "-sname", Name, "-setcookie", atom_to_list(?COOKIE),
                           "-env", "E2E_DIST_PARENT", atom_to_list(node())] ++ Flags
                          ++ lists:append([["-pa", D] || D <- Dirs]) ++ ["e2e_dist"]};
            _ ->
                {os:find_executable("erl"), ["-sname", Name, "-setcookie", atom_to_list(?COOKIE), "-noshell"]
                                            ++ Flags ++ ["-pa" | Dirs] ++ ["-eval", Eval]}
        end,
    Port = open_port({spawn_executable, Exe}, [{args, Args}, {line, 200}, exit_status, binary]),
    receive {Port, {data, {eol, <<"ready">>}}} -> ok after 60000 -> error(peer_did_not_start) end,
    Node = list_to_atom(Name),
    true = lists:member(Node, nodes()),
    {Port, Node}.

%% A beamlet peer's program (beamlet run has no -eval yet).
main() -> serve(list_to_atom(os:getenv("E2E_DIST_PARENT"))).

%% A peer's life: connected to its parent, it says so and waits. It halts once the parent
%% node is gone for good — its name not at epmd for ten seconds in a row; a disconnect, or
%% net_kernel stopped and started again, is not the end — so that a parent that failed
%% leaves no node behind (holding its test's output open).
serve(Parent) ->
    pong = net_adm:ping(Parent),
    io:format("ready~n"),
    [Name, Host] = string:split(atom_to_list(Parent), "@"),
    watch_parent(Name, Host, 10).

watch_parent(_Name, _Host, 0) -> erlang:halt();
watch_parent(Name, Host, Left) ->
    timer:sleep(1000),
    Registered = case erl_epmd:names(Host) of
                     {ok, Names} -> lists:keymember(Name, 1, Names);
                     _ -> false
                 end,
    watch_parent(Name, Host, case Registered of true -> 10; false -> Left - 1 end).

%% beamlet's executable when this program runs on beamlet.
beamlet() ->
    case file:read_link("/proc/self/exe") of
        {ok, Exe} -> case filename:basename(Exe) of "beamlet" -> {ok, Exe}; _ -> no end;
        _ -> no
    end.

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
