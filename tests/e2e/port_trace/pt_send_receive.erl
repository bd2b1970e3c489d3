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
-import(e2e_port_trace, [run/3, upto_exit/1]).

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
