%% bench_tcp: gen_tcp over loopback (OTP's gen_tcp and prim_inet over the inet driver).
%%   tcp_rtt_passive: a client sends 100 bytes and recv/2s the echo, R round trips, the echo
%%                    server in passive mode too ({packet, 0});
%%   tcp_rtt_once:    the same with {active, once} on both ends, re-armed after each message;
%%   tcp_rtt_active:  the same with {active, true} on both ends;
%%   tcp_100mb:       100 MB from one process to another in 64 KB sends, {active, once}
%%                    reader (throughput; the sender is held by the busy watermarks);
%%   tcp_accept:      10,000 connect + accept + close, one after the other;
%%   tcp_idle_conn:   resident memory per idle connection (both ends in this VM), over 1000.
%% Format of ../shared/bench (bench/metric/result lines); run with bench/run_here.sh tcp.
-module(bench_tcp).
-export([main/0, main/1]).

main() -> main({20000, 100 * 1024 * 1024}).

main({Rounds, Bytes}) ->
    main({Rounds, Bytes, 10000, 1000});
main({Rounds, Bytes, Accepts, Idle}) ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127,0,0,1}}, {reuseaddr, true}]),
    {ok, Port} = inet:port(L),
    Passive = rtt(L, Port, false, Rounds),
    Once = rtt(L, Port, once, Rounds),
    Active = rtt(L, Port, true, Rounds),
    {Stream, Received} = stream(L, Port, Bytes),
    Accept = accepts(L, Port, Accepts),
    IdleBytes = idle(L, Port, Idle),
    gen_tcp:close(L),
    io:format("result tcp rounds=~w bytes=~w received=~w ports_left=~w~n",
              [Rounds, Bytes, Received, length(erlang:ports())]),
    io:format("bench tcp_rtt_passive ~w us~n", [Passive]),
    io:format("metric tcp_rtt_passive ~w ps/msg~n", [Passive * 1000000 div Rounds]),
    io:format("bench tcp_rtt_once ~w us~n", [Once]),
    io:format("metric tcp_rtt_once ~w ps/msg~n", [Once * 1000000 div Rounds]),
    io:format("bench tcp_rtt_active ~w us~n", [Active]),
    io:format("metric tcp_rtt_active ~w ps/msg~n", [Active * 1000000 div Rounds]),
    io:format("bench tcp_100mb ~w us~n", [Stream]),
    io:format("metric tcp_100mb_rate ~w msg/s~n", [Bytes * 1000000 div max(1, Stream)]),
    io:format("bench tcp_accept ~w us~n", [Accept]),
    io:format("metric tcp_accept ~w ps/msg~n", [Accept * 1000000 div Accepts]),
    io:format("metric tcp_idle_conn ~w bytes/conn~n", [IdleBytes]),
    ok.

%% Microseconds for N connections made, accepted and closed one after the other.
accepts(L, Port, N) ->
    Self = self(),
    T0 = now_us(),
    spawn_link(fun() -> connect_close(Port, N), Self ! connected end),
    accept_close(L, N),
    receive connected -> ok end,
    now_us() - T0.

connect_close(_Port, 0) -> ok;
connect_close(Port, N) ->
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
    {error, closed} = gen_tcp:recv(C, 0),
    gen_tcp:close(C),
    connect_close(Port, N - 1).

accept_close(_L, 0) -> ok;
accept_close(L, N) ->
    {ok, S} = gen_tcp:accept(L),
    gen_tcp:close(S),
    accept_close(L, N - 1).

%% Resident bytes per connection for N idle connections (both ends), after a collection.
idle(L, Port, N) ->
    erlang:garbage_collect(),
    R0 = rss(),
    Self = self(),
    {Client, Ref} =
        spawn_monitor(fun() -> Cs = [C || _ <- lists:seq(1, N), {ok, C} <- [gen_tcp:connect({127,0,0,1}, Port, [binary])]],
                               Self ! {clients, length(Cs)}, receive done -> [gen_tcp:close(C) || C <- Cs] end end),
    Ss = [S || _ <- lists:seq(1, N), {ok, S} <- [gen_tcp:accept(L)]],
    receive {clients, N} -> ok end,
    erlang:garbage_collect(),
    timer:sleep(100),
    R1 = rss(),
    [gen_tcp:close(S) || S <- Ss],
    Client ! done,
    receive {'DOWN', Ref, _, _, _} -> ok end,
    (R1 - R0) div N.

rss() ->
    {ok, Statm} = file:read_file("/proc/self/statm"),
    [_, Resident | _] = binary:split(Statm, <<" ">>, [global]),
    binary_to_integer(Resident) * 4096.

%% Microseconds for Rounds round trips after a warm-up.
rtt(L, Port, Active, Rounds) ->
    Self = self(),
    spawn_link(fun() ->
                       {ok, S} = gen_tcp:accept(L),
                       ok = inet:setopts(S, [{active, Active}]),
                       Self ! accepted,
                       echo(S, Active)
               end),
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, Active}, {nodelay, true}]),
    receive accepted -> ok end,
    ok = inet:setopts(C, [{nodelay, true}]),
    pingpong(C, Active, 1000),
    T0 = now_us(),
    pingpong(C, Active, Rounds),
    T1 = now_us(),
    gen_tcp:close(C),
    T1 - T0.

-define(MSG, <<"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123">>).

pingpong(_C, _Active, 0) -> ok;
pingpong(C, Active, N) ->
    ok = gen_tcp:send(C, ?MSG),
    {ok, ?MSG} = reply(C, Active, <<>>),
    pingpong(C, Active, N - 1).

%% The 100 bytes of the echo (a message may bring part of them).
reply(C, false, <<>>) -> gen_tcp:recv(C, byte_size(?MSG));
reply(C, Active, Acc) ->
    receive
        {tcp, C, D} ->
            Active =:= once andalso inet:setopts(C, [{active, once}]),
            case <<Acc/binary, D/binary>> of
                All when byte_size(All) >= byte_size(?MSG) -> {ok, All};
                Part -> reply(C, Active, Part)
            end
    end.

echo(S, false) ->
    case gen_tcp:recv(S, 0) of
        {ok, D} -> gen_tcp:send(S, D), echo(S, false);
        {error, closed} -> ok
    end;
echo(S, Active) ->
    receive
        {tcp, S, D} ->
            gen_tcp:send(S, D),
            Active =:= once andalso inet:setopts(S, [{active, once}]),
            echo(S, Active);
        {tcp_closed, S} -> ok
    end.

stream(L, Port, Bytes) ->
    Self = self(),
    Chunk = binary:copy(<<"0123456789abcdef">>, 4096),
    spawn_link(fun() ->
                       {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
                       receive go -> ok end,
                       send_all(C, Chunk, Bytes),
                       Self ! sent,
                       receive done -> gen_tcp:close(C) end
               end),
    {ok, S} = gen_tcp:accept(L),
    T0 = now_us(),
    broadcast_go(),
    Got = read(S, Bytes, 0),
    T1 = now_us(),
    receive sent -> ok end,
    [P ! done || P <- linked_pids()],
    gen_tcp:close(S),
    {T1 - T0, Got}.

broadcast_go() -> [P ! go || P <- linked_pids()].
linked_pids() -> [P || P <- element(2, process_info(self(), links)), is_pid(P)].

send_all(_C, _Chunk, Left) when Left =< 0 -> ok;
send_all(C, Chunk, Left) -> ok = gen_tcp:send(C, Chunk), send_all(C, Chunk, Left - byte_size(Chunk)).

read(_S, Total, Got) when Got >= Total -> Got;
read(S, Total, Got) ->
    ok = inet:setopts(S, [{active, once}]),
    receive {tcp, S, D} -> read(S, Total, Got + byte_size(D)) end.

now_us() -> erlang:monotonic_time(microsecond).
