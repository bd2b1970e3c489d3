%% tests/e2e/port_trace/pt_links_register.erl — links and names of ports: the port traced with
%% `ports` (new_ports), the worker with `procs`. open_port/2 links: the port reports
%% getting_linked (after open), the opener link. unlink/1 and link/1 by a process: the port
%% reports getting_unlinked/getting_linked with the process, the process unlink/link with the
%% port; link/1 when already linked (by open_port/2) is reported by the process (link) but
%% not by the port. port_connect/2 links the new owner (getting_linked); the {connect, Pid}
%% message does not. When a port closes, a linked process that handles the exit signal
%% reports getting_unlinked with the port; the port reports nothing for its links.
%% register/2 and unregister/1 of a port are reported by the port (not by the process that
%% calls them); a registered port that closes reports closed and then unregister.
-module(pt_links_register).
-export([main/0]).
-import(e2e_port_trace, [run/3, upto_exit/1, upto_exit/2]).

-define(FLAGS, [ports]).

main() ->
    run("open_port/2 and port_close/1", ?FLAGS,
        fun() ->
                traced(),
                P = open_port({spawn, "cat"}, []),
                true = port_close(P),
                Inbox = upto_exit(P),
                untraced(),
                {[{P, port}], [], [{inbox, Inbox}]}
        end),
    run("unlink/1 and link/1 by the owner", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                traced(),
                true = link(P),
                true = unlink(P),
                true = link(P),
                true = unlink(P),
                true = port_close(P),
                untraced(),
                {[{P, port}], [], [{inbox, upto_exit(P, 100)}]}
        end),
    run("link/1 and unlink/1 by another process", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                Self = self(),
                Q = spawn(fun() ->
                                  true = link(P),
                                  true = unlink(P),
                                  true = link(P),
                                  Self ! {done, self()},
                                  receive stop -> ok end
                          end),
                receive {done, Q} -> ok end,
                true = port_close(P),
                Inbox = upto_exit(P),
                Q ! stop,
                {[{P, port}], [{Q, q}], [{inbox, Inbox}]}
        end),
    run("port_connect/2 and the connect message", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                Q1 = spawn(fun() -> receive stop -> ok end end),
                Q2 = spawn(fun() -> receive stop -> ok end end),
                traced(),
                true = erlang:port_connect(P, Q1),
                P ! {Q1, {connect, Q2}},
                {links, Links} = erlang:port_info(P, links),
                true = port_close(P),
                Inbox = upto_exit(P),
                untraced(),
                [Q ! stop || Q <- [Q1, Q2]],
                {[{P, port}], [{Q1, q1}, {Q2, q2}], [{links, lists:sort(Links)}, {inbox, Inbox}]}
        end),
    run("exit(Port, bye) by another process", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                traced(),
                Q = spawn(fun() -> exit(P, bye) end),
                Inbox = upto_exit(P),
                untraced(),
                {[{P, port}], [{Q, q}], [{inbox, Inbox}]}
        end),
    run("register/2 and unregister/1", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                traced(),
                true = register(pt_links_port, P),
                Where = whereis(pt_links_port),
                true = unregister(pt_links_port),
                true = register(pt_links_port, P),
                Info = erlang:port_info(P, registered_name),
                true = port_close(P),
                Inbox = upto_exit(P),
                untraced(),
                {[{P, port}], [], [{whereis, Where}, Info, {whereis, whereis(pt_links_port)},
                                   {inbox, Inbox}]}
        end),
    run("a registered port whose owner exits", ?FLAGS,
        fun() ->
                Self = self(),
                O = spawn(fun() ->
                                  P = open_port({spawn, "cat"}, []),
                                  true = register(pt_links_port, P),
                                  Self ! {port, self(), P},
                                  receive go -> exit(boom) end
                          end),
                P = receive {port, O, P0} -> P0 end,
                O ! go,
                {[{P, port}], [{O, o}], []}
        end),
    ok.

%% procs tracing of the worker itself, to the scenario's tracer; off again before it
%% returns (its exit is not part of the test).
traced() -> 1 = erlang:trace(self(), true, [procs, {tracer, get(tracer)}]).
untraced() -> 1 = erlang:trace(self(), false, [procs]).
