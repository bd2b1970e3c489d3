%% beamlet's overload protection: a session's max_queue and max_rate limits, paused or
%% stopped, with exact counts of what was delivered and dropped; the legacy API through
%% beamlet:trace_limits/2.
-module(overload_limits).
-export([main/0]).

main() ->
    queue_pause(),
    queue_stop(),
    rate(),
    legacy(),
    bad_options(),
    ok.

%% A tracer that takes nothing until told to. (Each batch of sends ends with one more, the
%% tracee's reply to main: N sends are N + 1 events.)
slow_tracer() ->
    spawn(fun() -> receive {drain, From} -> From ! {drained, drain(0)} end, receive stop -> ok end end).

drain(N) -> receive {trace, _, _, _, _} -> drain(N + 1) after 0 -> N end.

sends(Pid, N) ->
    Sink = spawn(fun Sink() -> receive _ -> Sink() end end),
    Pid ! {send, Sink, N},
    receive {sent, Pid} -> ok end.

tracee() ->
    Parent = self(),
    spawn(fun Loop() ->
                  receive
                      {send, Sink, N} ->
                          [Sink ! I || I <- lists:seq(1, N)],
                          Parent ! {sent, self()},
                          Loop()
                  end
          end).

show(What, Limits) ->
    io:format("~s: ~p~n", [What, maps:with([state, delivered, dropped], Limits)]).

queue_pause() ->
    Tracer = slow_tracer(),
    S = trace:session_create(q, Tracer, [{max_queue, 100}]),
    Pid = tracee(),
    1 = trace:process(S, Pid, true, [send]),
    sends(Pid, 1000),
    show("queue 100, 1000 sends", beamlet:trace_limits(S)),
    {message_queue_len, Len} = process_info(Tracer, message_queue_len),
    io:format("tracer queue: ~p~n", [Len]),
    Tracer ! {drain, self()},
    receive {drained, N} -> io:format("drained ~p~n", [N]) end,
    sends(Pid, 10),
    show("after draining, 10 sends", beamlet:trace_limits(S)),
    trace:session_destroy(S).

queue_stop() ->
    Tracer = slow_tracer(),
    S = trace:session_create(qs, Tracer, [{max_queue, 10}, {on_overload, stop}]),
    Pid = tracee(),
    1 = trace:process(S, Pid, true, [send]),
    sends(Pid, 100),
    show("queue 10 stop, 100 sends", beamlet:trace_limits(S)),
    Tracer ! {drain, self()},
    receive {drained, N} -> io:format("drained ~p~n", [N]) end,
    sends(Pid, 10),
    show("stopped stays stopped", beamlet:trace_limits(S)),
    trace:session_destroy(S).

rate() ->
    Tracer = slow_tracer(),
    S = trace:session_create(r, Tracer, [{max_rate, {50, 600000}}]),
    Pid = tracee(),
    1 = trace:process(S, Pid, true, [send]),
    sends(Pid, 200),
    show("rate 50 per 10 minutes, 200 sends", beamlet:trace_limits(S)),
    io:format("limits: ~p~n", [maps:with([max_rate, on_overload], beamlet:trace_limits(S))]),
    trace:session_destroy(S).

legacy() ->
    Tracer = slow_tracer(),
    ok = beamlet:trace_limits(legacy, [{max_queue, 20}]),
    Pid = tracee(),
    1 = erlang:trace(Pid, true, [send, {tracer, Tracer}]),
    sends(Pid, 50),
    show("legacy, queue 20, 50 sends", beamlet:trace_limits(legacy)),
    erlang:trace(Pid, false, [send]),
    ok = beamlet:trace_limits(legacy, []),
    io:format("legacy limits off: ~p~n", [beamlet:trace_limits(legacy)]).

bad_options() ->
    Try = fun(F) -> try F() catch C:R -> {C, R} end end,
    [io:format("~p~n", [Try(fun() -> trace:session_create(bad, self(), Opts) end)])
     || Opts <- [[{max_queue, 0}], [{max_rate, {1, 0}}], [{on_overload, later}], [foo], improper]],
    io:format("~p~n", [Try(fun() -> beamlet:trace_limits(nosuchsession) end)]).
