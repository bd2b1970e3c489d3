%% bench_tcp: gen_tcp over loopback (OTP's gen_tcp and prim_inet over the inet driver).
%%   tcp_rtt_passive: a client sends 16 bytes and recv/2s the echo, R round trips, the echo
%%                    server in passive mode too ({packet, 0});
%%   tcp_rtt_active:  the same with {active, true} on both ends;
%%   tcp_100mb:       100 MB from one process to another in 64 KB sends, {active, once}
%%                    reader (throughput; the sender is held by the busy watermarks).
%% Format of ../shared/bench (bench/metric/result lines); run with bench/run_here.sh tcp.
-module(bench_tcp).
-export([main/0, main/1]).

main() -> main({20000, 100 * 1024 * 1024}).

main({Rounds, Bytes}) ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127,0,0,1}}, {reuseaddr, true}]),
    {ok, Port} = inet:port(L),
    Passive = rtt(L, Port, false, Rounds),
    Active = rtt(L, Port, true, Rounds),
    {Stream, Received} = stream(L, Port, Bytes),
    gen_tcp:close(L),
    io:format("result tcp rounds=~w bytes=~w received=~w ports_left=~w~n",
              [Rounds, Bytes, Received, length(erlang:ports())]),
    io:format("bench tcp_rtt_passive ~w us~n", [Passive]),
    io:format("metric tcp_rtt_passive ~w ps/msg~n", [Passive * 1000000 div Rounds]),
    io:format("bench tcp_rtt_active ~w us~n", [Active]),
    io:format("metric tcp_rtt_active ~w ps/msg~n", [Active * 1000000 div Rounds]),
    io:format("bench tcp_100mb ~w us~n", [Stream]),
    io:format("metric tcp_100mb_rate ~w msg/s~n", [Bytes * 1000000 div max(1, Stream)]),
    ok.

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

pingpong(_C, _Active, 0) -> ok;
pingpong(C, Active, N) ->
    ok = gen_tcp:send(C, <<"0123456789abcdef">>),
    {ok, <<"0123456789abcdef">>} = reply(C, Active),
    pingpong(C, Active, N - 1).

reply(C, false) -> gen_tcp:recv(C, 16);
reply(C, true) -> receive {tcp, C, D} -> {ok, D} end.

echo(S, false) ->
    case gen_tcp:recv(S, 0) of
        {ok, D} -> gen_tcp:send(S, D), echo(S, false);
        {error, closed} -> ok
    end;
echo(S, true) ->
    receive
        {tcp, S, D} -> gen_tcp:send(S, D), echo(S, true);
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
