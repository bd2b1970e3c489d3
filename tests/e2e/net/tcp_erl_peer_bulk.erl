%% 100 MB each way between this program and a real erl on the same machine, with a slow
%% reader at the other end (it pauses every 4 MB): nothing is lost (byte count and CRC), and
%% while the sender waits the socket port is busy: another process's
%% port_command(S, <<>>, [nosuspend]) is refused (false), as on erl. Then four processes
%% send 10 MB each on one socket to a slow reader here: every send returns ok, all arrive.
-module(tcp_erl_peer_bulk).
-export([main/0]).

-define(CHUNK, 65536).
-define(CHUNKS, 1600).  % 100 MB

main() ->
    Chunk = chunk(),
    %% ---- to erl, which reads slowly ----
    Server = "{ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127,0,0,1}}]), "
             "{ok, P} = inet:port(L), io:format(\"~p~n\", [P]), "
             "{ok, S} = gen_tcp:accept(L, 20000), "
             "Loop = fun Loop(N, Crc) -> case gen_tcp:recv(S, 0, 20000) of "
             "  {ok, D} -> M = N + byte_size(D), "
             "             M div 4194304 =/= N div 4194304 andalso timer:sleep(20), "
             "             Loop(M, erlang:crc32(Crc, D)); "
             "  {error, closed} -> io:format(\"~p ~p~n\", [N, Crc]) end end, "
             "Loop(0, 0), halt().",
    Erl = e2e_erl_peer:open(Server),
    Port = list_to_integer(e2e_erl_peer:read_line(Erl)),
    Self = self(),
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
    Sender = spawn_link(fun() ->
                                send_n(C, Chunk, ?CHUNKS),
                                Self ! sent,
                                receive close -> ok = gen_tcp:close(C) end,
                                Self ! closed
                        end),
    ok = gen_tcp:controlling_process(C, Sender),
    Probe = spawn_link(fun() -> probe(C, false) end),
    receive sent -> ok end,
    Probe ! {report, self()},
    receive {busy, Seen} -> io:format("the port was busy while the sender waited: ~p~n", [Seen]) end,
    Sender ! close,
    receive closed -> ok end,
    [Count, Crc] = string:split(e2e_erl_peer:read_line(Erl), " "),
    io:format("erl received ~s bytes, intact: ~p~n",
              [Count, list_to_integer(Crc) =:= expected_crc(Chunk)]),
    e2e_erl_peer:wait_exit(Erl),
    %% ---- from erl, read slowly here ----
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, MyPort} = inet:port(L),
    Client = lists:flatten(io_lib:format(
               "{ok, C} = gen_tcp:connect({127,0,0,1}, ~p, [binary, {active, false}]), "
               "Chunk = << <<(I rem 251)>> || I <- lists:seq(1, ~p) >>, "
               "[ok = gen_tcp:send(C, Chunk) || _ <- lists:seq(1, ~p)], "
               "ok = gen_tcp:close(C), halt().", [MyPort, ?CHUNK, ?CHUNKS])),
    Erl2 = e2e_erl_peer:open(Client),
    {ok, S} = gen_tcp:accept(L, 20000),
    {N, Crc2} = read_slowly(S, 0, 0),
    io:format("received ~p bytes from erl, intact: ~p~n", [N, Crc2 =:= expected_crc(Chunk)]),
    e2e_erl_peer:wait_exit(Erl2),
    gen_tcp:close(S),
    %% ---- four senders on one socket ----
    {ok, C4} = gen_tcp:connect({127,0,0,1}, MyPort, [binary, {active, false}]),
    {ok, S4} = gen_tcp:accept(L, 20000),
    Senders = [spawn_link(fun() -> send_n(C4, Chunk, 160), Self ! {done, self()} end) || _ <- lists:seq(1, 4)],
    Reader = spawn_link(fun() -> Self ! {read, read_slowly(S4, 0, 0)} end),
    ok = gen_tcp:controlling_process(S4, Reader),
    [receive {done, P} -> ok end || P <- Senders],
    ok = gen_tcp:close(C4),
    receive {read, {N4, _}} -> io:format("four senders, every send ok, ~p bytes received~n", [N4]) end,
    gen_tcp:close(L).

chunk() -> << <<(I rem 251)>> || I <- lists:seq(1, ?CHUNK) >>.

expected_crc(Chunk) -> lists:foldl(fun(_, Crc) -> erlang:crc32(Crc, Chunk) end, 0, lists:seq(1, ?CHUNKS)).

send_n(_C, _Chunk, 0) -> ok;
send_n(C, Chunk, N) ->
    ok = gen_tcp:send(C, Chunk),
    send_n(C, Chunk, N - 1).

read_slowly(S, N, Crc) ->
    case gen_tcp:recv(S, 0, 20000) of
        {ok, D} ->
            M = N + byte_size(D),
            M div 4194304 =/= N div 4194304 andalso timer:sleep(20),
            read_slowly(S, M, erlang:crc32(Crc, D));
        {error, closed} -> {N, Crc}
    end.

%% Until asked, tries an empty command without waiting every millisecond: false once means
%% the port was busy (its queue over the high watermark).
probe(S, Seen) ->
    receive
        {report, To} -> To ! {busy, Seen}
    after 1 ->
        Busy = try erlang:port_command(S, <<>>, [nosuspend]) =:= false catch error:badarg -> false end,
        flush_replies(),
        probe(S, Seen orelse Busy)
    end.

flush_replies() ->
    receive {inet_reply, _, _} -> flush_replies() after 0 -> ok end.
