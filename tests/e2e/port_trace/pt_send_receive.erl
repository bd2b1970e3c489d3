%% tests/e2e/port_trace/pt_send_receive.erl — send and 'receive' events of ports. What a port
%% gets is traced as {trace, Port, 'receive', {Sender, What}}: a command's data always as a
%% binary (the iolist flattened, also for list-mode ports and for port_command/2,3 and packet
%% ports, without the packet header), {connect, Pid}, {control, {Op, Binary}} (port_control/3,
%% even when the driver then refuses it: badarg). What a port sends to its owner or connected
%% process is {trace, Port, send, Msg, To} with Msg as delivered ({Port, {data, D}},
%% {Port, connected}); port_connect/2 traces a send of {Port, connected} to the caller
%% although no message arrives. Data for a connected process that is dead is not traced at
%% all. Trace patterns for send and 'receive' (erlang:trace_pattern/3) do not apply to ports.
-module(pt_send_receive).
-export([main/0]).

-define(FLAGS, [send, 'receive']).

main() ->
    run("port_command/2, list mode", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                true = port_command(P, ["ab", <<"c">>, $\n]),
                D = data(P),
                true = port_close(P),
                {[{P, port}], [], [{got, D}, {inbox, upto_exit(P)}]}
        end),
    run("port_command/3, binary mode", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, [binary]),
                true = port_command(P, [<<"a">>, ["b", [$c]], "\n"], []),
                D = data(P),
                true = port_close(P),
                {[{P, port}], [], [{got, D}, {inbox, upto_exit(P)}]}
        end),
    run("{Pid, {command, Data}} message", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                P ! {self(), {command, [<<"x">>, "y\n"]}},
                D = data(P),
                true = port_close(P),
                {[{P, port}], [], [{got, D}, {inbox, upto_exit(P)}]}
        end),
    run("port_command/2 from a process that is not the owner", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                Self = self(),
                Q = spawn(fun() -> true = port_command(P, "q\n"), Self ! {done, self()} end),
                receive {done, Q} -> ok end,
                D = data(P),
                true = port_close(P),
                {[{P, port}], [{Q, q}], [{got, D}, {inbox, upto_exit(P)}]}
        end),
    run("{Pid, {connect, NewOwner}} message", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                Self = self(),
                Q = spawn(fun() -> receive {P, {data, D}} -> Self ! {q_got, D} end end),
                P ! {self(), {connect, Q}},
                C = receive {P, connected} -> connected after 5000 -> timeout end,
                true = port_command(P, "to q\n"),
                QGot = receive {q_got, D} -> D after 5000 -> timeout end,
                true = port_close(P),
                {[{P, port}], [{Q, q}], [{C, {q_got, QGot}}, {inbox, upto_exit(P)}]}
        end),
    run("port_connect/2", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                Q = spawn(fun() -> receive stop -> ok end end),
                R1 = erlang:port_connect(P, Q),
                R2 = erlang:port_connect(P, self()),
                true = port_close(P),
                Inbox = upto_exit(P),
                Q ! stop,
                {[{P, port}], [{Q, q}], [{port_connect, R1, R2}, {inbox, Inbox}]}
        end),
    run("line mode", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, [{line, 4}]),
                true = port_command(P, "abcdefghij\n"),
                D = [data(P), data(P), data(P)],
                true = port_close(P),
                {[{P, port}], [], [{got, D}, {inbox, upto_exit(P)}]}
        end),
    run("packet 2", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, [binary, {packet, 2}]),
                true = port_command(P, ["hel", <<"lo">>]),
                D = data(P),
                true = port_close(P),
                {[{P, port}], [], [{got, D}, {inbox, upto_exit(P)}]}
        end),
    run("port_control/3 refused by the driver", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                R = try port_control(P, 1, "x") catch error:E -> {error, E} end,
                true = port_close(P),
                {[{P, port}], [], [{port_control, R}, {inbox, upto_exit(P)}]}
        end),
    run("data for a dead connected process", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                Q = spawn(fun() -> receive stop -> ok end end),
                P ! {self(), {connect, Q}},
                receive {P, connected} -> ok end,
                Ref = monitor(process, Q),
                Q ! stop,
                receive {'DOWN', Ref, process, Q, _} -> ok end,
                true = port_command(P, "lost\n"),
                timer:sleep(100),
                Connected = erlang:port_info(P, connected),
                true = port_close(P),
                {[{P, port}], [{Q, q}], [Connected, {inbox, upto_exit(P)}]}
        end),
    %% Patterns that select no message at all: the port's events are still traced.
    1 = erlang:trace_pattern(send, [{['_', nothing], [], []}], []),
    1 = erlang:trace_pattern('receive', false, []),
    run("send and 'receive' trace patterns", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                true = port_command(P, "x\n"),
                D = data(P),
                P ! {self(), close},
                {[{P, port}], [], [{got, D}, {inbox, upto_exit(P)}]}
        end),
    1 = erlang:trace_pattern(send, true, []),
    1 = erlang:trace_pattern('receive', true, []),
    ok.

data(P) ->
    receive {P, {data, D}} -> D after 5000 -> timeout end.

%% ---- scenario runner ----

%% run(Title, Flags, Body): a fresh collector T traces new ports with Flags; a fresh worker W
%% (trapping exits, T in its dictionary under `tracer`) runs Body(), which returns
%% {Ports, Names, Notes}: the ports it opened as
%% [{Port, Name}], other pids to name as [{Pid, Name}], and terms to print. Once all those
%% ports are closed, new_ports tracing is switched off and trace_delivered(all) waits for
%% their events; each port's events are printed in order, with ports and pids replaced by
%% names, then those of traced processes (W, the named ones), if any. 'receive' and send events whose peer is a process the test does not know (OTP's
%% forker, when a spawned program exits) are left out.
run(Title, Flags, Body) -> run(Title, Flags, Body, fun(M) -> M end).

%% run/4: each port's events also go through Fix (see pt_timestamps).
run(Title, Flags, Body, Fix) ->
    io:format("== ~s~n", [Title]),
    T = spawn(fun() -> collector([]) end),
    0 = erlang:trace(new_ports, true, [{tracer, T} | Flags]),
    Main = self(),
    W = spawn(fun() ->
                      process_flag(trap_exit, true),
                      put(tracer, T),
                      Main ! {self(), Body()}
              end),
    {Ports, Names0, Notes} = receive {W, R} -> R after 10000 -> exit({timeout, Title}) end,
    wait_closed([P || {P, _} <- Ports], 5000),
    0 = erlang:trace(new_ports, false, [all]),
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end,
    Msgs = give(T),
    stop(T),
    Names = Ports ++ Names0 ++ [{W, w}, {Main, main}, {T, tracer}],
    [io:format(" ~p~n", [name(N, Names)]) || N <- Notes],
    lists:foreach(
      fun({X, Name}) ->
              Evs = [M || M <- Msgs, element(2, M) =:= X, known_peer(M, Names)],
              case is_port(X) orelse Evs =/= [] of
                  true ->
                      io:format(" ~p:~n", [Name]),
                      [io:format("  ~p~n", [name(M, Names)]) || M <- Fix(Evs)];
                  false ->
                      ok
              end
      end, Ports ++ [{W, w} | Names0]).

known_peer(M, Names) ->
    case element(3, M) of
        'receive' -> known(element(1, element(4, M)), Names);
        send -> known(element(5, M), Names);
        _ -> true
    end.

known(P, Names) -> not is_pid(P) orelse lists:keymember(P, 1, Names).

%% The messages about P in the worker's queue up to its {'EXIT', P, _} (sorted: their
%% relative order is not what these tests check), then whatever else arrives within 20 ms;
%% all that arrives within Timeout if there is no 'EXIT'.
upto_exit(P) -> upto_exit(P, 5000).
upto_exit(P, Timeout) -> lists:sort(upto_exit_(P, Timeout)).
upto_exit_(P, Timeout) ->
    receive
        {'EXIT', P, _} = M -> [M | rest(P)];
        {P, _} = M -> [M | upto_exit_(P, Timeout)]
    after Timeout -> []
    end.

rest(P) ->
    receive
        {'EXIT', P, _} = M -> [M | rest(P)];
        {P, _} = M -> [M | rest(P)]
    after 20 -> []
    end.

wait_closed(_, 0) -> io:format("ports still open~n");
wait_closed(Ports, N) ->
    case [P || P <- Ports, lists:member(P, erlang:ports())] of
        [] -> ok;
        _ -> timer:sleep(1), wait_closed(Ports, N - 1)
    end.

collector(Acc) ->
    receive
        {give, From} -> From ! {msgs, self(), lists:reverse(Acc)}, collector([]);
        stop -> ok;
        M -> collector([M | Acc])
    end.

give(T) ->
    T ! {give, self()},
    receive {msgs, T, Ms} -> Ms end.

stop(P) ->
    Ref = monitor(process, P),
    P ! stop,
    receive {'DOWN', Ref, process, P, _} -> ok end.

%% Ports and pids replaced by their names (other for unknown ones).
name(X, Names) when is_pid(X); is_port(X) ->
    case lists:keyfind(X, 1, Names) of
        {X, N} -> N;
        false -> other
    end;
name(R, _) when is_reference(R) -> ref;
name(F, _) when is_function(F) -> 'fun';
name(T, Names) when is_tuple(T) -> list_to_tuple(name(tuple_to_list(T), Names));
name([H | T], Names) -> [name(H, Names) | name(T, Names)];
name(X, _) -> X.
