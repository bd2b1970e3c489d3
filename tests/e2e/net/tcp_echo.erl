%% gen_tcp over loopback, as OTP's own gen_tcp and inet_tcp drive the tcp_inet driver: an echo
%% server in passive mode, clients in active, once, passive and packet modes, a large transfer
%% (the port's output queue and its busy watermarks), and what closing either end gives.
-module(tcp_echo).
-export([main/0]).

main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true}, {ip, {127,0,0,1}}]),
    {ok, Port} = inet:port(L),
    Server = spawn_link(fun() -> acceptor(L) end),
    io:format("listen socket is a port: ~p, named ~p~n", [is_port(L), element(2, erlang:port_info(L, name))]),

    %% Active client, list mode.
    {ok, A} = gen_tcp:connect({127,0,0,1}, Port, [list, {active, true}]),
    ok = gen_tcp:send(A, "hello"),
    io:format("active list: ~p~n", [collect(A, 5, [])]),
    {ok, {Ip, _}} = inet:peername(A),
    io:format("peer ip: ~p~n", [Ip]),
    io:format("links with the socket: ~p~n", [lists:member(A, element(2, process_info(self(), links)))]),

    %% active once: one message, then passive.
    {ok, O} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, once}, {packet, 2}]),
    ok = gen_tcp:send(O, <<"one">>),
    ok = gen_tcp:send(O, <<"two">>),
    io:format("once: ~p~n", [receive {tcp, O, D1} -> D1 after 2000 -> timeout end]),
    io:format("then passive: ~p~n", [inet:getopts(O, [active])]),
    io:format("recv the next packet: ~p~n", [gen_tcp:recv(O, 0, 2000)]),

    %% {active, N}: N messages, then {tcp_passive, S}.
    ok = inet:setopts(O, [{active, 2}]),
    [ok = gen_tcp:send(O, <<N>>) || N <- [1, 2, 3]],
    io:format("active 2: ~p~n", [flush_socket(O)]),
    io:format("left for recv: ~p~n", [gen_tcp:recv(O, 0, 2000)]),

    %% Passive client, exact lengths and a header.
    {ok, P} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}, {header, 2}]),
    ok = gen_tcp:send(P, [<<"abc">>, "def", [$g]]),
    io:format("recv 4: ~p~n", [gen_tcp:recv(P, 4, 2000)]),
    io:format("recv 3: ~p~n", [gen_tcp:recv(P, 3, 2000)]),
    io:format("recv timeout: ~p~n", [gen_tcp:recv(P, 1, 50)]),

    %% Lines.
    {ok, Li} = gen_tcp:connect({127,0,0,1}, Port, [list, {active, false}, {packet, line}]),
    ok = gen_tcp:send(Li, "first line\nsecond"),
    io:format("line: ~p~n", [gen_tcp:recv(Li, 0, 2000)]),
    ok = gen_tcp:send(Li, " line\n"),
    io:format("line: ~p~n", [gen_tcp:recv(Li, 0, 2000)]),

    %% A megabyte each way: the sender is held while the port is busy, nothing is lost.
    {ok, B} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}, {packet, 4}]),
    Big = list_to_binary([integer_to_list(I) || I <- lists:seq(1, 200000)]),
    ok = gen_tcp:send(B, Big),
    {ok, Echoed} = gen_tcp:recv(B, 0, 10000),
    io:format("1 MB echoed intact: ~p (~p bytes)~n", [Echoed =:= Big, byte_size(Big) > 1000000]),
    {ok, Stats} = inet:getstat(B, [send_cnt, recv_cnt]),
    io:format("stats: ~p~n", [Stats]),

    %% The server closes: passive recv gives closed, then enotconn; a send, closed.
    ok = gen_tcp:send(P, <<"close">>),
    io:format("closed by peer: ~p~n", [gen_tcp:recv(P, 0, 2000)]),
    io:format("again: ~p~n", [gen_tcp:recv(P, 0, 2000)]),
    io:format("send: ~p~n", [gen_tcp:send(P, <<"x">>)]),
    io:format("port still there: ~p~n", [erlang:port_info(P, name) =/= undefined]),

    %% Active: {tcp_closed, S}, and the port goes with its link, even for a trapping owner.
    process_flag(trap_exit, true),
    ok = gen_tcp:send(A, "close"),
    io:format("active close: ~p~n", [receive {tcp_closed, A} -> tcp_closed after 2000 -> timeout end]),
    timer:sleep(50),
    io:format("port gone: ~p, link gone: ~p, no exit message: ~p~n",
              [erlang:port_info(A) =:= undefined,
               not lists:member(A, element(2, process_info(self(), links))),
               receive {'EXIT', A, _} = E -> E after 100 -> true end]),

    %% Our own close: the server's recv sees it.
    ok = gen_tcp:close(Li),
    io:format("close: ~p~n", [gen_tcp:send(Li, "x")]),
    [gen_tcp:close(S) || S <- [O, P, B]],
    Server ! stop,
    ok = gen_tcp:close(L),
    io:format("listen closed: ~p~n", [erlang:port_info(L)]),
    ok.

collect(_S, 0, Acc) -> lists:reverse(Acc);
collect(S, N, Acc) ->
    receive {tcp, S, Data} -> collect(S, N - length(Data), lists:reverse(Data, Acc))
    after 2000 -> {timeout, lists:reverse(Acc)}
    end.

flush_socket(S) ->
    receive
        {tcp, S, D} -> [{tcp, D} | flush_socket(S)];
        {tcp_passive, S} -> [tcp_passive | flush_socket(S)]
    after 200 -> []
    end.

acceptor(L) ->
    case gen_tcp:accept(L, 1000) of
        {ok, S} ->
            Pid = spawn(fun() -> receive go -> echo(S) end end),
            ok = gen_tcp:controlling_process(S, Pid),
            Pid ! go,
            acceptor(L);
        {error, timeout} ->
            receive stop -> ok after 0 -> acceptor(L) end;
        {error, closed} -> ok
    end.

echo(S) ->
    case gen_tcp:recv(S, 0) of
        {ok, Data} ->
            case iolist_to_binary(Data) of
                <<"close">> -> gen_tcp:close(S);
                _ -> gen_tcp:send(S, Data), echo(S)
            end;
        {error, closed} -> ok
    end.
