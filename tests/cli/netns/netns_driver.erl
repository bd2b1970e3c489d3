%% The program of tests/cli/dist_netns_test.sh: on one simulated host, with an erl node beside
%% it and a beamlet and an erl node on the other host (a veth link with 20 ms and 1% loss
%% between), it pings them all, passes a seq_trace token through all of them (one chain, the
%% serials as OTP counts them), traces calls on all of them with dbg:n/1, then cuts its
%% host's link (nodedown, noconnection) and restores it (the nodes connect again).
-module(netns_driver).
-export([main/0, relay/0, work/1]).

main() ->
    [Local, RemoteB, RemoteE] = [list_to_atom(os:getenv(V)) || V <- ["NETNS_E1", "NETNS_B2", "NETNS_E2"]],
    Dev = os:getenv("NETNS_DEV"),
    Others = [Local, RemoteB, RemoteE],
    io:format("pings: ~p~n", [[net_adm:ping(N) || N <- Others]]),
    io:format("connected: ~p~n", [lists:sort(nodes()) =:= lists:sort(Others)]),
    %% The others connect to each other too (global's connect_all).
    All = lists:sort([node() | Others]),
    wait_until(fun() -> lists:all(fun(N) -> lists:sort([N | erpc:call(N, erlang, nodes, [])]) =:= All end, Others) end),

    %% ---- one seq_trace chain: a new process here -> remote erl -> remote beamlet -> local
    %% erl -> it. (seq_trace is loaded everywhere first: a process that loads a module while
    %% it holds a token counts the code server's messages in its serial, as on erl.)
    [{module, seq_trace} = erpc:call(N, code, ensure_loaded, [seq_trace]) || N <- [node() | Others]],
    Relays = [spawn(N, ?MODULE, relay, []) || N <- [RemoteE, RemoteB, Local]],
    Parent = self(),
    spawn(fun() ->
              seq_trace:set_token(label, 42),
              seq_trace:set_token(send, true),
              hd(Relays) ! {tl(Relays) ++ [self()], hop, []},
              receive {hop, Trail} -> Parent ! {chain, Trail} after 20000 -> Parent ! {chain, timeout} end,
              seq_trace:set_token([])
          end),
    Trail = receive {chain, T} -> T end,
    io:format("the chain's serials at each hop: ~p~n", [[{Label, Serial, LastCnt} || {_, Label, Serial, _, LastCnt} <- Trail]]),

    %% ---- dbg on every node ----
    Self = self(),
    {ok, _} = dbg:tracer(process, {fun(Msg, _) -> Self ! {traced, Msg}, ok end, ok}),
    [{ok, _} = dbg:n(N) || N <- Others],
    {ok, Matched} = dbg:p(all, call),
    io:format("dbg:p on ~p nodes~n", [length([M || {matched, _, _} = M <- Matched])]),
    {ok, _} = dbg:tp(?MODULE, work, 1, []),
    [N = erpc:call(N, ?MODULE, work, [N]) || N <- Others],
    io:format("calls traced: ~p~n", [lists:sort([node(P) =:= A || {trace, P, call, {_, _, [A]}} <- collect()])]),
    dbg:stop(),

    %% ---- the link goes down, then up ----
    process_flag(trap_exit, true),
    monitor_node(RemoteB, true),
    monitor_node(RemoteE, true),
    Linked = spawn_link(RemoteB, fun() -> receive after infinity -> ok end end),
    os:cmd("ip link set " ++ Dev ++ " down"),
    Downs = [receive {nodedown, N} -> N after 60000 -> timeout end || N <- [RemoteB, RemoteE]],
    io:format("nodedown: ~p~n", [lists:sort(Downs) =:= lists:sort([RemoteB, RemoteE])]),
    io:format("link: ~p~n", [receive {'EXIT', Linked, R} -> R after 10000 -> timeout end]),
    os:cmd("ip link set " ++ Dev ++ " up"),
    timer:sleep(500),
    io:format("pings again: ~p~n", [[net_adm:ping(N) || N <- [RemoteB, RemoteE]]]),
    ok.

%% Passes the chain on, with the token it got.
relay() ->
    receive {[Next | Rest], hop, Trail} ->
        T = seq_trace:get_token(),
        case Rest of
            [] -> Next ! {hop, Trail ++ [T]};
            _ -> Next ! {Rest, hop, Trail ++ [T]}
        end
    end.

work(N) -> N.

wait_until(F) ->
    case F() of
        true -> ok;
        false -> timer:sleep(100), wait_until(F)
    end.

collect() -> receive {traced, T} -> [T | collect()] after 1000 -> [] end.
