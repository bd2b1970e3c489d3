%% tests/e2e/shared/e2e_port_trace.erl — the scenario runner of the port-tracing programs
%% (tests/e2e/port_trace/pt_*.erl): each scenario runs in a fresh worker process with new ports
%% traced to a fresh collector (e2e_trace), and prints the events of each port it opened, in
%% order, with ports and pids replaced by names. Not a test itself: see e2e_trace.erl.
-module(e2e_port_trace).
-export([run/3, run/4]).
-export([upto_exit/1, upto_exit/2]).

-import(e2e_trace, [collector/0, messages/1, stop_wait/2, name/2]).

%% run(Title, Flags, Body): a fresh collector T traces new ports with Flags; a fresh worker W
%% (trapping exits, T in its dictionary under `tracer`) runs Body(), which returns
%% {Ports, Names, Notes}: the ports it opened as [{Port, Name}], other pids to name as
%% [{Pid, Name}], and terms to print. Once all those ports are closed, new_ports tracing is
%% switched off and trace_delivered(all) waits for their events; the notes are printed, then
%% each port's events in order, with ports and pids replaced by names (e2e_trace:name/2), then
%% those of traced processes (W, the named ones), if any. 'receive' and send events whose
%% peer is a process the test does not know (OTP's forker, when a spawned program exits) are
%% left out.
run(Title, Flags, Body) -> run(Title, Flags, Body, fun(M) -> M end).

%% run/4: each port's events also go through Fix (see pt_timestamps).
run(Title, Flags, Body, Fix) ->
    io:format("== ~s~n", [Title]),
    T = collector(),
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
    Msgs = messages(T),
    stop_wait(T, stop),
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
