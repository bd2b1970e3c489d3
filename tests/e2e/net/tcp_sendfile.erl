%% file:sendfile/2,5 to a gen_tcp socket (inet driver and {inet_backend, socket}) and to a
%% socket module socket: whole files, parts at an offset, raw and io-server files, a file of
%% a few megabytes, and the file position left alone; what the receiver gets is compared.
-module(tcp_sendfile).
-export([main/0]).

main() ->
    Dir = "/tmp/beamlet_tcp_sendfile_" ++ os:getpid(),
    ok = filelib:ensure_dir(Dir ++ "/"),
    Small = filename:join(Dir, "small.txt"),
    Big = filename:join(Dir, "big.bin"),
    ok = file:write_file(Small, <<"yo baby yo">>),
    ok = file:write_file(Big, crypto_free_bytes(3 * 1024 * 1024 + 17)),
    [run(Backend, Small, Big) || Backend <- [inet, socket]],
    socket_module(Small),
    ok = file:delete(Small),
    ok = file:delete(Big),
    ok = file:del_dir(Dir),
    ok.

run(Backend, Small, Big) ->
    io:format("-- ~p~n", [Backend]),
    Opts = [{inet_backend, Backend}],
    io:format("whole file: ~p~n", [transfer(Opts, fun(S) -> file:sendfile(Small, S) end)]),
    {ok, BigData} = file:read_file(Big),
    {Sent, Got} = transfer(Opts, fun(S) -> file:sendfile(Big, S) end),
    io:format("big file: ~p, received intact: ~p~n", [Sent, Got =:= BigData]),
    {ok, Raw} = file:open(Small, [read, raw, binary]),
    io:format("raw, 3 at 5: ~p~n", [transfer(Opts, fun(S) -> file:sendfile(Raw, S, 5, 3, []) end)]),
    io:format("raw position kept: ~p~n", [file:read(Raw, 4)]),
    io:format("raw, to the end from 7: ~p~n", [transfer(Opts, fun(S) -> file:sendfile(Raw, S, 7, 0, []) end)]),
    ok = file:close(Raw),
    {ok, Served} = file:open(Small, [read, binary]),
    io:format("io server, 2 at 0: ~p~n", [transfer(Opts, fun(S) -> file:sendfile(Served, S, 0, 2, []) end)]),
    ok = file:close(Served),
    io:format("chunked: ~p~n",
              [transfer(Opts, fun(S) -> file:sendfile(Big, S, 0, 100000, [{chunk_size, 4096}]) end)
               =:= {{ok, 100000}, binary:part(BigData, 0, 100000)}]).

%% {What send returned, what the other end received until the sender closed}.
transfer(Opts, Send) ->
    {ok, L} = gen_tcp:listen(0, Opts ++ [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, Port} = inet:port(L),
    Self = self(),
    Receiver = spawn_link(fun() ->
                                  {ok, A} = gen_tcp:accept(L),
                                  Self ! {self(), drain(A, [])}
                          end),
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, Opts ++ [binary, {active, false}]),
    Result = Send(C),
    ok = gen_tcp:close(C),
    Got = receive {Receiver, Data} -> Data end,
    gen_tcp:close(L),
    {Result, Got}.

drain(S, Acc) ->
    case gen_tcp:recv(S, 0, 5000) of
        {ok, B} -> drain(S, [B | Acc]);
        {error, closed} -> gen_tcp:close(S), iolist_to_binary(lists:reverse(Acc))
    end.

socket_module(Small) ->
    io:format("-- socket module~n"),
    {ok, L} = socket:open(inet, stream, tcp),
    ok = socket:bind(L, #{family => inet, addr => loopback, port => 0}),
    ok = socket:listen(L),
    {ok, #{port := Port}} = socket:sockname(L),
    {ok, C} = socket:open(inet, stream, tcp),
    ok = socket:connect(C, #{family => inet, addr => loopback, port => Port}),
    {ok, A} = socket:accept(L),
    io:format("file:sendfile: ~p~n", [file:sendfile(Small, C)]),
    ok = socket:close(C),
    io:format("received: ~p~n", [recv_all(A, <<>>)]),
    socket:close(A),
    socket:close(L).

recv_all(S, Acc) ->
    case socket:recv(S, 0, 5000) of
        {ok, B} -> recv_all(S, <<Acc/binary, B/binary>>);
        {error, closed} -> Acc
    end.

%% Bytes that are not all the same, without crypto.
crypto_free_bytes(N) ->
    << <<(I * 7919 rem 251)>> || I <- lists:seq(1, N) >>.
