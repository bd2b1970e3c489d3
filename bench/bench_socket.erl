%% bench_socket: the socket module over loopback (OTP's socket.erl over prim_socket's NIFs),
%% and gen_tcp on it ({inet_backend, socket}).
%%   socket_rtt:       a client sends 16 bytes and socket:recv/2s the echo, R round trips;
%%   gen_tcp_sock_rtt: the same through gen_tcp with {inet_backend, socket}, passive;
%%   socket_100mb:     100 MB from one process to another in 64 KB sends, the reader
%%                     taking what is there (recv/3 with length 0);
%%   socket_accept:    1,000 connect + accept + close, one after the other.
%% Format of ../shared/bench (bench/metric/result lines); run with bench/run_here.sh socket.
-module(bench_socket).
-export([main/0, main/1]).

main() -> main({20000, 100 * 1024 * 1024, 1000}).

main({Rounds, Bytes, Accepts}) ->
    {ok, L} = socket:open(inet, stream, tcp),
    ok = socket:setopt(L, {socket, reuseaddr}, true),
    ok = socket:bind(L, #{family => inet, addr => loopback, port => 0}),
    ok = socket:listen(L, 128),
    {ok, #{port := Port}} = socket:sockname(L),
    Rtt = socket_rtt(L, Port, Rounds),
    GenTcpRtt = gen_tcp_rtt(Rounds),
    {Stream, Received} = stream(L, Port, Bytes),
    Accept = accepts(L, Port, Accepts),
    socket:close(L),
    io:format("result socket rounds=~w bytes=~w received=~w sockets_left=~w~n",
              [Rounds, Bytes, Received, socket:number_of()]),
    io:format("bench socket_rtt ~w us~n", [Rtt]),
    io:format("metric socket_rtt ~w ps/msg~n", [Rtt * 1000000 div Rounds]),
    io:format("bench gen_tcp_sock_rtt ~w us~n", [GenTcpRtt]),
    io:format("metric gen_tcp_sock_rtt ~w ps/msg~n", [GenTcpRtt * 1000000 div Rounds]),
    io:format("bench socket_100mb ~w us~n", [Stream]),
    io:format("metric socket_100mb_rate ~w msg/s~n", [Bytes * 1000000 div max(1, Stream)]),
    io:format("bench socket_accept ~w us~n", [Accept]),
    io:format("metric socket_accept ~w ps/msg~n", [Accept * 1000000 div Accepts]),
    ok.

connect(Port) ->
    {ok, C} = socket:open(inet, stream, tcp),
    ok = socket:connect(C, #{family => inet, addr => loopback, port => Port}),
    C.

%% Microseconds for R round trips of 16 bytes.
socket_rtt(L, Port, R) ->
    Self = self(),
    spawn_link(fun() ->
                       {ok, S} = socket:accept(L),
                       echo(S),
                       Self ! echo_done
               end),
    C = connect(Port),
    Msg = binary:copy(<<"x">>, 16),
    T0 = now_us(),
    ping(C, Msg, R),
    T = now_us() - T0,
    socket:close(C),
    receive echo_done -> ok end,
    T.

echo(S) ->
    case socket:recv(S, 16) of
        {ok, Data} -> ok = socket:send(S, Data), echo(S);
        {error, closed} -> socket:close(S)
    end.

ping(_C, _Msg, 0) -> ok;
ping(C, Msg, N) ->
    ok = socket:send(C, Msg),
    {ok, _} = socket:recv(C, 16),
    ping(C, Msg, N - 1).

gen_tcp_rtt(R) ->
    Opts = [{inet_backend, socket}, binary, {active, false}],
    {ok, L} = gen_tcp:listen(0, Opts ++ [{ip, {127,0,0,1}}]),
    {ok, Port} = inet:port(L),
    Self = self(),
    spawn_link(fun() ->
                       {ok, S} = gen_tcp:accept(L),
                       gen_tcp_echo(S),
                       Self ! echo_done
               end),
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, Opts),
    Msg = binary:copy(<<"x">>, 16),
    T0 = now_us(),
    gen_tcp_ping(C, Msg, R),
    T = now_us() - T0,
    gen_tcp:close(C),
    receive echo_done -> ok end,
    gen_tcp:close(L),
    T.

gen_tcp_echo(S) ->
    case gen_tcp:recv(S, 16) of
        {ok, Data} -> ok = gen_tcp:send(S, Data), gen_tcp_echo(S);
        {error, closed} -> gen_tcp:close(S)
    end.

gen_tcp_ping(_C, _Msg, 0) -> ok;
gen_tcp_ping(C, Msg, N) ->
    ok = gen_tcp:send(C, Msg),
    {ok, _} = gen_tcp:recv(C, 16),
    gen_tcp_ping(C, Msg, N - 1).

%% {Microseconds, BytesReceived} for Bytes sent in 64 KB pieces.
stream(L, Port, Bytes) ->
    Chunk = binary:copy(<<"y">>, 65536),
    spawn_link(fun() ->
                       C = connect(Port),
                       send_n(C, Chunk, Bytes div 65536),
                       socket:close(C)
               end),
    {ok, S} = socket:accept(L),
    T0 = now_us(),
    Received = drain(S, 0),
    T = now_us() - T0,
    socket:close(S),
    {T, Received}.

send_n(_C, _Chunk, 0) -> ok;
send_n(C, Chunk, N) ->
    ok = socket:send(C, Chunk),
    send_n(C, Chunk, N - 1).

drain(S, Acc) ->
    case socket:recv(S, 0) of
        {ok, Data} -> drain(S, Acc + byte_size(Data));
        {error, closed} -> Acc
    end.

accepts(L, Port, N) ->
    Self = self(),
    T0 = now_us(),
    spawn_link(fun() -> connect_close(Port, N), Self ! connected end),
    accept_close(L, N),
    receive connected -> ok end,
    now_us() - T0.

connect_close(_Port, 0) -> ok;
connect_close(Port, N) ->
    C = connect(Port),
    {error, closed} = socket:recv(C, 0),
    socket:close(C),
    connect_close(Port, N - 1).

accept_close(_L, 0) -> ok;
accept_close(L, N) ->
    {ok, S} = socket:accept(L),
    socket:close(S),
    accept_close(L, N - 1).

now_us() -> erlang:monotonic_time(microsecond).
