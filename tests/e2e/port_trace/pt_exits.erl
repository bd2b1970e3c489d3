%% tests/e2e/port_trace/pt_exits.erl — how a port's end is traced (flags ports, send and
%% 'receive'): an exit signal to a port, from exit/2 or from a linked process that dies, is
%% traced as a received {Sender, close} and then closed with the signal's reason. exit/2 closes
%% a port even with reason normal and from an unlinked process; kill closes it with reason
%% kill (its links get killed). A dying owner closes it with the owner's exit reason, normal
%% included; a linked process that is not the owner and exits normally is traced as
%% {Pid, close} too, but the port stays open. A message from a process that is not the owner
%% (or one that is not a port command) kills the port with badsig: the trace shows a received
%% {Owner, close} and closed normal. A spawned program that exits: its data, the exit_status
%% and closed normal (the eof option: the eof message, and the port stays open).
-module(pt_exits).
-export([main/0]).
-import(e2e_port_trace, [run/3, upto_exit/1]).

-define(FLAGS, [ports, send, 'receive']).

main() ->
    run("exit(Port, bye) by the owner", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                true = exit(P, bye),
                {[{P, port}], [], [{inbox, upto_exit(P)}]}
        end),
    run("exit(Port, normal) by an unlinked process", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                Q = spawn(fun() -> receive {go, P} -> exit(P, normal) end end),
                Q ! {go, P},
                {[{P, port}], [{Q, q}], [{inbox, upto_exit(P)}]}
        end),
    run("exit(Port, kill)", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                true = exit(P, kill),
                {[{P, port}], [], [{inbox, upto_exit(P)}]}
        end),
    run("the owner exits (boom)", ?FLAGS,
        fun() ->
                {O, P} = owner(fun() -> exit(boom) end),
                {[{P, port}], [{O, o}], []}
        end),
    run("the owner exits normally", ?FLAGS,
        fun() ->
                {O, P} = owner(fun() -> ok end),
                {[{P, port}], [{O, o}], []}
        end),
    run("a linked process exits (boom)", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                Q = spawn(fun() -> link(P), receive die -> exit(boom) end end),
                wait_link(P, Q, true),
                Q ! die,
                {[{P, port}], [{Q, q}], [{inbox, upto_exit(P)}]}
        end),
    run("a linked process exits normally", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                Q = spawn(fun() -> link(P), receive die -> ok end end),
                wait_link(P, Q, true),
                Q ! die,
                wait_link(P, Q, false),
                Alive = erlang:port_info(P, connected) =/= undefined,
                true = port_close(P),
                {[{P, port}], [{Q, q}], [{alive, Alive}, {inbox, upto_exit(P)}]}
        end),
    run("a command from a process that is not the owner (badsig)", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                Q = spawn(fun() -> P ! {self(), {command, "x\n"}} end),
                {[{P, port}], [{Q, q}], [{inbox, upto_exit(P)}]}
        end),
    run("a message that is not a port command (badsig)", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                P ! hello,
                {[{P, port}], [], [{inbox, upto_exit(P)}]}
        end),
    run("the program exits, exit_status", ?FLAGS,
        fun() ->
                P = open_port({spawn, "echo hi"}, [exit_status]),
                {[{P, port}], [], [{inbox, upto_exit(P)}]}
        end),
    run("the program exits, no exit_status", ?FLAGS,
        fun() ->
                P = open_port({spawn, "echo hi"}, []),
                {[{P, port}], [], [{inbox, upto_exit(P)}]}
        end),
    run("the program exits with status 3", ?FLAGS,
        fun() ->
                P = open_port({spawn, "sh -c 'exit 3'"}, [exit_status]),
                {[{P, port}], [], [{inbox, upto_exit(P)}]}
        end),
    run("the program closes its output, eof option", ?FLAGS,
        fun() ->
                P = open_port({spawn, "echo hi"}, [eof]),
                Eof = receive {P, eof} -> eof after 5000 -> timeout end,
                true = port_close(P),
                {[{P, port}], [], [{eof, Eof}, {inbox, upto_exit(P)}]}
        end),
    ok.

%% A process O that opens a port, then runs Then and so exits; the port is closed by then.
owner(Then) ->
    Self = self(),
    O = spawn(fun() ->
                      P = open_port({spawn, "cat"}, []),
                      Self ! {port, self(), P},
                      receive go -> Then() end
              end),
    P = receive {port, O, P0} -> P0 end,
    O ! go,
    {O, P}.

%% Waits until Q is (or is no longer) among the port's links.
wait_link(P, Q, Linked) ->
    {links, Ls} = erlang:port_info(P, links),
    case lists:member(Q, Ls) of
        Linked -> ok;
        _ -> timer:sleep(1), wait_link(P, Q, Linked)
    end.
