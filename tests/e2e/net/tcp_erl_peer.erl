%% Against a real erl on the same machine: the program starts `erl -noshell` itself through a
%% port (so under erl this is erl with erl, under beamlet beamlet with erl). First erl is an echo
%% server that prints its port number; this program connects and sends in several packet
%% modes. Then the roles turn: this program listens, and erl connects, sends a megabyte with
%% {packet, 4} and half-closes its side; the reply goes back after the half close.
-module(tcp_erl_peer).
-export([main/0]).

main() ->
    %% ---- erl serves ----
    Server = "{ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127,0,0,1}}]), "
             "{ok, P} = inet:port(L), io:format(\"~p~n\", [P]), "
             "{ok, S} = gen_tcp:accept(L, 10000), "
             "Loop = fun Loop() -> case gen_tcp:recv(S, 0, 10000) of "
             "  {ok, D} -> ok = gen_tcp:send(S, D), Loop(); _ -> ok end end, "
             "Loop(), halt().",
    Erl = e2e_erl_peer:open(Server),
    Port = list_to_integer(e2e_erl_peer:read_line(Erl)),
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
    ok = gen_tcp:send(C, <<"hello erl">>),
    io:format("raw echo: ~p~n", [recv_exactly(C, 9)]),
    ok = gen_tcp:send(C, lists:duplicate(100000, $a)),
    {ok, Big} = recv_exactly(C, 100000),
    io:format("100 KB echoed: ~p~n", [Big =:= binary:copy(<<"a">>, 100000)]),
    ok = inet:setopts(C, [{packet, line}, {active, once}]),
    ok = gen_tcp:send(C, <<"a line\n">>),
    receive {tcp, C, Line} -> io:format("line echo: ~p~n", [Line]) after 5000 -> io:format("timeout~n") end,
    ok = gen_tcp:close(C),
    e2e_erl_peer:wait_exit(Erl),

    %% ---- erl is the client ----
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {packet, 4}, {ip, {127,0,0,1}}, {exit_on_close, false}]),
    {ok, MyPort} = inet:port(L),
    Client = lists:flatten(io_lib:format(
               "{ok, C} = gen_tcp:connect({127,0,0,1}, ~p, [binary, {packet, 4}, {active, false}]), "
               "ok = gen_tcp:send(C, binary:copy(<<\"0123456789\">>, 100000)), "
               "ok = gen_tcp:shutdown(C, write), "
               "{ok, R} = gen_tcp:recv(C, 0, 10000), io:format(\"~~s~~n\", [R]), halt().", [MyPort])),
    Erl2 = e2e_erl_peer:open(Client),
    {ok, S} = gen_tcp:accept(L, 10000),
    {ok, Payload} = gen_tcp:recv(S, 0, 10000),
    io:format("received ~p bytes, intact: ~p~n", [byte_size(Payload), Payload =:= binary:copy(<<"0123456789">>, 100000)]),
    io:format("after the peer's half close: ~p~n", [gen_tcp:recv(S, 0, 10000)]),
    ok = gen_tcp:send(S, <<"got it">>),
    io:format("erl printed: ~s~n", [e2e_erl_peer:read_line(Erl2)]),
    e2e_erl_peer:wait_exit(Erl2),
    gen_tcp:close(S),
    gen_tcp:close(L).

recv_exactly(S, N) -> gen_tcp:recv(S, N, 10000).
