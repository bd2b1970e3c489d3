%% Datagrams both ways with a real erl that this program starts: erl echoes three datagrams
%% back to whoever sent them (binary and list mode on this side, one of 60 KB).
-module(udp_erl_peer).
-export([main/0]).

main() ->
    Echo = "{ok, U} = gen_udp:open(0, [binary, {active, false}, {ip, {127,0,0,1}}, {recbuf, 262144}]), "
           "{ok, P} = inet:port(U), io:format(\"~p~n\", [P]), "
           "[begin {ok, {Ip, From, D}} = gen_udp:recv(U, 0, 10000), "
           "       ok = gen_udp:send(U, Ip, From, [<<\"echo:\">>, D]) end || _ <- [1, 2, 3]], "
           "halt().",
    Erl = open_port({spawn_executable, os:find_executable("erl")},
                    [{args, ["-noshell", "-eval", Echo]}, {line, 200}, exit_status, binary]),
    ErlPort = receive {Erl, {data, {eol, Line}}} -> binary_to_integer(Line) after 20000 -> error(no_port) end,
    {ok, U} = gen_udp:open(0, [binary, {active, false}, {ip, {127,0,0,1}}, {recbuf, 262144}]),
    ok = gen_udp:send(U, {127,0,0,1}, ErlPort, <<"one">>),
    {ok, {_, From1, D1}} = gen_udp:recv(U, 0, 10000),
    io:format("binary: ~p from erl's port: ~p~n", [D1, From1 =:= ErlPort]),
    ok = inet:setopts(U, [list, {active, once}]),
    ok = gen_udp:send(U, {127,0,0,1}, ErlPort, "two"),
    receive {udp, U, _, _, D2} -> io:format("list, active once: ~p~n", [D2]) after 10000 -> io:format("timeout~n") end,
    ok = inet:setopts(U, [binary, {active, false}]),
    Big = binary:copy(<<"x">>, 60000),
    ok = gen_udp:send(U, {127,0,0,1}, ErlPort, Big),
    {ok, {_, _, D3}} = gen_udp:recv(U, 0, 10000),
    io:format("60 KB datagram: ~p bytes, intact: ~p~n", [byte_size(D3), D3 =:= <<"echo:", Big/binary>>]),
    receive {Erl, {exit_status, S}} -> io:format("erl exited: ~p~n", [S]) after 20000 -> io:format("erl still running~n") end,
    gen_udp:close(U).
