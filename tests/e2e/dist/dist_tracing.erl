%% Tracing across nodes, with a real erl peer: a seq_trace token travels with messages both
%% ways (one chain, serials as OTP counts them, each node's system tracer seeing its own
%% events) and with spawn requests (erpc), and dbg traces the other node (dbg:n/1): this node
%% tracing the peer's calls, and the peer tracing this node's.
-module(dist_tracing).
-export([main/0, bouncer/0, collector/1]).

main() ->
    ok = e2e_dist:start("dist_tracing"),
    {_, N} = Peer = e2e_dist:peer("dist_tracing_peer"),

    %% ---- seq_trace: here -> there -> here -> there ----
    Here = spawn(?MODULE, collector, [[]]),
    There = spawn(N, ?MODULE, collector, [[]]),
    seq_trace:set_system_tracer(Here),
    erpc:call(N, seq_trace, set_system_tracer, [There]),
    Bouncer = spawn(N, ?MODULE, bouncer, []),
    Self = self(),
    seq_trace:set_token(label, 7),
    seq_trace:set_token(send, true),
    seq_trace:set_token('receive', true),
    seq_trace:set_token(print, true),
    Bouncer ! {Self, 1},
    receive {bounced, 1} -> ok end,
    seq_trace:print(7, back_here),
    Bouncer ! {Self, 2},
    receive {bounced, 2} -> ok end,
    seq_trace:set_token([]),
    timer:sleep(200),
    io:format("events here:~n"),
    [io:format("  ~p~n", [E]) || E <- events(Here)],
    io:format("events there:~n"),
    [io:format("  ~p~n", [E]) || E <- events(There)],

    %% ---- the token goes with a spawn request: erpc:call/4 runs there with it ----
    _ = erpc:call(N, seq_trace, get_token, []),
    seq_trace:set_token(label, 9),
    ThereLabel = erpc:call(N, seq_trace, get_token, [label]),
    seq_trace:set_token([]),
    io:format("the label there, in an erpc call: ~p~n", [ThereLabel]),
    Home = node(),
    _ = seq_trace:get_token(),
    HereLabel = erpc:call(N, fun() ->
                                     seq_trace:set_token(label, 11),
                                     L = erpc:call(Home, seq_trace, get_token, [label]),
                                     seq_trace:set_token([]),
                                     L
                             end),
    io:format("the label here, in an erpc call from there: ~p~n", [HereLabel]),

    %% ---- dbg on both nodes, from here ----
    Calls = spawn(?MODULE, collector, [[]]),
    {ok, _} = dbg:tracer(process, {fun(Msg, C) -> C ! Msg, C end, Calls}),
    {ok, N} = dbg:n(N),
    {ok, Matched} = dbg:p(all, call),
    io:format("dbg:p matched on: ~p~n", [lists:sort([where(Node) || {matched, Node, _} <- Matched])]),
    {ok, Set} = dbg:tp(string, reverse, []),
    io:format("dbg:tp: ~p~n", [lists:sort([where(Node) || {matched, Node, 1} <- Set])]),
    "cba" = string:reverse("abc"),
    "fed" = erpc:call(N, string, reverse, ["def"]),
    timer:sleep(300),
    dbg:stop(),
    io:format("calls traced:~n"),
    [io:format("  ~p~n", [E]) || E <- events(Calls)],

    %% ---- dbg on the peer, tracing this node ----
    Me = node(),
    Traced = erpc:call(N, fun() ->
                                  C = spawn(?MODULE, collector, [[]]),
                                  {ok, _} = dbg:tracer(process, {fun(Msg, Col) -> Col ! Msg, Col end, C}),
                                  {ok, Me} = dbg:n(Me),
                                  dbg:cn(node()),
                                  {ok, _} = dbg:p(all, call),
                                  {ok, _} = dbg:tp(string, reverse, []),
                                  "ihg" = erpc:call(Me, string, reverse, ["ghi"]),
                                  timer:sleep(300),
                                  dbg:stop(),
                                  events(C)
                          end),
    io:format("traced by the peer:~n"),
    [io:format("  ~p~n", [E]) || E <- Traced],

    %% ---- a remote spawn's reply, received by a parent traced for 'receive' ----
    Collector = spawn(?MODULE, collector, [[]]),
    Self = self(),
    Parent = spawn(fun() ->
                           receive go -> ok end,
                           Ref = spawn_request(N, erlang, node, [], []),
                           receive {spawn_reply, Ref, ok, _} -> Self ! replied end
                   end),
    %% (Not traced by the peer's dbg any more: its relay here may not have ended yet.)
    1 = erlang:trace(Parent, false, [all]),
    1 = erlang:trace(Parent, true, ['receive', {tracer, Collector}]),
    Parent ! go,
    receive replied -> ok after 5000 -> timeout end,
    timer:sleep(100),
    io:format("a remote spawn's reply, received: ~p~n",
              [[case E of
                    {trace, Who, 'receive', {spawn_reply, R, ok, Where}} when is_reference(R) ->
                        {trace, Who, 'receive', {spawn_reply, ok, Where}};
                    _ -> E
                end || E <- events(Collector)]]),
    e2e_dist:stop_peer(Peer).

%% Bounces {From, N} back as {bounced, N}, twice.
bouncer() ->
    receive {From, 1} -> From ! {bounced, 1} end,
    receive {From2, 2} -> From2 ! {bounced, 2} end.

collector(Acc) ->
    receive
        {get, From} -> From ! {events, lists:reverse(Acc)};
        E -> collector([E | Acc])
    end.

%% A collector's events, pids and nodes named by where they are from this program's node.
events(Collector) ->
    Collector ! {get, self()},
    receive {events, Es} -> [normalise(E) || E <- Es] after 5000 -> timeout end.

normalise(T) when is_pid(T) -> where(node(T));
normalise(T) when is_atom(T) -> case lists:member(T, [node() | nodes()]) of true -> where(T); false -> T end;
normalise(T) when is_tuple(T) -> list_to_tuple(normalise(tuple_to_list(T)));
normalise([H | T]) -> [normalise(H) | normalise(T)];
normalise(T) -> T.

where(Node) ->
    case Node =:= node() of
        true -> here;
        false -> case lists:member(Node, nodes()) of true -> there; false -> Node end
    end.
