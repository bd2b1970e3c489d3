-module(ev_running).
-export([main/0, loop/1]).
-import(e2e_trace, [events/2, stop_wait/2]).

%% `running` and `exiting` tracing (OTP 25). The process is traced from birth (trace(new, ...)
%% just around its spawn) so the first event is `in` with its initial function: {M, F, Arity}
%% of spawn/3 ({ev_running, loop, 1}), {erlang, apply, 2} for a fun. When it blocks in a
%% receive it gets {out, {M, F, A}} of the function that waits (loop/1, or elsewhere/1), and
%% {in, Same} when a message arrives. A process that exits gets no `out` with `running` only
%% (the last event is `in`); with `exiting` it gets {out_exited, 0} (no in_exiting /
%% out_exiting here), also when killed or hit by an exit signal while waiting (then it is
%% first scheduled `in` in the waiting function). `exiting` alone gives only {out_exited, 0}.
%% running_procs is accepted by trace/3 on OTP 25 and behaves like running here.
%% Determinism: before sending the next message, main waits until the tracer has seen the
%% `out` of the previous step (so the process really blocked in between).

main() ->
    T = spawn(fun() -> collector([]) end),
    scenario(T, [running], mfa, stop),
    scenario(T, [running], 'fun', exit_boom),
    scenario(T, [exiting], mfa, stop),
    scenario(T, [exiting], mfa, kill),
    scenario(T, [running, exiting], mfa, stop),
    scenario(T, [running, exiting], 'fun', kill),
    scenario(T, [running, exiting], mfa, signal_boom),
    scenario(T, [running_procs, exiting], mfa, stop),
    P = spawn(fun() -> receive stop -> ok end end),
    io:format("trace running_procs on an existing process: ~p~n",
              [erlang:trace(P, true, [running_procs, {tracer, T}])]),
    io:format("flags: ~p~n", [erlang:trace_info(P, flags)]),
    io:format("off: ~p~n", [erlang:trace(P, false, [running_procs])]),
    io:format("flags: ~p~n", [erlang:trace_info(P, flags)]),
    stop_wait(P, stop),
    io:format("new flags at the end: ~p~n", [erlang:trace_info(new, flags)]),
    stop_wait(T, stop),
    ok.

scenario(T, Flags, How, End) ->
    io:format("== ~p, spawned with ~p, ends by ~p~n", [Flags, How, End]),
    Running = lists:member(running, Flags) orelse lists:member(running_procs, Flags),
    0 = erlang:trace(new, true, [{tracer, T} | Flags]),
    {P, Ref} = case How of
                   mfa -> spawn_monitor(?MODULE, loop, [0]);
                   'fun' -> spawn_monitor(fun() -> loop(0) end)
               end,
    0 = erlang:trace(new, false, Flags),
    await_out(T, P, 1, Running),
    P ! {ping, self()},
    receive {pong, P} -> ok end,
    await_out(T, P, 2, Running),
    P ! {elsewhere, self()},
    receive {waiting, P} -> ok end,
    await_out(T, P, 3, Running),
    P ! go,
    receive {went, P} -> ok end,
    await_out(T, P, 4, Running),
    case End of
        stop -> P ! stop;
        exit_boom -> P ! {exit, boom};
        kill -> exit(P, kill);
        signal_boom -> exit(P, boom)
    end,
    receive {'DOWN', Ref, process, P, Reason} -> io:format("exit reason: ~p~n", [Reason]) end,
    [io:format("  ~p~n", [setelement(2, E, p)]) || E <- events(T, [P])],
    ok.

loop(N) ->
    receive
        {ping, From} -> From ! {pong, self()}, loop(N + 1);
        {elsewhere, From} -> elsewhere(From), loop(N);
        {exit, R} -> exit(R);
        stop -> ok
    end.

elsewhere(From) ->
    From ! {waiting, self()},
    receive go -> From ! {went, self()} end.

%% Wait until tracer T has received N `out` events of P (P is then blocked in a receive).
await_out(_T, _P, _N, false) -> ok;
await_out(T, P, N, true) ->
    T ! {count_outs, self(), P},
    receive {outs, T, C} -> ok end,
    case C >= N of
        true -> ok;
        false -> timer:sleep(1), await_out(T, P, N, true)
    end.

%% ---- helpers
collector(Acc) ->
    receive
        {give, From} -> From ! {msgs, self(), lists:reverse(Acc)}, collector([]);
        {count_outs, From, P} ->
            From ! {outs, self(), length([x || {trace, P1, out, _} <- Acc, P1 =:= P])},
            collector(Acc);
        stop -> ok;
        M -> collector([M | Acc])
    end.
