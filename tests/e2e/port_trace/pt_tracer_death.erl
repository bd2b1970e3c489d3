%% tests/e2e/port_trace/pt_tracer_death.erl — a port's tracer that dies. Its flags on the port
%% and on new_ports are gone at once: trace_info gives {flags, []} and {tracer, []}, ports
%% opened later are not traced, the port itself works on. erlang:trace/3 with a dead tracer
%% returns 1 for a port (0 for new_ports) and sets nothing. Another tracer can then trace the
%% port, and gets its events.
-module(pt_tracer_death).
-export([main/0]).

main() ->
    T1 = spawn(fun() -> collector([]) end),
    P = open_port({spawn, "cat"}, []),
    io:format("trace p: ~p~n", [erlang:trace(P, true, [ports, running_ports, 'receive', {tracer, T1}])]),
    io:format("trace new_ports: ~p~n", [erlang:trace(new_ports, true, [ports, {tracer, T1}])]),
    info("p", P, T1),
    info("new_ports", new_ports, T1),
    kill(T1),
    io:format("t1 killed~n"),
    info("p", P, T1),
    info("new_ports", new_ports, T1),
    P2 = open_port({spawn, "cat"}, []),
    info("new port p2", P2, T1),
    true = port_command(P, "still works\n"),
    io:format("p echoes: ~p~n", [receive {P, {data, D}} -> D after 5000 -> timeout end]),
    info("p", P, T1),
    io:format("trace p, dead t1: ~p~n", [erlang:trace(P, true, [ports, {tracer, T1}])]),
    info("p", P, T1),
    io:format("trace new_ports, dead t1: ~p~n", [erlang:trace(new_ports, true, [ports, {tracer, T1}])]),
    info("new_ports", new_ports, T1),
    %% Another tracer; this one exits normally.
    T2 = spawn(fun() -> collector([]) end),
    io:format("trace p, t2: ~p~n", [erlang:trace(P, true, [ports, 'receive', {tracer, T2}])]),
    info("p", P, T2),
    true = port_command(P, "to t2\n"),
    receive {P, {data, _}} -> ok end,
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end,
    io:format("t2 got: ~p~n", [name(give(T2), [{P, p}, {self(), main}])]),
    stop(T2),
    io:format("t2 exited~n"),
    info("p", P, T2),
    true = port_close(P),
    true = port_close(P2),
    ok.

info(Label, Tracee, T) ->
    {flags, Fl} = erlang:trace_info(Tracee, flags),
    Tr = case erlang:trace_info(Tracee, tracer) of
             {tracer, T} -> the_tracer;
             {tracer, Other} -> Other
         end,
    io:format("  ~s: flags ~p, tracer ~p~n", [Label, lists:sort(Fl), Tr]).

kill(P) ->
    Ref = monitor(process, P),
    exit(P, kill),
    receive {'DOWN', Ref, process, P, _} -> ok end.

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

name(X, Names) when is_pid(X); is_port(X) ->
    case lists:keyfind(X, 1, Names) of
        {X, N} -> N;
        false -> other
    end;
name(T, Names) when is_tuple(T) -> list_to_tuple(name(tuple_to_list(T), Names));
name([H | T], Names) -> [name(H, Names) | name(T, Names)];
name(X, _) -> X.
