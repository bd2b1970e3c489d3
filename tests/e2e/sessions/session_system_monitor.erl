%% trace:system/3 (OTP 28): a session's own system monitor, beside erlang:system_monitor/2.
%% The settings as trace:info(S, system, Item) reports them, long_message_queue's on and off
%% for two sessions with different limits (trace_session_SUITE:system_monitor_long_msgq's
%% sequence), long_gc / large_heap / long_schedule events to the session's tracer, the legacy
%% monitor untouched, badarg for bad events and values, and a destroyed session's monitor gone.
-module(session_system_monitor).
-export([main/0]).

main() ->
    undefined = erlang:system_monitor(),
    settings(),
    long_msgq(),
    events(),
    badargs(),
    ok.

settings() ->
    S = trace:session_create(sysmon, self(), []),
    io:format("empty ~p~n", [trace:info(S, system, all)]),
    ok = trace:system(S, large_heap, 1_234_567),
    ok = trace:system(S, long_gc, 2_345),
    ok = trace:system(S, long_message_queue, {22, 33}),
    ok = trace:system(S, long_schedule, 3_456),
    ok = trace:system(S, busy_port, true),
    ok = trace:system(S, busy_dist_port, true),
    {system, All} = trace:info(S, system, all),
    io:format("all ~p~n", [lists:sort(All)]),
    [io:format("item ~p~n", [trace:info(S, system, I)])
     || I <- [large_heap, long_gc, long_message_queue, long_schedule, busy_port, busy_dist_port]],
    io:format("legacy still ~p~n", [erlang:system_monitor()]),
    ok = trace:system(S, large_heap, 10),
    io:format("small large_heap ~p~n", [trace:info(S, system, large_heap)]),
    [ok = trace:system(S, E, false)
     || E <- [large_heap, long_gc, long_message_queue, long_schedule, busy_port, busy_dist_port]],
    io:format("cleared ~p ~p~n", [trace:info(S, system, all), trace:info(S, system, long_gc)]),
    true = trace:session_destroy(S).

%% The queue's length goes up and down past each session's {Disable, Enable}.
long_msgq() ->
    Tester = self(),
    Receiver = spawn_link(fun receiver/0),
    T1 = spawn_link(fun() -> forward(t1, Tester) end),
    T2 = spawn_link(fun() -> forward(t2, Tester) end),
    S1 = trace:session_create(s1, T1, []),
    S2 = trace:session_create(s2, T2, []),
    ok = trace:system(S1, long_message_queue, {50, 70}),
    ok = trace:system(S2, long_message_queue, {60, 80}),
    Steps = [{send, 50}, {send, 10}, {send, 10}, {send, 10}, {take, 10}, {send, 10},
             {take, 20}, {send, 10}, {take, 20}],
    [step(Receiver, Step) || Step <- Steps],
    io:format("-- s1 off~n"),
    ok = trace:system(S1, long_message_queue, false),
    [step(Receiver, Step) || Step <- [{send, 20}, {send, 10}, {take, 10}, {take, 10}, {take, 10}]],
    io:format("-- s1 as s2~n"),
    ok = trace:system(S1, long_message_queue, {60, 80}),
    [step(Receiver, Step) || Step <- [{send, 29}, {send, 1}, {take, 19}, {take, 1}]],
    io:format("-- s2 destroyed~n"),
    true = trace:session_destroy(S2),
    [step(Receiver, Step) || Step <- [{send, 20}, {take, 20}]],
    true = trace:session_destroy(S1),
    [step(Receiver, Step) || Step <- [{send, 30}, {take, 80}]],
    [begin unlink(P), exit(P, kill) end || P <- [Receiver, T1, T2]],
    ok.

step(Receiver, {send, N}) ->
    [Receiver ! message || _ <- lists:seq(1, N)],
    report({send, N});
step(Receiver, {take, N}) ->
    Receiver ! {take, N, self()},
    receive {taken, N} -> ok end,
    report({take, N}).

report(Step) ->
    Events = lists:sort(collect()),
    io:format("~p -> ~p~n", [Step, Events]).

collect() ->
    receive {T, {monitor, _, long_message_queue, On}} -> [{T, On} | collect()]
    after 100 -> []
    end.

receiver() ->
    receive
        {take, N, From} ->
            [receive message -> ok end || _ <- lists:seq(1, N)],
            From ! {taken, N}
    end,
    receiver().

forward(Tag, To) ->
    receive M -> To ! {Tag, M} end,
    forward(Tag, To).

%% long_gc, large_heap and long_schedule reach the session's tracer; the legacy monitor, set
%% for large_heap only, gets only that.
events() ->
    Tester = self(),
    Legacy = spawn_link(fun() -> forward(legacy, Tester) end),
    T = spawn_link(fun() -> forward(session, Tester) end),
    S = trace:session_create(events, T, []),
    erlang:system_monitor(Legacy, [{large_heap, 100_000}]),
    ok = trace:system(S, long_gc, 1),
    ok = trace:system(S, large_heap, 100_000),
    ok = trace:system(S, long_schedule, 20),
    %% Collecting two million live cons cells takes more than a millisecond, and building them
    %% (with its collections) more than 20 in one slice.
    Worker = spawn(fun() ->
                           L = lists:seq(1, 2_000_000),
                           erlang:garbage_collect(),
                           2_000_000 = length(lists:reverse(L)),
                           receive stop -> ok end
                   end),
    timer:sleep(400),
    Got = lists:usort([{Who, Event} || {Who, {monitor, P, Event, _}} <- drain(), P =:= Worker]),
    io:format("events ~p~n", [Got]),
    Worker ! stop,
    true = trace:session_destroy(S),
    erlang:system_monitor(undefined),
    [begin unlink(P), exit(P, kill) end || P <- [Legacy, T]],
    ok.

drain() ->
    receive M -> [M | drain()] after 0 -> [] end.

badargs() ->
    S = trace:session_create(bad, self(), []),
    Calls = [{long_gc, -1}, {long_gc, true}, {large_heap, foo}, {busy_port, 1},
             {long_message_queue, {10, 5}}, {long_message_queue, {5, 5}},
             {long_message_queue, {-1, 5}}, {long_message_queue, 5}, {bogus, 1}],
    [io:format("system(~p, ~p): ~s~n", [E, V, failure(fun() -> trace:system(S, E, V) end)])
     || {E, V} <- Calls],
    io:format("info(system, bogus): ~s~n", [failure(fun() -> trace:info(S, system, bogus) end)]),
    true = trace:session_destroy(S),
    io:format("dead session: ~s~n", [failure(fun() -> trace:system(S, long_gc, 1) end)]),
    ok.

%% The reason and the explanation the shell would print under it.
failure(F) ->
    try F() of
        V -> io_lib:format("returned ~p", [V])
    catch
        error:R:St ->
            Text = erl_error:format_exception(error, R, St, #{stack_trim_fun => fun(M, _, _) -> M =/= trace end}),
            Lines = string:split(unicode:characters_to_list(Text), "\n", all),
            [io_lib:format("~p", [R]) | [[" | ", string:trim(L)] || L <- Lines, string:find(L, "***") =/= nomatch]]
    end.
