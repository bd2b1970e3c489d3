%% tests/e2e/port_trace/pt_open_close.erl — the life of a port under the `ports`, `send` and
%% `'receive'` flags (erlang:trace(new_ports, ...)): open/5 names the opener and the driver
%% (for spawn ports the command line as an atom, for spawn_executable the path), then
%% getting_linked to the opener; port_close/1 is traced as a received {Pid, close} followed
%% by closed normal; a {Pid, close} message also shows the reply, traced as `send closed`
%% (the bare atom, not {Port, closed}, although the owner gets {Port, closed}); a port that
%% is already closing makes port_close/1 badarg without any event.
%% running_ports is not set here (pt_running has the in/out events).
-module(pt_open_close).
-export([main/0]).

-define(FLAGS, [ports, send, 'receive']).

main() ->
    run("port_close/1", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                R = port_close(P),
                {[{P, port}], [], [{port_close, R}, {inbox, upto_exit(P)}]}
        end),
    run("{Pid, close} message", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                P ! {self(), close},
                {[{P, port}], [], [{inbox, upto_exit(P)}]}
        end),
    run("driver names", ?FLAGS,
        fun() ->
                P1 = open_port({spawn, "cat -n"}, []),
                P2 = open_port({spawn_executable, "/bin/cat"}, []),
                P3 = open_port({spawn, "cat"}, [binary]),
                Names = [element(2, erlang:port_info(P, name)) || P <- [P1, P2, P3]],
                [true = port_close(P) || P <- [P1, P2, P3]],
                Inbox = [upto_exit(P) || P <- [P1, P2, P3]],
                {[{P1, p1}, {P2, p2}, {P3, p3}], [], [{names, Names}, {inbox, Inbox}]}
        end),
    run("close twice", ?FLAGS,
        fun() ->
                P = open_port({spawn, "cat"}, []),
                P ! {self(), close},
                R = try port_close(P) catch error:E -> {error, E} end,
                {[{P, port}], [], [{port_close, R}, {inbox, upto_exit(P)}]}
        end),
    run("open and close in another process", ?FLAGS,
        fun() ->
                Self = self(),
                O = spawn(fun() ->
                                  P = open_port({spawn, "cat"}, []),
                                  Self ! {port, P},
                                  receive close -> port_close(P) end,
                                  Self ! closed
                          end),
                P = receive {port, P0} -> P0 end,
                O ! close,
                receive closed -> ok end,
                {[{P, port}], [{O, o}], []}
        end),
    ok.

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
