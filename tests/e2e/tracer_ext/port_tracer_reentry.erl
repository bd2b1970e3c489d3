%% An Erlang tracer module (beyond OTP) that acts on the very port it traces: for each event of
%% a traced cat port it reads port_info and sends the port a command. A port operation from
%% inside the port's own turn waits for the port's next turn (a command) or is read without
%% the port's lock (port_info): nothing deadlocks, every command reaches cat once, in order.
-module(port_tracer_reentry).
-export([main/0, enabled/3, trace/5]).

enabled(_, _, _) -> trace.

%% On the port's first 'receive' of each command from main, echo a marker through the port.
trace('receive', {Collector, Port}, Port, {_, {command, <<"x", N>>}}, _) ->
    {connected, _} = erlang:port_info(Port, connected),
    true = port_command(Port, <<"y", N>>),
    Collector ! {echoed, N},
    ok;
trace(_, _, _, _, _) -> ok.

main() ->
    P = open_port({spawn, "cat"}, [binary]),
    1 = erlang:trace(P, true, ['receive', ports, running_ports, {tracer, ?MODULE, {self(), P}}]),
    [port_command(P, <<"x", N>>) || N <- lists:seq($0, $9)],
    Got = read(P, 40, <<>>),
    io:format("through cat: ~s~n", [Got]),
    io:format("xs in order: ~p~n", [[C || <<"x", C>> <= only(Got, $x)] =:= lists:seq($0, $9)]),
    io:format("ys in order: ~p~n", [[C || <<"y", C>> <= only(Got, $y)] =:= lists:seq($0, $9)]),
    Echoed = [receive {echoed, N} -> N after 2000 -> timeout end || _ <- lists:seq(1, 10)],
    io:format("tracer echoed: ~s~n", [Echoed]),
    io:format("close: ~p~n", [port_close(P)]),
    %% The system's own ports (OTP's user and standard_error on its boot) stay.
    io:format("cat port left: ~p~n", [lists:member(P, erlang:ports())]).

%% Until [Bytes] bytes came back.
read(_P, Bytes, Acc) when byte_size(Acc) >= Bytes -> Acc;
read(P, Bytes, Acc) ->
    receive {P, {data, D}} -> read(P, Bytes, <<Acc/binary, D/binary>>)
    after 3000 -> Acc
    end.

%% The two-byte records of [Bin] that start with [Tag].
only(Bin, Tag) -> << <<T, C>> || <<T, C>> <= Bin, T =:= Tag >>.
