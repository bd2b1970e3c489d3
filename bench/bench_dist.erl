%% bench_dist: Erlang distribution between two nodes of the same VM on loopback (erl with an
%% erl peer, beamlet with a beamlet peer): this node starts its peer (this module again, with
%% BENCH_DIST_PARENT set) and measures
%%   dist_rtt:        a small message to an echo process on the peer and back, R round trips;
%%   dist_rtt_token:  the same with a seq_trace token (a label, no trace flags) on each message;
%%   dist_small:      M small messages one way to a sink on the peer (throughput);
%%   dist_1mb:        200 binaries of 1 MB one way (throughput, bytes);
%%   dist_list:       200 lists of 131,072 small integers (1 MB as a binary) one way;
%%   dist_rpc:        rpc:call(Peer, erlang, node, []) C times, one after the other.
%% Format of ../shared/bench (bench/metric/result lines); run with bench/run_here.sh dist.
-module(bench_dist).
-export([main/0, main/1]).

-define(COOKIE, bench_dist_cookie).

main() ->
    case os:getenv("BENCH_DIST_PARENT") of
        false -> main({20000, 200000, 200, 5000});
        Parent -> peer(list_to_atom(Parent))
    end.

main({Rounds, Small, Megs, Calls}) ->
    Name = "bench_dist_" ++ os:getpid(),
    {ok, _} = net_kernel:start([list_to_atom(Name ++ "@localhost"), shortnames]),
    erlang:set_cookie(node(), ?COOKIE),
    {Port, Peer} = start_peer(Name ++ "_peer@localhost"),
    Echo = spawn(Peer, fun echo/0),
    rtt(Echo, 1000),  % warm-up: code loaded, connection settled
    Rtt = rtt(Echo, Rounds),
    seq_trace:set_token(label, 1),
    RttToken = rtt(Echo, Rounds),
    seq_trace:set_token([]),
    SmallUs = one_way(Peer, Small, fun(I) -> {msg, I} end),
    Bin = binary:copy(<<7>>, 1024 * 1024),
    MegUs = one_way(Peer, Megs, fun(_) -> Bin end),
    List = lists:duplicate(131072, 7),
    ListUs = one_way(Peer, Megs, fun(_) -> List end),
    RpcUs = rpcs(Peer, Calls),
    erpc:cast(Peer, erlang, halt, []),
    receive {Port, {exit_status, _}} -> ok after 10000 -> ok end,
    io:format("result dist rounds=~w small=~w megs=~w calls=~w~n", [Rounds, Small, Megs, Calls]),
    io:format("bench dist_rtt ~w us~n", [Rtt]),
    io:format("metric dist_rtt ~w ps/msg~n", [Rtt * 1000000 div Rounds]),
    io:format("bench dist_rtt_token ~w us~n", [RttToken]),
    io:format("metric dist_rtt_token ~w ps/msg~n", [RttToken * 1000000 div Rounds]),
    io:format("bench dist_small ~w us~n", [SmallUs]),
    io:format("metric dist_small_rate ~w msg/s~n", [Small * 1000000 div max(1, SmallUs)]),
    io:format("bench dist_1mb ~w us~n", [MegUs]),
    io:format("metric dist_1mb_rate ~w msg/s~n", [Megs * 1024 * 1024 * 1000000 div max(1, MegUs)]),
    io:format("bench dist_list ~w us~n", [ListUs]),
    io:format("metric dist_list_rate ~w msg/s~n", [Megs * 1024 * 1024 * 1000000 div max(1, ListUs)]),
    io:format("bench dist_rpc ~w us~n", [RpcUs]),
    io:format("metric dist_rpc ~w ps/msg~n", [RpcUs * 1000000 div Calls]),
    ok.

%% The peer: the same VM as this one, this module as its program.
start_peer(Name) ->
    Dir = filename:dirname(code:which(?MODULE)),
    Parent = atom_to_list(node()),
    {Exe, Args} =
        case file:read_link("/proc/self/exe") of
            {ok, Self} ->
                case filename:basename(Self) of
                    "beamlet" ->
                        {Self, ["run", "-sname", Name, "-setcookie", atom_to_list(?COOKIE),
                                "-env", "BENCH_DIST_PARENT", Parent, "-pa", Dir, ?MODULE_STRING]};
                    _ -> erl_peer(Name, Dir, Parent)
                end;
            _ -> erl_peer(Name, Dir, Parent)
        end,
    Port = open_port({spawn_executable, Exe}, [{args, Args}, {line, 100}, exit_status, binary]),
    receive {Port, {data, {eol, <<"ready">>}}} -> ok after 60000 -> error(peer_did_not_start) end,
    {Port, list_to_atom(Name)}.

erl_peer(Name, Dir, Parent) ->
    {os:find_executable("erl"),
     ["-sname", Name, "-setcookie", atom_to_list(?COOKIE), "-noshell", "-pa", Dir,
      "-env", "BENCH_DIST_PARENT", Parent, "-eval", "bench_dist:main()"]}.

peer(Parent) ->
    pong = net_adm:ping(Parent),
    io:format("ready~n"),
    receive after infinity -> ok end.

echo() ->
    receive
        {From, M} -> From ! M, echo()
    end.

rtt(Echo, N) ->
    T0 = erlang:monotonic_time(microsecond),
    rtt_loop(Echo, N),
    erlang:monotonic_time(microsecond) - T0.

rtt_loop(_, 0) -> ok;
rtt_loop(Echo, N) ->
    Echo ! {self(), N},
    receive N -> rtt_loop(Echo, N - 1) end.

%% N messages made by Make from a process here to a sink on Peer, which answers after the
%% last; microseconds from the first send to the answer.
one_way(Peer, N, Make) ->
    Self = self(),
    Sink = spawn(Peer, fun() -> sink(Self, N) end),
    T0 = erlang:monotonic_time(microsecond),
    send_n(Sink, 1, N, Make),
    receive {sunk, N} -> ok end,
    erlang:monotonic_time(microsecond) - T0.

send_n(_, I, N, _) when I > N -> ok;
send_n(Sink, I, N, Make) -> Sink ! Make(I), send_n(Sink, I + 1, N, Make).

sink(Parent, N) -> sink(Parent, N, 0).
sink(Parent, N, N) -> Parent ! {sunk, N};
sink(Parent, N, K) -> receive _ -> sink(Parent, N, K + 1) end.

rpcs(Peer, N) ->
    T0 = erlang:monotonic_time(microsecond),
    [Peer = rpc:call(Peer, erlang, node, []) || _ <- lists:seq(1, N)],
    erlang:monotonic_time(microsecond) - T0.
