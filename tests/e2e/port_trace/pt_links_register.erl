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
