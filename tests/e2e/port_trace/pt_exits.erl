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
