-module(ev_flags_all).
-export([main/0]).

%% Process trace flags on the legacy API (OTP 25).
%% - trace(P, true, [all, {tracer, T}]) returns 1; trace_info(P, flags) then lists 21 flags in
%%   the fixed internal order printed below (not alphabetical; `all` includes silent, running,
%%   ports, running_ports, running_procs, ... but not cpu_timestamp); turning them off with
%%   trace(P, false, [all]) returns 1 and leaves {flags, []} and {tracer, []}.
%% - Switching off a flag that is not set (even on an untraced process) returns 1.
%% - Procs forms: all, processes, existing, existing_processes, new, new_processes are all valid
%%   on OTP 25 for trace/3. The `existing*` forms (and all/processes) return the number of
%%   existing processes (all/existing also count ports for port flags like send), new* return 0.
%%   Spawning 5 processes raises the existing_processes count by exactly 5.
%% - trace_info accepts new and new_processes (flags of future processes) but is badarg for
%%   all, processes, existing. trace_info on a dead pid returns undefined; trace/3 on one is badarg.
%% - badarg: unknown flag, bad pid spec (atom, tuple), How not a boolean, {tracer, NotAPid},
%%   flags not a (proper) list, cpu_timestamp with a pid or new/existing/processes. With `all`,
%%   cpu_timestamp is accepted; trace(all, true, [cpu_timestamp]) returns 0 (no per-process flag
%%   in the list, so no process is counted); an empty flag list with `all` also returns 0, while
%%   with a single pid it returns 1.

main() ->
    T = spawn(fun sink/0),
    P = spawn(fun idle/0),
    Names = [{T, tracer}, {P, p}, {self(), main}],
    io:format("trace all: ~p~n", [erlang:trace(P, true, [all, {tracer, T}])]),
    {flags, Fl} = erlang:trace_info(P, flags),
    io:format("flags as returned: ~p~n", [Fl]),
    io:format("flags sorted: ~p~n", [lists:sort(Fl)]),
    io:format("count: ~p~n", [length(Fl)]),
    io:format("tracer: ~p~n", [tracer(P, Names)]),
    io:format("trace off all: ~p~n", [erlang:trace(P, false, [all])]),
    info("after off", P, Names),
    io:format("off unset flag: ~p~n", [erlang:trace(P, false, [send])]),
    info("after off unset", P, Names),
    io:format("subset on: ~p~n", [erlang:trace(P, true, [timestamp, call, 'receive', procs, send, {tracer, T}])]),
    {flags, Fl2} = erlang:trace_info(P, flags),
    io:format("subset as returned: ~p~n", [Fl2]),
    io:format("remove send: ~p~n", [erlang:trace(P, false, [send])]),
    info("after remove send", P, Names),
    io:format("remove rest: ~p~n", [erlang:trace(P, false, [timestamp, call, 'receive', procs])]),
    info("after remove rest", P, Names),
    N = erlang:trace(all, false, [all]),
    io:format("trace(all, false, [all]) integer >= 1: ~p~n", [is_integer(N) andalso N >= 1]),
    %% Procs forms.
    [begin
         R = t(fun() -> erlang:trace(Spec, false, [send]) end),
         io:format("~p: ~p~n", [Spec, shape(R)])
     end || Spec <- [all, processes, existing, existing_processes, new, new_processes]],
    Before = erlang:trace(existing_processes, false, [send]),
    Extra = [spawn(fun idle/0) || _ <- lists:seq(1, 5)],
    After = erlang:trace(existing_processes, false, [send]),
    AfterAll = erlang:trace(processes, false, [send]),
    AfterEx = erlang:trace(existing, false, [send]),
    io:format("existing_processes diff after 5 spawns: ~p~n", [After - Before]),
    io:format("processes equals existing_processes: ~p~n", [AfterAll =:= After]),
    io:format("existing >= existing_processes: ~p~n", [AfterEx >= After]),
    [stop_wait(X) || X <- Extra],
    io:format("diff after stopping them: ~p~n", [erlang:trace(existing_processes, false, [send]) - Before]),
    %% new / new_processes.
    io:format("trace(new, true): ~p~n", [erlang:trace(new, true, [send, procs, {tracer, T}])]),
    io:format("trace_info(new, flags): ~p~n", [erlang:trace_info(new, flags)]),
    io:format("trace_info(new_processes, flags): ~p~n", [erlang:trace_info(new_processes, flags)]),
    io:format("trace_info(new, tracer): ~p~n", [tracer(new, Names)]),
    C = spawn(fun idle/0),
    info("new child", C, [{C, child} | Names]),
    io:format("trace(new_processes, false): ~p~n", [erlang:trace(new_processes, false, [send, procs])]),
    io:format("trace_info(new, flags): ~p~n", [erlang:trace_info(new, flags)]),
    io:format("trace_info(new, tracer): ~p~n", [erlang:trace_info(new, tracer)]),
    io:format("child off: ~p~n", [erlang:trace(C, false, [all])]),
    stop_wait(C),
    [io:format("trace_info(~p, flags): ~p~n", [S, t(fun() -> erlang:trace_info(S, flags) end)])
     || S <- [all, processes, existing]],
    %% Dead pid.
    D = spawn(fun() -> ok end),
    stop_wait(D),
    io:format("dead flags: ~p~n", [erlang:trace_info(D, flags)]),
    io:format("dead tracer: ~p~n", [erlang:trace_info(D, tracer)]),
    io:format("dead trace: ~p~n", [t(fun() -> erlang:trace(D, true, [send, {tracer, T}]) end)]),
    %% badarg cases.
    Bad = [{"unknown flag", fun() -> erlang:trace(P, true, [foo, {tracer, T}]) end},
           {"atom pid spec", fun() -> erlang:trace(foo, true, [send]) end},
           {"tuple pid spec", fun() -> erlang:trace({P}, true, [send]) end},
           {"how = maybe", fun() -> erlang:trace(P, maybe, [send]) end},
           {"how = on", fun() -> erlang:trace(P, on, [send]) end},
           {"tracer atom", fun() -> erlang:trace(P, true, [send, {tracer, foo}]) end},
           {"tracer integer", fun() -> erlang:trace(P, true, [send, {tracer, 1}]) end},
           {"flags atom", fun() -> erlang:trace(P, true, send) end},
           {"flags improper", fun() -> erlang:trace(P, true, [send | x]) end},
           {"cpu_timestamp pid", fun() -> erlang:trace(P, true, [send, cpu_timestamp, {tracer, T}]) end},
           {"cpu_timestamp pid off", fun() -> erlang:trace(P, false, [cpu_timestamp]) end},
           {"cpu_timestamp new", fun() -> erlang:trace(new, true, [send, cpu_timestamp, {tracer, T}]) end},
           {"cpu_timestamp existing", fun() -> erlang:trace(existing, true, [cpu_timestamp]) end},
           {"cpu_timestamp processes", fun() -> erlang:trace(processes, true, [cpu_timestamp]) end},
           {"cpu_timestamp all on", fun() -> erlang:trace(all, true, [cpu_timestamp]) end},
           {"cpu_timestamp all off", fun() -> erlang:trace(all, false, [cpu_timestamp]) end},
           {"empty list all", fun() -> erlang:trace(all, true, []) end},
           {"empty list pid", fun() -> erlang:trace(P, true, [{tracer, T}]) end}],
    [io:format("~s: ~p~n", [L, t(F)]) || {L, F} <- Bad],
    info("p at end", P, Names),
    stop_wait(P),
    stop_wait(T),
    ok.

info(Label, P, Names) ->
    {flags, Fl} = erlang:trace_info(P, flags),
    {tracer, Tr} = tracer(P, Names),
    io:format("~s: flags ~p, tracer ~p~n", [Label, lists:sort(Fl), Tr]).

tracer(P, Names) ->
    case erlang:trace_info(P, tracer) of
        {tracer, []} -> {tracer, []};
        {tracer, X} -> {tracer, name(X, Names)}
    end.

name(P, Names) ->
    case lists:keyfind(P, 1, Names) of
        {P, N} -> N;
        false -> other
    end.

t(F) ->
    try F() of V -> V catch C:R -> {C, R} end.

shape(N) when is_integer(N), N >= 1 -> count_ge_1;
shape(R) -> R.

sink() -> receive stop -> ok; _ -> sink() end.

idle() -> receive stop -> ok end.

stop_wait(P) ->
    Ref = monitor(process, P),
    P ! stop,
    receive {'DOWN', Ref, process, P, _} -> ok end.
