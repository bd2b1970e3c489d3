%% gen_tcp and gen_udp with {inet_backend, socket} (OTP's gen_tcp_socket and gen_udp_socket
%% over the socket module) on loopback, as erl answers: passive recv (whole, exact lengths, a
%% timeout), active true, once and N (with tcp_passive), packet 0, 2, 4 and line, binary and
%% list modes, a megabyte each way (its size and checksum printed), the peer's close seen as
%% tcp_closed and {error, closed}, inet:getopts/setopts, inet:peername/sockname (ports
%% masked), controlling_process, shutdown(write) (a half close), and gen_udp's send and recv,
%% passive and active.
-module(gen_tcp_socket_backend).
-export([main/0]).

-define(B, {inet_backend, socket}).

main() ->
    {ok, L} = gen_tcp:listen(0, [?B, binary, {active, false}, {reuseaddr, true}, {ip, {127,0,0,1}}]),
    {ok, Port} = inet:port(L),
    io:format("listen socket: ~p~n", [shape(L)]),
    io:format("listen sockname: ~p~n", [mask(inet:sockname(L))]),
    passive(L, Port),
    packets(L, Port),
    active(L, Port),
    big(L, Port),
    options(L, Port),
    closing(L, Port),
    ownership(L, Port),
    half_close(L, Port),
    ok = gen_tcp:close(L),
    io:format("accept on a closed listener: ~p~n", [gen_tcp:accept(L, 100)]),
    udp(),
    io:format("no messages left: ~p~n", [flush()]),
    ok.

%% A client with Opts, and the server's end (passive, binary).
pair(L, Port, Opts) ->
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [?B | Opts], 2000),
    {ok, A} = gen_tcp:accept(L, 2000),
    {C, A}.

%% ---- passive ----

passive(L, Port) ->
    {C, A} = pair(L, Port, [binary, {active, false}]),
    io:format("client socket: ~p~n", [shape(C)]),
    io:format("peername/sockname agree: ~p ~p~n",
              [inet:peername(C) =:= inet:sockname(A), inet:sockname(C) =:= inet:peername(A)]),
    io:format("peername: ~p~n", [mask(inet:peername(C))]),
    io:format("server port is the listener's: ~p~n", [inet:port(A) =:= {ok, Port}]),
    ok = gen_tcp:send(C, <<"hello">>),
    io:format("recv 0: ~p~n", [gen_tcp:recv(A, 0, 2000)]),
    ok = gen_tcp:send(C, [<<"abc">>, "def", [$g, [$h]]]),
    io:format("recv 3: ~p~n", [gen_tcp:recv(A, 3, 2000)]),
    io:format("recv 5: ~p~n", [gen_tcp:recv(A, 5, 2000)]),
    io:format("recv timeout: ~p~n", [gen_tcp:recv(A, 0, 50)]),
    io:format("recv timeout 0: ~p~n", [gen_tcp:recv(A, 0, 0)]),
    ok = gen_tcp:send(C, <<"ab">>),
    io:format("recv 4 of 2, timeout: ~p~n", [gen_tcp:recv(A, 4, 100)]),
    ok = gen_tcp:send(C, <<"cd">>),
    io:format("then: ~p~n", [gen_tcp:recv(A, 0, 1000)]),
    io:format("and: ~p~n", [gen_tcp:recv(A, 2, 1000)]),
    ok = gen_tcp:send(A, <<"back">>),
    io:format("client recv: ~p~n", [gen_tcp:recv(C, 0, 2000)]),
    %% list mode
    ok = inet:setopts(A, [list]),
    ok = gen_tcp:send(C, <<"as a list">>),
    io:format("list mode: ~p~n", [gen_tcp:recv(A, 0, 2000)]),
    ok = inet:setopts(A, [binary]),
    io:format("recv while active: ~p~n",
              [begin ok = inet:setopts(C, [{active, true}]), R = gen_tcp:recv(C, 0, 100), ok = inet:setopts(C, [{active, false}]), R end]),
    [ok = gen_tcp:close(S) || S <- [C, A]].

%% ---- packet modes ----

packets(L, Port) ->
    {C2, A2} = pair(L, Port, [binary, {active, false}, {packet, 2}]),
    ok = inet:setopts(A2, [{packet, 2}]),
    ok = gen_tcp:send(C2, <<"two">>),
    ok = gen_tcp:send(C2, <<>>),
    ok = gen_tcp:send(C2, binary:copy(<<"x">>, 300)),
    io:format("packet 2: ~p~n", [gen_tcp:recv(A2, 0, 2000)]),
    io:format("packet 2 empty: ~p~n", [gen_tcp:recv(A2, 0, 2000)]),
    io:format("packet 2 300 bytes: ~p~n", [size_of(gen_tcp:recv(A2, 0, 2000))]),
    ok = inet:setopts(A2, [{packet, 0}]),
    ok = gen_tcp:send(C2, <<"raw">>),
    io:format("the header on the wire: ~p~n", [gen_tcp:recv(A2, 5, 2000)]),
    [ok = gen_tcp:close(S) || S <- [C2, A2]],

    {C4, A4} = pair(L, Port, [list, {active, false}, {packet, 4}]),
    ok = inet:setopts(A4, [{packet, 4}, list]),
    ok = gen_tcp:send(C4, "four"),
    ok = gen_tcp:send(C4, [<<"io">>, "list"]),
    io:format("packet 4: ~p~n", [gen_tcp:recv(A4, 0, 2000)]),
    io:format("packet 4 iolist: ~p~n", [gen_tcp:recv(A4, 0, 2000)]),
    ok = gen_tcp:send(A4, <<"reply">>),
    io:format("packet 4 reply, list mode: ~p~n", [gen_tcp:recv(C4, 0, 2000)]),
    [ok = gen_tcp:close(S) || S <- [C4, A4]],

    {Cl, Al} = pair(L, Port, [binary, {active, false}]),
    ok = inet:setopts(Al, [{packet, line}]),
    ok = gen_tcp:send(Cl, <<"first line\nsecond">>),
    io:format("line: ~p~n", [gen_tcp:recv(Al, 0, 2000)]),
    io:format("partial line, timeout: ~p~n", [gen_tcp:recv(Al, 0, 100)]),
    ok = gen_tcp:send(Cl, <<" line\nthird\n">>),
    io:format("line: ~p~n", [gen_tcp:recv(Al, 0, 2000)]),
    io:format("line: ~p~n", [gen_tcp:recv(Al, 0, 2000)]),
    ok = inet:setopts(Al, [list]),
    ok = gen_tcp:send(Cl, <<"list line\n">>),
    io:format("line, list: ~p~n", [gen_tcp:recv(Al, 0, 2000)]),
    [ok = gen_tcp:close(S) || S <- [Cl, Al]].

%% ---- active modes ----

active(L, Port) ->
    {C, A} = pair(L, Port, [binary, {active, true}, {packet, 2}]),
    ok = inet:setopts(A, [{packet, 2}]),
    ok = gen_tcp:send(A, <<"one">>),
    ok = gen_tcp:send(A, <<"two">>),
    io:format("active true: ~p~n", [[tcp_msg(C), tcp_msg(C)]]),
    io:format("active is: ~p~n", [inet:getopts(C, [active])]),
    ok = inet:setopts(C, [{active, once}]),
    ok = gen_tcp:send(A, <<"1">>),
    ok = gen_tcp:send(A, <<"2">>),
    io:format("once: ~p~n", [tcp_msg(C)]),
    io:format("then nothing: ~p~n", [tcp_msg(C, 100)]),
    io:format("active is: ~p~n", [inet:getopts(C, [active])]),
    io:format("recv the next: ~p~n", [gen_tcp:recv(C, 0, 1000)]),
    ok = inet:setopts(C, [{active, 2}]),
    [ok = gen_tcp:send(A, <<N>>) || N <- [1, 2, 3]],
    io:format("active 2: ~p~n", [flush_socket(C)]),
    io:format("active is: ~p~n", [inet:getopts(C, [active])]),
    io:format("left for recv: ~p~n", [gen_tcp:recv(C, 0, 1000)]),
    ok = inet:setopts(C, [{active, 1}]),
    ok = inet:setopts(C, [{active, 2}]),
    io:format("active 1 + 2: ~p~n", [inet:getopts(C, [active])]),
    ok = inet:setopts(C, [{active, -3}]),
    io:format("active -3: ~p ~p~n", [flush_socket(C), inet:getopts(C, [active])]),
    ok = inet:setopts(C, [{active, 0}]),
    io:format("active 0: ~p ~p~n", [flush_socket(C), inet:getopts(C, [active])]),
    ok = inet:setopts(C, [list, {active, true}]),
    ok = gen_tcp:send(A, <<"in a list">>),
    io:format("active list: ~p~n", [tcp_msg(C)]),
    %% active, the peer closes
    ok = gen_tcp:close(A),
    io:format("peer closed: ~p~n", [tcp_msg(C)]),
    io:format("send after: ~p~n", [gen_tcp:send(C, <<"x">>)]),
    ok = gen_tcp:close(C),
    %% active with packet 0: the data as it comes, gathered
    {C0, A0} = pair(L, Port, [binary, {active, true}]),
    ok = gen_tcp:send(A0, <<"stream ">>),
    ok = gen_tcp:send(A0, <<"of bytes">>),
    io:format("active raw: ~p~n", [gather(C0, 15, <<>>)]),
    [ok = gen_tcp:close(S) || S <- [C0, A0]].

tcp_msg(S) -> tcp_msg(S, 2000).
tcp_msg(S, T) ->
    receive
        {tcp, S, D} -> {tcp, D};
        {tcp_closed, S} -> tcp_closed;
        {tcp_error, S, E} -> {tcp_error, E};
        {tcp_passive, S} -> tcp_passive
    after T -> nothing
    end.

flush_socket(S) ->
    case tcp_msg(S, 200) of
        nothing -> [];
        M -> [M | flush_socket(S)]
    end.

gather(_S, 0, Acc) -> Acc;
gather(S, N, Acc) ->
    receive {tcp, S, D} -> gather(S, N - byte_size(D), <<Acc/binary, D/binary>>)
    after 2000 -> {timeout, Acc}
    end.

%% ---- a megabyte each way ----

big(L, Port) ->
    {C, A} = pair(L, Port, [binary, {active, false}]),
    Big = list_to_binary([integer_to_list(I) || I <- lists:seq(1, 200000)]),
    Size = byte_size(Big),
    Self = self(),
    spawn(fun() -> Self ! {sent, gen_tcp:send(C, Big)} end),
    Got = recv_all(A, Size, []),
    io:format("1 MB client to server: ~p bytes, crc ~p, intact ~p, send ~p~n",
              [byte_size(Got), erlang:crc32(Got), Got =:= Big, receive {sent, R} -> R after 5000 -> timeout end]),
    Rev = list_to_binary(lists:reverse(binary_to_list(Big))),
    spawn(fun() -> Self ! {sent, gen_tcp:send(A, Rev)} end),
    Got2 = recv_all(C, Size, []),
    io:format("1 MB server to client: ~p bytes, crc ~p, intact ~p, send ~p~n",
              [byte_size(Got2), erlang:crc32(Got2), Got2 =:= Rev, receive {sent, R2} -> R2 after 5000 -> timeout end]),
    %% packet 4, one message
    ok = inet:setopts(C, [{packet, 4}]),
    ok = inet:setopts(A, [{packet, 4}]),
    spawn(fun() -> Self ! {sent, gen_tcp:send(C, Big)} end),
    {ok, One} = gen_tcp:recv(A, 0, 5000),
    io:format("1 MB in one packet: ~p, send ~p~n", [One =:= Big, receive {sent, R3} -> R3 after 5000 -> timeout end]),
    {ok, Stats} = inet:getstat(A, [recv_oct, send_oct]),
    io:format("server stats: ~p~n", [Stats]),
    [ok = gen_tcp:close(S) || S <- [C, A]].

recv_all(_S, 0, Acc) -> iolist_to_binary(lists:reverse(Acc));
recv_all(S, N, Acc) ->
    case gen_tcp:recv(S, 0, 5000) of
        {ok, D} -> recv_all(S, N - byte_size(D), [D | Acc]);
        E -> {E, iolist_to_binary(lists:reverse(Acc))}
    end.

%% ---- options ----

options(L, Port) ->
    {C, A} = pair(L, Port, [binary, {active, false}, {nodelay, true}, {keepalive, true}]),
    io:format("getopts: ~p~n", [inet:getopts(C, [active, mode, packet, nodelay, keepalive, reuseaddr,
                                                  exit_on_close, header, packet_size, linger,
                                                  send_timeout, send_timeout_close, delay_send,
                                                  show_econnreset, deliver, priority, tos])]),
    ok = inet:setopts(C, [{nodelay, false}, {keepalive, false}, {packet, 2}, list, {linger, {true, 5}},
                          {sndbuf, 32768}, {recbuf, 32768}, {priority, 4}, {tos, 16}, {send_timeout, 3000}]),
    io:format("changed: ~p~n", [inet:getopts(C, [nodelay, keepalive, packet, mode, linger, sndbuf, recbuf,
                                                  priority, tos, send_timeout])]),
    io:format("listener: ~p~n", [inet:getopts(L, [active, mode, reuseaddr])]),
    io:format("setopts bad packet: ~p~n", [inet:setopts(C, [{packet, 3}])]),
    io:format("setopts bad active: ~p~n", [inet:setopts(C, [{active, maybe}])]),
    io:format("setopts unknown: ~p~n", [inet:setopts(C, [{frobnicate, 1}])]),
    io:format("getopts unknown: ~p~n", [inet:getopts(C, [frobnicate])]),
    io:format("listen bad option: ~p~n", [catch gen_tcp:listen(0, [?B, {active, maybe}])]),
    io:format("connect bad option: ~p~n", [catch gen_tcp:connect({127,0,0,1}, Port, [?B, {packet, 3}])]),
    io:format("raw get: ~p~n", [inet:getopts(C, [{raw, 6, 1, 4}])]),
    [ok = gen_tcp:close(S) || S <- [C, A]],
    io:format("getopts after close: ~p~n", [inet:getopts(C, [active])]),
    io:format("setopts after close: ~p~n", [inet:setopts(C, [{active, true}])]).

%% ---- closing ----

closing(L, Port) ->
    {C, A} = pair(L, Port, [binary, {active, false}]),
    ok = gen_tcp:close(A),
    io:format("passive, peer closed: ~p~n", [gen_tcp:recv(C, 0, 2000)]),
    io:format("again: ~p~n", [gen_tcp:recv(C, 0, 2000)]),
    ok = gen_tcp:close(C),
    io:format("send on closed: ~p~n", [gen_tcp:send(C, <<"x">>)]),
    io:format("recv on closed: ~p~n", [gen_tcp:recv(C, 0, 100)]),
    io:format("close again: ~p~n", [gen_tcp:close(C)]),
    io:format("peername on closed: ~p~n", [inet:peername(C)]),
    %% the data is read before the close is seen
    {C2, A2} = pair(L, Port, [binary, {active, once}]),
    ok = gen_tcp:send(A2, <<"last words">>),
    ok = gen_tcp:close(A2),
    io:format("active once, data then close: ~p~n",
              [begin M1 = tcp_msg(C2), ok = inet:setopts(C2, [{active, once}]), [M1, tcp_msg(C2)] end]),
    ok = gen_tcp:close(C2),
    %% refused
    {ok, F} = gen_tcp:listen(0, [?B, {ip, {127,0,0,1}}]),
    {ok, FreePort} = inet:port(F),
    ok = gen_tcp:close(F),
    io:format("refused: ~p~n", [gen_tcp:connect({127,0,0,1}, FreePort, [?B], 2000)]),
    io:format("in use: ~p~n", [gen_tcp:listen(Port, [?B, {ip, {127,0,0,1}}])]),
    io:format("accept timeout: ~p~n", [gen_tcp:accept(L, 50)]).

%% ---- controlling_process ----

ownership(L, Port) ->
    {C, A} = pair(L, Port, [binary, {active, true}, {packet, 2}]),
    ok = inet:setopts(A, [{packet, 2}]),
    Self = self(),
    P = spawn(fun() ->
                      receive go -> ok end,
                      Self ! {new_owner_got, tcp_msg(C)},
                      receive stop -> ok after 3000 -> ok end
              end),
    io:format("controlling_process: ~p~n", [gen_tcp:controlling_process(C, P)]),
    io:format("not the owner any more: ~p~n", [gen_tcp:controlling_process(C, self())]),
    P ! go,
    ok = gen_tcp:send(A, <<"for the new owner">>),
    io:format("new owner got: ~p~n", [receive {new_owner_got, M} -> M after 3000 -> timeout end]),
    io:format("old owner got nothing: ~p~n", [tcp_msg(C, 100)]),
    %% the new owner dies: the socket closes
    MRef = monitor(process, P),
    P ! stop,
    receive {'DOWN', MRef, _, _, _} -> ok after 2000 -> ok end,
    io:format("peer sees the close: ~p~n", [gen_tcp:recv(A, 0, 2000)]),
    ok = gen_tcp:close(A),
    %% a passive socket handed over, its new owner reads
    {C2, A2} = pair(L, Port, [binary, {active, false}]),
    Q = spawn(fun() -> receive go -> Self ! {read, gen_tcp:recv(C2, 0, 2000)} end end),
    ok = gen_tcp:controlling_process(C2, Q),
    ok = gen_tcp:send(A2, <<"passive">>),
    Q ! go,
    io:format("new owner reads: ~p~n", [receive {read, R} -> R after 3000 -> timeout end]),
    [gen_tcp:close(S) || S <- [C2, A2]].

%% ---- shutdown(write): a half close ----

half_close(L, Port) ->
    {C, A} = pair(L, Port, [binary, {active, false}]),
    ok = gen_tcp:send(C, <<"request">>),
    io:format("shutdown write: ~p~n", [gen_tcp:shutdown(C, write)]),
    io:format("server reads: ~p~n", [gen_tcp:recv(A, 0, 2000)]),
    io:format("then closed: ~p~n", [gen_tcp:recv(A, 0, 2000)]),
    io:format("server replies: ~p~n", [gen_tcp:send(A, <<"response">>)]),
    io:format("client reads: ~p~n", [gen_tcp:recv(C, 0, 2000)]),
    io:format("client send after shutdown: ~p~n", [gen_tcp:send(C, <<"more">>)]),
    ok = gen_tcp:close(A),
    io:format("client then: ~p~n", [gen_tcp:recv(C, 0, 2000)]),
    io:format("shutdown read_write: ~p~n", [gen_tcp:shutdown(C, read_write)]),
    ok = gen_tcp:close(C).

%% ---- gen_udp ----

udp() ->
    {ok, U1} = gen_udp:open(0, [?B, binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, U2} = gen_udp:open(0, [?B, binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, P1} = inet:port(U1),
    {ok, P2} = inet:port(U2),
    io:format("udp socket: ~p~n", [shape(U1)]),
    io:format("udp sockname: ~p~n", [mask(inet:sockname(U1))]),
    io:format("send: ~p~n", [gen_udp:send(U1, {127,0,0,1}, P2, <<"ping">>)]),
    {ok, {Ip, From, D}} = gen_udp:recv(U2, 0, 2000),
    io:format("recv: ~p ~p from the sender: ~p~n", [Ip, D, From =:= P1]),
    io:format("recv timeout: ~p~n", [gen_udp:recv(U2, 0, 50)]),
    ok = gen_udp:send(U1, {127,0,0,1}, P2, "a list"),
    ok = gen_udp:send(U1, {{127,0,0,1}, P2}, [<<"io">>, "list"]),
    io:format("recv: ~p~n", [element(3, element(2, gen_udp:recv(U2, 0, 2000)))]),
    io:format("recv: ~p~n", [element(3, element(2, gen_udp:recv(U2, 0, 2000)))]),
    ok = inet:setopts(U2, [list]),
    ok = gen_udp:send(U1, {127,0,0,1}, P2, <<"list mode">>),
    io:format("list mode: ~p~n", [element(3, element(2, gen_udp:recv(U2, 0, 2000)))]),
    ok = inet:setopts(U2, [binary, {active, true}]),
    ok = gen_udp:send(U1, {127,0,0,1}, P2, <<"active">>),
    io:format("active: ~p~n", [udp_msg(U2, P1)]),
    ok = inet:setopts(U2, [{active, once}]),
    ok = gen_udp:send(U1, {127,0,0,1}, P2, <<"once">>),
    ok = gen_udp:send(U1, {127,0,0,1}, P2, <<"after once">>),
    io:format("once: ~p~n", [udp_msg(U2, P1)]),
    io:format("then: ~p ~p~n", [udp_msg(U2, P1, 100), inet:getopts(U2, [active])]),
    io:format("recv the next: ~p~n", [element(3, element(2, gen_udp:recv(U2, 0, 2000)))]),
    ok = inet:setopts(U2, [{active, 2}]),
    [ok = gen_udp:send(U1, {127,0,0,1}, P2, <<N>>) || N <- [1, 2, 3]],
    io:format("active 2: ~p~n", [[udp_msg(U2, P1, 200) || _ <- [1, 2, 3]]]),
    io:format("left: ~p~n", [element(3, element(2, gen_udp:recv(U2, 0, 2000)))]),
    io:format("getopts: ~p~n", [inet:getopts(U2, [active, mode, reuseaddr, broadcast])]),
    io:format("connect: ~p~n", [gen_udp:connect(U1, {127,0,0,1}, P2)]),
    io:format("peername: ~p~n", [inet:peername(U1) =:= {ok, {{127,0,0,1}, P2}}]),
    io:format("send connected: ~p~n", [gen_udp:send(U1, <<"connected">>)]),
    ok = inet:setopts(U2, [{active, false}]),
    io:format("recv: ~p~n", [element(3, element(2, gen_udp:recv(U2, 0, 2000)))]),
    io:format("send too big: ~p~n", [gen_udp:send(U1, {127,0,0,1}, P2, binary:copy(<<0>>, 70000))]),
    ok = gen_udp:close(U1),
    ok = gen_udp:close(U2),
    io:format("send on closed: ~p~n", [gen_udp:send(U1, {127,0,0,1}, P2, <<"x">>)]),
    io:format("recv on closed: ~p~n", [gen_udp:recv(U2, 0, 100)]).

udp_msg(U, From) -> udp_msg(U, From, 2000).
udp_msg(U, From, T) ->
    receive
        {udp, U, Ip, P, D} -> {udp, Ip, P =:= From, D};
        {udp, U, Ip, P, Anc, D} -> {udp, Ip, P =:= From, Anc, D};
        {udp_passive, U} -> udp_passive
    after T -> nothing
    end.

%% ---- helpers ----

size_of({ok, B}) when is_binary(B) -> {ok, byte_size(B)};
size_of(R) -> R.

%% A gen_tcp_socket socket's shape: {'$inet', Module, {Pid, Socket}}.
shape({'$inet', Mod, {Pid, {'$socket', Ref}}}) when is_pid(Pid), is_reference(Ref) ->
    {'$inet', Mod, {pid, {'$socket', ref}}};
shape(S) when is_port(S) -> port;
shape(S) -> S.

mask({ok, {Ip, P}}) when is_integer(P) -> {ok, {Ip, port}};
mask(R) -> R.

flush() ->
    receive M -> [M | flush()] after 50 -> [] end.
