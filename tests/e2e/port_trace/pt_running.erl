%% tests/e2e/port_trace/pt_running.erl — running_ports: a port's scheduling, {trace, Port, in,
%% Cmd} and {trace, Port, out, Cmd}, around each operation, with the other port flags on.
%% Cmd names the operation: open, command, connect, close, link, unlink, info (one pair per
%% port_info/1,2 call), control, call, monitor, demonitor, and 0 for the driver's own work
%% (I/O: the data a program writes is sent between in 0 and out 0; one in 0/out 0 pair also
%% follows every open). A port that closes is not scheduled out: the last event is closed
%% (after in close, or after in 0 when its owner dies). getting_linked at open and register
%% and unregister have no in/out around them. port_set_data/2, port_get_data/1 and
%% erlang:ports/0 are not port operations. (These sequences are the same in every run on erl:
%% the worker waits 20 ms after each open and each echo, see settle/0.)
-module(pt_running).
-export([main/0]).
-import(e2e_port_trace, [run/3, upto_exit/1]).

-define(FLAGS, [ports, running_ports, send, 'receive']).

main() ->
    run("open, command, data, port_close/1", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                settle(),
                true = port_command(P, "x\n"),
                D = data(P),
                settle(),
                true = port_close(P),
                {[{P, port}], [], [{got, D}, {inbox, upto_exit(P)}]}
        end),
    run("{Pid, command} and {Pid, close} messages", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, [binary]),
                settle(),
                P ! {self(), {command, <<"y\n">>}},
                D = data(P),
                settle(),
                P ! {self(), close},
                {[{P, port}], [], [{got, D}, {inbox, upto_exit(P)}]}
        end),
    run("connect message and port_connect/2", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                settle(),
                Q = spawn(fun() -> receive stop -> ok end end),
                P ! {self(), {connect, Q}},
                C = receive {P, connected} -> connected after 5000 -> timeout end,
                true = erlang:port_connect(P, self()),
                true = port_close(P),
                Inbox = upto_exit(P),
                Q ! stop,
                {[{P, port}], [{Q, q}], [C, {inbox, Inbox}]}
        end),
    run("unlink and link", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                settle(),
                true = unlink(P),
                true = link(P),
                true = link(P),
                Self = self(),
                Q = spawn(fun() -> link(P), unlink(P), Self ! {done, self()} end),
                receive {done, Q} -> ok end,
                true = port_close(P),
                {[{P, port}], [{Q, q}], [{inbox, upto_exit(P)}]}
        end),
    run("port_info, port data, erlang:ports()", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                settle(),
                Info = erlang:port_info(P),
                {connected, C} = erlang:port_info(P, connected),
                true = erlang:port_set_data(P, stuff),
                stuff = erlang:port_get_data(P),
                true = lists:member(P, erlang:ports()),
                true = port_close(P),
                {[{P, port}], [], [{port_info, is_list(Info), C}, {inbox, upto_exit(P)}]}
        end),
    run("port_control and port_call refused by the driver", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                settle(),
                R1 = try port_control(P, 1, "x") catch error:E1 -> {error, E1} end,
                R2 = try erlang:port_call(P, 1, x) catch error:E2 -> {error, E2} end,
                true = port_close(P),
                {[{P, port}], [], [{R1, R2}, {inbox, upto_exit(P)}]}
        end),
    run("monitor and demonitor", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                settle(),
                M1 = monitor(port, P),
                true = demonitor(M1),
                M2 = monitor(port, P),
                true = port_close(P),
                Down = receive {'DOWN', M2, port, P, R} -> {'DOWN', R} after 5000 -> timeout end,
                {[{P, port}], [], [Down, {inbox, upto_exit(P)}]}
        end),
    run("exit(Port, bye) by the owner", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                settle(),
                true = exit(P, bye),
                {[{P, port}], [], [{inbox, upto_exit(P)}]}
        end),
    run("exit(Port, normal) by an unlinked process", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                settle(),
                Q = spawn(fun() -> receive {go, P} -> exit(P, normal) end end),
                Q ! {go, P},
                {[{P, port}], [{Q, q}], [{inbox, upto_exit(P)}]}
        end),
    run("the owner exits", ?FLAGS,
        fun() ->
                Self = self(),
                O = spawn(fun() ->
                                  P = open_port({spawn, "cat"}, []),
                                  settle(),
                                  Self ! {port, self(), P},
                                  receive go -> exit(boom) end
                          end),
                P = receive {port, O, P0} -> P0 end,
                O ! go,
                {[{P, port}], [{O, o}], []}
        end),
    run("register and unregister", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                settle(),
                true = register(pt_running_port, P),
                true = unregister(pt_running_port),
                true = register(pt_running_port, P),
                true = port_close(P),
                {[{P, port}], [], [{whereis, whereis(pt_running_port)}, {inbox, upto_exit(P)}]}
        end),
    run("running_ports alone, set on the port", [],
        fun() ->
                P = open_port({spawn, "cat"}, []),
                settle(),
                1 = erlang:trace(P, true, [running_ports, {tracer, get(tracer)}]),
                true = port_command(P, "z\n"),
                D = data(P),
                settle(),
                true = port_close(P),
                {[{P, port}], [], [{got, D}, {inbox, upto_exit(P)}]}
        end),
    ok.

data(P) ->
    receive {P, {data, D}} -> D after 5000 -> timeout end.

%% Gives the port time to finish its driver work (the task after open, the echo) before the
%% next operation: on erl with two schedulers a command that reaches a port while it is
%% scheduled for its driver's I/O runs in that same turn (in 0, 'receive', out 0).
settle() -> timer:sleep(20).
