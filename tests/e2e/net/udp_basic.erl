%% gen_udp over loopback through the udp_inet driver: passive recv with a timeout, active
%% once and {active, N} ({udp_passive, S}), a connected socket, list and binary modes.
-module(udp_basic).
-export([main/0]).

main() ->
    {ok, A} = gen_udp:open(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, B} = gen_udp:open(0, [list, {active, false}, {ip, {127,0,0,1}}]),
    {ok, PortA} = inet:port(A),
    {ok, PortB} = inet:port(B),
    io:format("named ~p~n", [element(2, erlang:port_info(A, name))]),
    ok = gen_udp:send(A, {127,0,0,1}, PortB, <<"to b">>),
    {ok, {Ip, From, Data}} = gen_udp:recv(B, 0, 2000),
    io:format("b got ~p from ~p, the sender's port: ~p~n", [Data, Ip, From =:= PortA]),
    io:format("recv timeout: ~p~n", [gen_udp:recv(B, 0, 50)]),

    ok = inet:setopts(A, [{active, once}]),
    ok = gen_udp:send(B, {127,0,0,1}, PortA, "to a"),
    receive {udp, A, _, _, D} -> io:format("active once: ~p~n", [D]) after 2000 -> io:format("timeout~n") end,
    io:format("then: ~p~n", [inet:getopts(A, [active])]),

    ok = inet:setopts(A, [{active, 2}]),
    [ok = gen_udp:send(B, {127,0,0,1}, PortA, [N]) || N <- [1, 2, 3]],
    io:format("active 2: ~p~n", [flush(A)]),
    io:format("left: ~p~n", [element(3, element(2, gen_udp:recv(A, 0, 2000)))]),

    ok = gen_udp:connect(B, {127,0,0,1}, PortA),
    ok = gen_udp:send(B, "connected"),
    io:format("connected send: ~p~n", [element(3, element(2, gen_udp:recv(A, 0, 2000)))]),
    io:format("options: ~p~n", [inet:getopts(A, [mode, active, read_packets, broadcast])]),
    ok = gen_udp:close(A),
    ok = gen_udp:close(B),
    io:format("closed: ~p~n", [{erlang:port_info(A), erlang:port_info(B)}]).

flush(S) ->
    receive
        {udp, S, _, _, D} -> [D | flush(S)];
        {udp_passive, S} -> [udp_passive | flush(S)]
    after 200 -> []
    end.
