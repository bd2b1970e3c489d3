%% Distribution over an alternative carrier whose connections are controlled by processes
%% (tests/e2e/shared/e2e_pdist_dist.erl, `-proto_dist e2e_pdist`: erlang:dist_ctrl_*), with an
%% erl peer and with a peer of the VM that runs this program, both on the same carrier: rpc,
%% messages (2 MB: fragments), links and exit signals, monitors, the peer's death (kill -9).
-module(dist_ctrl_carrier).
-export([main/0, echo/0]).

main() ->
    process_flag(trap_exit, true),
    ok = e2e_dist:start("dist_ctrl_carrier"),
    io:format("carrier: ~p~n", [init:get_argument(proto_dist)]),
    lists:foreach(fun run/1, [erl, same]).

run(Kind) ->
    Tag = "dist_ctrl_carrier_" ++ atom_to_list(Kind),
    {_, N} = Peer = e2e_dist:peer(Tag, Kind, ["-proto_dist", "e2e_pdist"]),
    say(Kind, "connected", lists:member(N, nodes())),
    say(Kind, "controlled by a process", [is_pid(C) || {Node, C} <- erlang:system_info(dist_ctrl), Node =:= N]),
    say(Kind, "rpc", rpc:call(N, lists, seq, [1, 5])),
    say(Kind, "erpc error", try erpc:call(N, erlang, error, [oops]) catch error:{exception, R, _} -> R end),
    Echo = spawn(N, ?MODULE, echo, []),
    Big = binary:copy(<<"0123456789">>, 200000),
    Echo ! {self(), {Big, [a, "b", 1.5, #{c => d}], self()}},
    say(Kind, "2 MB and back", receive {echo, {B, L, P}} -> {B =:= Big, L, P =:= self()} after 10000 -> timeout end),
    [Echo ! {self(), I} || I <- lists:seq(1, 1000)],
    say(Kind, "1000 in order", [receive {echo, I} -> I after 5000 -> timeout end || I <- lists:seq(1, 1000)] =:= lists:seq(1, 1000)),
    Ref = erlang:monitor(process, Echo),
    link(Echo),
    exit(Echo, kill),
    say(Kind, "linked exit", receive {'EXIT', Echo, Why} -> Why after 5000 -> timeout end),
    say(Kind, "monitor", receive {'DOWN', Ref, process, Echo, Why2} -> Why2 after 5000 -> timeout end),
    Watched = spawn(N, ?MODULE, echo, []),
    WRef = erlang:monitor(process, Watched),
    monitor_node(N, true),
    e2e_dist:kill_peer(Peer),
    say(Kind, "nodedown", receive {nodedown, N} -> N =:= N after 10000 -> timeout end),
    say(Kind, "monitor of a process there", receive {'DOWN', WRef, process, _, Why3} -> Why3 after 10000 -> timeout end),
    say(Kind, "connected after", lists:member(N, nodes())).

say(Kind, What, Value) -> io:format("~p: ~s: ~p~n", [Kind, What, Value]).

echo() ->
    receive
        {From, Msg} -> From ! {echo, Msg}, echo()
    end.
