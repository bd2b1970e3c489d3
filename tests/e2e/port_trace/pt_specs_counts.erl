%% tests/e2e/port_trace/pt_specs_counts.erl — erlang:trace/3 with a port, `ports`,
%% `existing_ports`, `new_ports` and `all`, `existing`, `new`, `processes`, ...: the return
%% value and what each tracee gets (trace_info flags of a port P1, of new_ports, of the calling
%% process and of new_processes). Counts are printed by what they equal: nports
%% (length(erlang:ports()) just before the call; three are the test's own), nprocs
%% (length(erlang:processes())), or their sum; erl has ports of its own (stdin/stdout...),
%% beamlet may have none. A port traced by another tracer is skipped by the spec forms and
%% not counted (nports-1).
%% OTP's rule (erl_bif_trace.c): flags are port flags (ports, running_ports), process flags
%% (procs, call, running, running_procs, exiting, garbage_collection, arity, return_to,
%% set_on_*) and modifiers (send, 'receive', silent, scheduler_id, the timestamps). With
%% all/existing the ports are counted and set if a port flag or a modifier is given, the
%% processes if a process flag or a modifier is given; with ports/existing_ports only ports,
%% and only if some flag is a port flag or a modifier (else 0); likewise processes. Each
%% existing tracee gets the whole flag list, process flags on ports included; the defaults
%% for new ports and new processes get only their own kind of flags. A single port accepts
%% every flag (and keeps them); cpu_timestamp is badarg with any port spec.
-module(pt_specs_counts).
-export([main/0]).

main() ->
    T = spawn(fun() -> collector() end),
    P1 = open_port({spawn, "cat"}, []),
    P2 = open_port({spawn, "cat"}, []),
    P3 = open_port({spawn, "cat"}, []),
    Cases =
        [{P1, [ports]},
         {ports, [ports]},
         {existing_ports, [ports]},
         {new_ports, [ports]},
         {all, [ports]},
         {existing, [running_ports]},
         {new, [ports]},
         {processes, [ports]},
         {existing_processes, [running_ports]},
         {new_processes, [ports]},
         {ports, [procs]},
         {existing_ports, [call]},
         {P1, [procs]},
         {P1, [call, exiting, garbage_collection, set_on_spawn]},
         {ports, [procs, send]},
         {ports, [silent]},
         {new_ports, [timestamp, scheduler_id]},
         {new_ports, [procs, 'receive']},
         {all, [ports, procs]},
         {all, [procs]},
         {existing, [send]},
         {new, [running_ports, running_procs]},
         {processes, [running_ports, send]},
         {ports, []},
         {P1, []},
         {new_ports, []},
         {all, []},
         {P1, [all]},
         {new_ports, [all]}],
    [one(Spec, Flags, T, P1) || {Spec, Flags} <- Cases],
    io:format("off with all: ~p~n", [count(erlang:trace(all, false, [all]), 0)]),
    %% A port traced by another tracer is skipped, and not counted.
    T2 = spawn(fun() -> collector() end),
    1 = erlang:trace(P1, true, [ports, {tracer, T2}]),
    N1 = {length(erlang:ports()), length(erlang:processes())},
    io:format("p1 traced by t2; ports [ports]: ~p~n",
              [count(erlang:trace(ports, true, [ports, {tracer, T}]), N1)]),
    io:format("  p1 ~w, tracer is t2: ~p~n", [flags(P1), erlang:trace_info(P1, tracer) =:= {tracer, T2}]),
    io:format("existing_ports [running_ports] by t2: ~p~n",
              [count(erlang:trace(existing_ports, true, [running_ports, {tracer, T2}]), N1)]),
    io:format("  p1 ~w~n", [flags(P1)]),
    _ = erlang:trace(all, false, [all]),
    T2 ! stop,
    Bad = [{P1, true, [cpu_timestamp]},
           {ports, true, [cpu_timestamp]},
           {new_ports, true, [cpu_timestamp]},
           {existing_ports, true, [cpu_timestamp]},
           {P1, true, [bogus]},
           {P1, maybe, [ports]},
           {new_ports, maybe, [ports]},
           {nonsense, true, [ports]},
           {[P1], true, [ports]}],
    [io:format("~p ~p ~p: ~p~n", [name(S, P1), How, Fl,
                                  try erlang:trace(S, How, [{tracer, T} | Fl])
                                  catch error:E -> {error, E} end])
     || {S, How, Fl} <- Bad],
    true = port_close(P1),
    io:format("closed port, on: ~p~n",
              [try erlang:trace(P1, true, [ports, {tracer, T}]) catch error:E1 -> {error, E1} end]),
    io:format("closed port, off: ~p~n",
              [try erlang:trace(P1, false, [ports]) catch error:E2 -> {error, E2} end]),
    true = port_close(P2),
    true = port_close(P3),
    T ! stop,
    ok.

one(Spec, Flags, T, P1) ->
    NPorts = length(erlang:ports()),
    NProcs = length(erlang:processes()),
    R = erlang:trace(Spec, true, [{tracer, T} | Flags]),
    io:format("~p ~p -> ~p~n", [name(Spec, P1), Flags, count(R, {NPorts, NProcs})]),
    io:format("  p1 ~w, new_ports ~w, self ~w, new_processes ~w~n",
              [flags(P1), flags(new_ports), flags(self()), flags(new_processes)]),
    _ = erlang:trace(all, false, [all]),
    ok.

count(R, _) when R =:= 0; R =:= 1 -> R;
count(R, {NPorts, NProcs}) ->
    if R =:= NPorts -> nports;
       R =:= NPorts - 1 -> 'nports-1';
       R =:= NProcs -> nprocs;
       R =:= NPorts + NProcs -> 'nports+nprocs';
       true -> {unexpected, R, NPorts, NProcs}
    end;
count(R, 0) ->
    count(R, {length(erlang:ports()), length(erlang:processes())}).

flags(Tracee) ->
    {flags, Fl} = erlang:trace_info(Tracee, flags),
    lists:sort(Fl).

name(P1, P1) -> p1;
name([P1], P1) -> [p1];
name(X, _) -> X.

collector() ->
    receive
        stop -> ok;
        _ -> collector()
    end.
