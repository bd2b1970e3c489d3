%% What gen_tcp and inet answer when things go wrong, as erl answers: a refused connection,
%% a port in use, timeouts, recv on an active socket, bad options, operations on a closed
%% socket, and the socket's options and status.
-module(tcp_errors).
-export([main/0]).

main() ->
    {ok, L} = gen_tcp:listen(0, [{ip, {127,0,0,1}}]),
    {ok, Port} = inet:port(L),
    io:format("in use: ~p~n", [gen_tcp:listen(Port, [{ip, {127,0,0,1}}])]),
    io:format("accept timeout: ~p~n", [gen_tcp:accept(L, 20)]),
    io:format("accept poll: ~p~n", [gen_tcp:accept(L, 0)]),
    {ok, Free} = gen_tcp:listen(0, [{ip, {127,0,0,1}}]),
    {ok, FreePort} = inet:port(Free),
    ok = gen_tcp:close(Free),
    io:format("refused: ~p~n", [gen_tcp:connect({127,0,0,1}, FreePort, [])]),
    io:format("bad option: ~p~n", [catch gen_tcp:connect({127,0,0,1}, Port, [{active, maybe}])]),
    io:format("bad port: ~p~n", [try gen_tcp:connect({127,0,0,1}, -1, []) catch C1:{R1, _} -> {C1, R1} end]),
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, true}]),
    io:format("recv while active: ~p~n", [gen_tcp:recv(C, 0)]),
    io:format("status: ~p ~p~n", [prim_inet:getstatus(L), prim_inet:getstatus(C)]),
    io:format("type: ~p~n", [prim_inet:gettype(C)]),
    io:format("options: ~p~n", [inet:getopts(C, [active, mode, packet, header, exit_on_close, high_watermark,
                                                   low_watermark, send_timeout, delay_send, deliver, nodelay,
                                                   keepalive, linger, packet_size, show_econnreset])]),
    ok = inet:setopts(C, [{nodelay, true}, {keepalive, true}, {high_watermark, 65536}, {packet, 4}, list]),
    io:format("changed: ~p~n", [inet:getopts(C, [nodelay, keepalive, high_watermark, packet, mode])]),
    io:format("setopts einval: ~p~n", [inet:setopts(C, [{packet, 3}])]),
    io:format("services: ~p ~p~n", [inet:getservbyname(ssh, tcp), inet:getservbyport(22, tcp)]),
    ok = gen_tcp:close(C),
    io:format("send after close: ~p~n", [catch gen_tcp:send(C, "x")]),
    io:format("recv after close: ~p~n", [catch gen_tcp:recv(C, 0)]),
    io:format("getopts after close: ~p~n", [inet:getopts(C, [active])]),
    ok = gen_tcp:close(L),
    io:format("accept on closed: ~p~n", [gen_tcp:accept(L)]).
