%% tests/e2e/port_trace/pt_tracer_death.erl — a port's tracer that dies. Its flags on the port
%% and on new_ports are gone at once: trace_info gives {flags, []} and {tracer, []}, ports
%% opened later are not traced, the port itself works on. erlang:trace/3 with a dead tracer
%% returns 1 for a port (0 for new_ports) and sets nothing. Another tracer can then trace the
%% port, and gets its events.
-module(pt_tracer_death).
-export([main/0]).
-import(e2e_trace, [collector/0, messages/1, stop_wait/2, name/2]).

main() ->
    T1 = collector(),
    P = open_port({spawn, "cat"}, []),
    io:format("trace p: ~p~n", [erlang:trace(P, true, [ports, running_ports, 'receive', {tracer, T1}])]),
    io:format("trace new_ports: ~p~n", [erlang:trace(new_ports, true, [ports, {tracer, T1}])]),
    info("p", P, T1),
    info("new_ports", new_ports, T1),
    stop_wait(T1, kill),
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
    T2 = collector(),
    io:format("trace p, t2: ~p~n", [erlang:trace(P, true, [ports, 'receive', {tracer, T2}])]),
    info("p", P, T2),
    true = port_command(P, "to t2\n"),
    receive {P, {data, _}} -> ok end,
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end,
    io:format("t2 got: ~p~n", [name(messages(T2), [{P, p}, {self(), main}])]),
    stop_wait(T2, stop),
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
