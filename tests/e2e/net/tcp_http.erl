%% {packet, http | http_bin | httph} on a socket: the driver parses request and status lines and
%% headers as erlang:decode_packet/3 does, tracks whether the connection is in its headers, and
%% a body is read after switching to {packet, raw}. Active and passive, list and binary strings.
-module(tcp_http).
-export([main/0]).

main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {packet, http_bin}, {ip, {127,0,0,1}}]),
    {ok, Port} = inet:port(L),
    Self = self(),
    spawn_link(fun() -> server(L, Self) end),
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [list, {active, false}, {packet, http}]),
    ok = gen_tcp:send(C, ["POST /submit?x=1 HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n",
                          "X-Custom-Thing:  spaced value\r\n\r\nhello"]),
    receive {server_saw, Saw} -> [io:format("server: ~p~n", [S]) || S <- Saw] end,
    [io:format("client: ~p~n", [gen_tcp:recv(C, 0, 2000)]) || _ <- lists:seq(1, 4)],
    ok = inet:setopts(C, [{packet, raw}]),
    io:format("client body: ~p~n", [gen_tcp:recv(C, 2, 2000)]),
    ok = inet:setopts(C, [{packet, http}]),
    ok = gen_tcp:send(C, "GARBAGE\r\n"),
    receive {server_saw, Saw2} -> io:format("server: ~p~n", [Saw2]) end,
    gen_tcp:close(C).

server(L, Main) ->
    {ok, S} = gen_tcp:accept(L),
    ok = inet:setopts(S, [{active, once}]),
    Lines = collect(S, []),
    ok = inet:setopts(S, [{packet, raw}, {active, false}]),
    {ok, Body} = gen_tcp:recv(S, 5, 2000),
    Main ! {server_saw, Lines ++ [{body, Body}]},
    ok = gen_tcp:send(S, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nServer: beam\r\n\r\nok"),
    ok = inet:setopts(S, [{packet, httph}]),
    Main ! {server_saw, gen_tcp:recv(S, 0, 2000)},
    timer:sleep(200).

collect(S, Acc) ->
    receive
        {http, S, http_eoh} -> lists:reverse([http_eoh | Acc]);
        {http, S, Packet} ->
            ok = inet:setopts(S, [{active, once}]),
            collect(S, [Packet | Acc])
    after 2000 -> lists:reverse([timeout | Acc])
    end.
