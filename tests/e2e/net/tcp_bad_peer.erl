%% Peers that misbehave, as erl reports them: a reset while a passive recv waits or an active
%% socket reads (closed, or econnreset with show_econnreset), a length header over
%% packet_size (emsgsize), and lines that are not HTTP ({http_error, Line}).
-module(tcp_bad_peer).
-export([main/0]).

main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, Port} = inet:port(L),

    S1 = pair(L, Port, [], fun(C) -> reset(C) end),
    io:format("passive, reset: ~p~n", [gen_tcp:recv(S1, 0, 5000)]),

    S2 = pair(L, Port, [{show_econnreset, true}], fun(C) -> reset(C) end),
    io:format("passive, reset shown: ~p~n", [gen_tcp:recv(S2, 0, 5000)]),

    S3 = pair(L, Port, [{active, true}, {show_econnreset, true}],
              fun(C) -> ok = gen_tcp:send(C, <<"data">>), timer:sleep(100), reset(C) end),
    io:format("active, reset shown: ~p~n", [messages(S3)]),

    S4 = pair(L, Port, [{packet, 4}, {packet_size, 16}],
              fun(C) -> ok = gen_tcp:send(C, <<1000:32, 0:64>>), timer:sleep(500) end),
    io:format("header over packet_size: ~p~n", [gen_tcp:recv(S4, 0, 5000)]),

    S5 = pair(L, Port, [{packet, http_bin}],
              fun(C) -> ok = gen_tcp:send(C, <<"\x01\x02 not http\r\n">>), timer:sleep(500) end),
    io:format("not http: ~p~n", [gen_tcp:recv(S5, 0, 5000)]),
    gen_tcp:close(L).

%% A connection whose client end runs [Client]; the accepted end gets [Opts].
pair(L, Port, Opts, Client) ->
    spawn(fun() ->
                  {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
                  Client(C)
          end),
    {ok, S} = gen_tcp:accept(L, 5000),
    ok = inet:setopts(S, Opts),
    S.

%% Closes with a reset: linger on, zero seconds.
reset(C) ->
    ok = inet:setopts(C, [{linger, {true, 0}}]),
    gen_tcp:close(C).

messages(S) ->
    receive
        {tcp, S, D} -> [{tcp, D} | messages(S)];
        {tcp_error, S, R} -> [{tcp_error, R} | messages(S)];
        {tcp_closed, S} -> [tcp_closed]
    after 5000 -> [timeout]
    end.
