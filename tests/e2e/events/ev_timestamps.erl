-module(ev_timestamps).
-export([main/0]).
-import(e2e_trace, [collector/0, events/2, worker/0, run/2, stop_wait/2, norm/2]).

%% Timestamps on non-call trace events (send, 'receive', procs), OTP 25. With a timestamp flag
%% the message becomes trace_ts with the stamp appended as the last element: `timestamp` gives
%% {Mega, Sec, Micro}, `monotonic_timestamp` an integer, `strict_monotonic_timestamp`
%% {Monotonic, Unique} (two integers). With several set, timestamp wins over strict, which
%% wins over monotonic; clearing the winner (trace(P, false, [Flag])) activates the next one.
%% Per tracee, monotonic stamps never decrease; strict ones strictly increase (compared as a
%% tuple, and the unique part alone) with a non-decreasing monotonic part; now-style stamps
%% never decrease.
%% cpu_timestamp is badarg for a single pid; adding a flag with trace(P, true, Flags) without
%% {tracer, T} from a process that is not P's tracer is badarg (it would be a second tracer).

main() ->
    T = collector(),
    W = worker(),
    io:format("trace: ~p~n", [erlang:trace(W, true, [send, 'receive', procs, {tracer, T}])]),
    step("no timestamp flag", W, T),
    set(W, T, true, monotonic_timestamp), step("monotonic", W, T),
    set(W, T, true, strict_monotonic_timestamp), step("monotonic + strict", W, T),
    set(W, T, true, timestamp), step("all three", W, T),
    set(W, T, false, timestamp), step("timestamp cleared", W, T),
    set(W, T, false, strict_monotonic_timestamp), step("strict cleared", W, T),
    set(W, T, true, timestamp), step("monotonic + timestamp", W, T),
    set(W, T, false, monotonic_timestamp), step("timestamp only", W, T),
    set(W, T, true, strict_monotonic_timestamp), step("timestamp + strict", W, T),
    set(W, T, false, timestamp), step("strict only", W, T),
    io:format("strict, 30 messages to self: ~p~n", [order(W, T)]),
    set(W, T, false, strict_monotonic_timestamp),
    set(W, T, true, monotonic_timestamp),
    io:format("monotonic, 30 messages to self: ~p~n", [order(W, T)]),
    set(W, T, false, monotonic_timestamp),
    set(W, T, true, timestamp),
    io:format("timestamp, 30 messages to self: ~p~n", [order(W, T)]),
    io:format("cpu_timestamp on a pid: ~p~n",
              [try erlang:trace(W, true, [cpu_timestamp, {tracer, T}]) catch C:R -> {C, R} end]),
    io:format("without {tracer, T}: ~p~n",
              [try erlang:trace(W, true, [monotonic_timestamp]) catch C2:R2 -> {C2, R2} end]),
    io:format("flags: ~p~n", [flags(W)]),
    io:format("all off: ~p ~p~n", [erlang:trace(W, false, [all]), flags(W)]),
    stop_wait(W, stop),
    stop_wait(T, stop),
    ok.

set(W, T, true, Flag) -> 1 = erlang:trace(W, true, [Flag, {tracer, T}]);
set(W, _T, false, Flag) -> 1 = erlang:trace(W, false, [Flag]).

flags(W) -> {flags, F} = erlang:trace_info(W, flags), lists:sort(F).

%% The worker receives the run request, spawns a child (which exits at once), sends its reply.
step(Label, W, T) ->
    Child = run(W, fun() -> spawn(fun() -> ok end) end),
    Names = [{W, worker}, {self(), main}, {T, tracer}, {Child, child}],
    io:format("== ~s ~p~n", [Label, [F || F <- flags(W), lists:member(F, [timestamp, monotonic_timestamp, strict_monotonic_timestamp])]]),
    [io:format("  ~p~n", [shape(E, Names)]) || E <- events(T, [W])],
    ok.

%% The worker sends 30 messages to itself and receives them: 60 stamped events, checked in order.
order(W, T) ->
    run(W, fun() -> [self() ! {m, I} || I <- lists:seq(1, 30)], [receive {m, I} -> I end || I <- lists:seq(1, 30)], ok end),
    Stamps = [element(tuple_size(E), E) || E <- events(T, [W]), element(1, E) =:= trace_ts],
    Kinds = lists:usort([ts_shape(S) || S <- Stamps]),
    Checks = case Kinds of
                 [{strict, mono, unique}] ->
                     [{strictly_increasing, strictly_increasing(Stamps)},
                      {unique_part_strictly_increasing, strictly_increasing([U || {_, U} <- Stamps])},
                      {monotonic_part_non_decreasing, non_decreasing([M || {M, _} <- Stamps])}];
                 _ ->
                     [{non_decreasing, non_decreasing(Stamps)}]
             end,
    {length(Stamps) >= 60, Kinds, Checks}.

non_decreasing([A, B | Rest]) -> A =< B andalso non_decreasing([B | Rest]);
non_decreasing(_) -> true.

strictly_increasing([A, B | Rest]) -> A < B andalso strictly_increasing([B | Rest]);
strictly_increasing(_) -> true.

shape(E, Names) when element(1, E) =:= trace_ts ->
    Ts = element(tuple_size(E), E),
    erlang:append_element(norm(erlang:delete_element(tuple_size(E), E), Names), ts_shape(Ts));
shape(E, Names) -> norm(E, Names).

ts_shape({A, B, C}) when is_integer(A), is_integer(B), is_integer(C), A >= 0, B >= 0, C >= 0 -> {ts_now, 3};
ts_shape({A, B}) when is_integer(A), is_integer(B) -> {strict, mono, unique};
ts_shape(A) when is_integer(A) -> mono;
ts_shape(Other) -> {unexpected, Other}.
