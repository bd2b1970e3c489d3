%% tests/e2e/port_trace/pt_timestamps.erl — timestamps and scheduler ids in port events.
%% With timestamp, monotonic_timestamp or strict_monotonic_timestamp the message is
%% {trace_ts, Port, Tag, ..., Ts}: Ts is {MegaSecs, Secs, MicroSecs} (timestamp, strictly
%% increasing), an integer (monotonic_timestamp, never decreasing) or {Monotonic, Unique}
%% (strict_monotonic_timestamp, strictly increasing). With scheduler_id the scheduler's number
%% comes after the tag's elements, before the timestamp if there is one, in every port event
%% (open, getting_linked, 'receive', send, in, out, closed). timestamp takes precedence over
%% strict_monotonic_timestamp over monotonic_timestamp; each is kept, so turning the
%% winning one off brings the next one back. Printed: timestamps as now_ts, mono_ts or
%% strict_ts after their shape is checked, scheduler ids as sid, and whether the port's
%% timestamps increase as they should.
-module(pt_timestamps).
-export([main/0]).
-import(e2e_port_trace, [run/4, upto_exit/1]).

main() ->
    Scenario = fun() ->
                       P = open_port({spawn, "cat"}, []),
                       true = port_command(P, "x\n"),
                       D = data(P),
                       P ! {self(), close},
                       {[{P, port}], [], [{got, D}, {inbox, upto_exit(P)}]}
               end,
    run("timestamp", [ports, send, 'receive', timestamp], Scenario, fix(now_ts, false)),
    run("monotonic_timestamp", [ports, send, 'receive', monotonic_timestamp], Scenario,
        fix(mono_ts, false)),
    run("strict_monotonic_timestamp", [ports, send, 'receive', strict_monotonic_timestamp],
        Scenario, fix(strict_ts, false)),
    run("scheduler_id", [ports, send, 'receive', scheduler_id], Scenario, fix(none, true)),
    run("scheduler_id and strict_monotonic_timestamp, running_ports",
        [running_ports, scheduler_id, strict_monotonic_timestamp],
        fun() ->
                P = open_port({spawn, "cat"}, []),
                timer:sleep(20),
                true = port_close(P),
                {[{P, port}], [], [{inbox, upto_exit(P)}]}
        end,
        fun(Evs) ->
                %% Without the driver's own turns (in 0, out 0: see pt_running).
                (fix(strict_ts, true))([E || E <- Evs, element(4, E) =/= 0])
        end),
    run("all three timestamps: timestamp wins", [ports, timestamp, monotonic_timestamp,
                                                 strict_monotonic_timestamp],
        fun() ->
                P = open_port({spawn, "cat"}, []),
                {flags, Fl} = erlang:trace_info(P, flags),
                true = port_close(P),
                {[{P, port}], [], [{flags, lists:sort(Fl)}, {inbox, upto_exit(P)}]}
        end,
        fix(now_ts, false)),
    run("strict_monotonic_timestamp wins over monotonic_timestamp",
        [ports, monotonic_timestamp, strict_monotonic_timestamp],
        fun() ->
                P = open_port({spawn, "cat"}, []),
                true = port_close(P),
                {[{P, port}], [], [{inbox, upto_exit(P)}]}
        end,
        fix(strict_ts, false)),
    run("timestamp turned off: monotonic_timestamp is back",
        [ports, timestamp, monotonic_timestamp],
        fun() ->
                P = open_port({spawn, "cat"}, []),
                1 = erlang:trace(P, false, [timestamp]),
                {flags, Fl} = erlang:trace_info(P, flags),
                true = port_close(P),
                {[{P, port}], [], [{flags, lists:sort(Fl)}, {inbox, upto_exit(P)}]}
        end,
        fun(Evs) ->
                %% open and getting_linked (before the change) carry now timestamps.
                {Before, After} = lists:split(2, Evs),
                (fix(now_ts, false))(Before) ++ (fix(mono_ts, false))(After)
        end),
    ok.

data(P) ->
    receive {P, {data, D}} -> D after 5000 -> timeout end.

%% Checks and replaces the timestamp (of kind Kind, or none) and the scheduler id (if Sid) of
%% each event, then tells whether the timestamps increase as they should.
fix(Kind, Sid) ->
    fun(Evs) ->
            Fixed = [fix_one(tuple_to_list(E), Kind, Sid) || E <- Evs],
            Events = [E || {E, _} <- Fixed],
            case Kind of
                none -> Events;
                _ -> Events ++ [{increasing, increasing(Kind, [Ts || {_, Ts} <- Fixed])}]
            end
    end.

fix_one([trace_ts | Rest], Kind, Sid) when Kind =/= none ->
    [Ts | RevBody] = lists:reverse(Rest),
    {E, _} = fix_one([trace | lists:reverse(RevBody)], none, Sid),
    {list_to_tuple([trace_ts | tl(tuple_to_list(E))] ++ [shape(Kind, Ts)]), Ts};
fix_one(L, none, true) ->
    [S | RevBody] = lists:reverse(L),
    Sched = case is_integer(S) andalso S >= 1 andalso S =< erlang:system_info(schedulers) of
                true -> sid;
                false -> {bad_sid, S}
            end,
    {list_to_tuple(lists:reverse(RevBody) ++ [Sched]), none};
fix_one(L, none, false) ->
    {list_to_tuple(L), none};
fix_one(L, Kind, _) ->
    {{no_timestamp, Kind, list_to_tuple(L)}, none}.

shape(now_ts, {A, B, C}) when is_integer(A), is_integer(B), is_integer(C) -> now_ts;
shape(mono_ts, Ts) when is_integer(Ts) -> mono_ts;
shape(strict_ts, {A, B}) when is_integer(A), is_integer(B) -> strict_ts;
shape(Kind, Ts) -> {bad_timestamp, Kind, Ts}.

increasing(mono_ts, Tss) -> Tss =:= lists:sort(Tss);
increasing(_, Tss) -> Tss =:= lists:usort(Tss).
