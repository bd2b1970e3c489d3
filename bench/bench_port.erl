%% bench_port: ports to an external program (cat).
%%   port_rtt: one process sends a small command to a cat port and waits for the echo,
%%             R round trips (message latency through the port and the program);
%%   port_10mb: 10 MB sent to cat in 64 KB binaries while its output is read back
%%             (throughput, with the port's back-pressure: a busy port suspends the sender).
%% Format of ../shared/bench (bench/metric/result lines); run with bench/run_here.sh port.
-module(bench_port).
-export([main/0, main/1]).

main() -> main({20000, 10 * 1024 * 1024}).

main({Rounds, Bytes}) ->
    P = open_port({spawn, "cat"}, [binary]),
    roundtrips(P, 1000),                                   % warm-up
    T0 = now_us(),
    roundtrips(P, Rounds),
    T1 = now_us(),
    port_close(P),
    Q = open_port({spawn, "cat"}, [binary]),
    Chunk = binary:copy(<<"0123456789abcdef">>, 4096),     % 64 KB
    T2 = now_us(),
    Received = stream(Q, Chunk, Bytes),
    T3 = now_us(),
    port_close(Q),
    io:format("result port rounds=~w bytes=~w received=~w ports_left=~w~n",
              [Rounds, Bytes, Received, length(erlang:ports())]),
    io:format("bench port_rtt ~w us~n", [T1 - T0]),
    io:format("metric port_rtt ~w ps/msg~n", [(T1 - T0) * 1000000 div Rounds]),
    io:format("bench port_10mb ~w us~n", [T3 - T2]),
    io:format("metric port_10mb_rate ~w msg/s~n", [Bytes * 1000000 div max(1, T3 - T2)]),
    ok.

roundtrips(_P, 0) -> ok;
roundtrips(P, N) ->
    port_command(P, <<"ping">>),
    receive {P, {data, <<"ping">>}} -> ok end,
    roundtrips(P, N - 1).

%% Sends Total bytes in chunks, reading what comes back as it goes; then the rest.
stream(P, Chunk, Total) ->
    Sent = send_chunks(P, Chunk, Total, 0, 0),
    drain(P, Total, Sent).

send_chunks(_P, _Chunk, Total, Sent, Got) when Sent >= Total -> Got;
send_chunks(P, Chunk, Total, Sent, Got) ->
    port_command(P, Chunk),
    send_chunks(P, Chunk, Total, Sent + byte_size(Chunk), take(P, Got)).

%% Takes what has arrived, without waiting.
take(P, Got) ->
    receive {P, {data, D}} -> take(P, Got + byte_size(D)) after 0 -> Got end.

drain(_P, Total, Got) when Got >= Total -> Got;
drain(P, Total, Got) ->
    receive {P, {data, D}} -> drain(P, Total, Got + byte_size(D)) end.

now_us() -> erlang:monotonic_time(microsecond).
