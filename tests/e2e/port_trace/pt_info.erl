%% tests/e2e/port_trace/pt_info.erl — erlang:trace_info/2 and erlang:trace_delivered/1 with
%% ports. trace_info(Port, flags | tracer) gives {flags, List} and {tracer, Pid}, or
%% {flags, []} and {tracer, []} when the port is not traced (also when it was set with no
%% flags at all); a closed port gives the bare atom undefined. new_ports has flags and tracer
%% too (new and new_processes are the process defaults); ports, existing_ports, all, existing
%% and the function items (traced, match_spec, meta, call_count, call_time, all) are badarg
%% for ports. trace_delivered/1 takes a pid or all, not a port. One tracer per port: another
%% tracer, named or the caller by default, is badarg (the same tracer may add flags); turning
%% flags off needs no tracer, or the same one.
-module(pt_info).
-export([main/0]).
-import(e2e_trace, [collector/0, stop_wait/2, name/2]).

main() ->
    quiet_logger(),
    T1 = collector(),
    T2 = collector(),
    Names = [{T1, t1}, {T2, t2}, {self(), main}],
    P = open_port({spawn, "cat"}, []),
    Names1 = [{P, p} | Names],
    show("untraced", P, Names1),
    t("trace p, t1", fun() -> erlang:trace(P, true, [ports, send, {tracer, T1}]) end),
    show("traced", P, Names1),
    t("trace p, t2", fun() -> erlang:trace(P, true, [running_ports, {tracer, T2}]) end),
    t("trace p, the caller", fun() -> erlang:trace(P, true, [running_ports]) end),
    t("trace p, t1 again", fun() -> erlang:trace(P, true, ['receive', {tracer, T1}]) end),
    show("traced", P, Names1),
    t("off naming t2", fun() -> erlang:trace(P, false, [send, {tracer, T2}]) end),
    t("off naming t1", fun() -> erlang:trace(P, false, [send, {tracer, T1}]) end),
    t("off", fun() -> erlang:trace(P, false, ['receive']) end),
    show("ports only", P, Names1),
    t("off", fun() -> erlang:trace(P, false, [ports]) end),
    show("all off", P, Names1),
    t("trace p, t2, no flags", fun() -> erlang:trace(P, true, [{tracer, T2}]) end),
    show("no flags", P, Names1),
    t("trace p, the caller", fun() -> erlang:trace(P, true, [ports]) end),
    show("caller's", P, Names1),
    t("off", fun() -> erlang:trace(P, false, [all]) end),
    %% The defaults for new ports.
    show("new_ports", new_ports, Names1),
    t("trace new_ports, t1", fun() -> erlang:trace(new_ports, true, [ports, 'receive', {tracer, T1}]) end),
    show("new_ports", new_ports, Names1),
    show("new", new, Names1),
    show("new_processes", new_processes, Names1),
    P2 = open_port({spawn, "cat"}, []),
    Names2 = [{P2, p2} | Names1],
    show("new port p2", P2, Names2),
    t("off new_ports", fun() -> erlang:trace(new_ports, false, [all]) end),
    show("new_ports", new_ports, Names2),
    show("p2", P2, Names2),
    t("trace new_ports, t2, no flags", fun() -> erlang:trace(new_ports, true, [{tracer, T2}]) end),
    show("new_ports", new_ports, Names2),
    %% Items and tracees that are not for ports.
    [t(io_lib:format("trace_info(p, ~p)", [I]), fun() -> erlang:trace_info(P, I) end)
     || I <- [traced, match_spec, meta, meta_match_spec, call_count, call_time, all, bogus]],
    [t(io_lib:format("trace_info(~p, flags)", [W]), fun() -> erlang:trace_info(W, flags) end)
     || W <- [ports, existing_ports, all, existing, processes, existing_processes, bogus]],
    %% trace_delivered/1.
    t("trace_delivered(p)", fun() -> erlang:trace_delivered(P) end),
    t("trace_delivered(new_ports)", fun() -> erlang:trace_delivered(new_ports) end),
    Ref = erlang:trace_delivered(all),
    io:format("trace_delivered(all): ~p~n",
              [receive {trace_delivered, all, Ref} -> ok after 5000 -> timeout end]),
    %% A closed port.
    1 = erlang:trace(P2, true, [ports, {tracer, T1}]),
    true = port_close(P),
    true = port_close(P2),
    show("closed p", P, Names2),
    show("closed p2", P2, Names2),
    [stop_wait(X, stop) || X <- [T1, T2]],
    ok.

show(Label, Tracee, Names) ->
    F = case erlang:trace_info(Tracee, flags) of
            {flags, Fl} -> {flags, lists:sort(Fl)};
            Other -> Other
        end,
    io:format("~s: ~p ~p~n", [Label, F, name(erlang:trace_info(Tracee, tracer), Names)]).

t(Label, F) ->
    R = try F() of V -> V catch error:E -> {error, E} end,
    io:format("~s: ~p~n", [Label, R]).

%% erl logs "** can only have one tracer per process" for each refused erlang:trace/3.
quiet_logger() ->
    logger:set_primary_config(level, none).
