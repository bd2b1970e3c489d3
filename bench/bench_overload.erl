%% bench/bench_overload.erl (OVERLOAD_MODE=limit | nolimit) — every send and receive of a 1000-process ring
%% (200k hops by default, OVERLOAD_HOPS) traced to a tracer that takes one message per millisecond: the tracer's queue
%% and the VM's resident memory at the end (OVERLOAD_HOPS sets the hops), without a limit and (beamlet) with a session
%% limited to max_queue 10000.
-module(bench_overload).
-export([main/0, main/1]).

-define(PROCS, 1000).
-define(HOPS, list_to_integer(os:getenv("OVERLOAD_HOPS", "200000"))).

main() -> main([list_to_atom(os:getenv("OVERLOAD_MODE", "nolimit"))]).

main([Mode]) ->
    Tracer = spawn(fun slow/0),
    Ring = ring(?PROCS),
    T0 = erlang:monotonic_time(millisecond),
    Dropped = case Mode of
                  nolimit ->
                      [erlang:trace(P, true, [send, 'receive', {tracer, Tracer}]) || P <- Ring],
                      run(Ring),
                      0;
                  limit ->
                      S = trace:session_create(overload, Tracer, [{max_queue, 10000}]),
                      [trace:process(S, P, true, [send, 'receive']) || P <- Ring],
                      run(Ring),
                      maps:get(dropped, beamlet:trace_limits(S))
              end,
    Ms = erlang:monotonic_time(millisecond) - T0,
    {message_queue_len, Len} = process_info(Tracer, message_queue_len),
    io:format("bench overload_~w ~w us~n", [Mode, Ms * 1000]),
    io:format("metric overload_~w_queue ~w msgs~n", [Mode, Len]),
    io:format("metric overload_~w_dropped ~w msgs~n", [Mode, Dropped]),
    io:format("metric overload_~w_rss ~w kB~n", [Mode, rss_kb()]),
    ok.

slow() ->
    receive _ -> receive after 1 -> ok end end,
    slow().

ring(N) ->
    Self = self(),
    First = spawn(fun() -> first(Self) end),
    Pids = lists:foldl(fun(_, [Next | _] = Acc) -> [spawn(fun() -> hop(Next) end) | Acc] end, [First], lists:seq(2, N)),
    First ! {next, hd(Pids)},
    Pids.

first(Main) ->
    receive {next, Next} -> ok end,
    first_loop(Main, Next).

first_loop(Main, Next) ->
    receive
        {token, 0} -> Main ! done;
        {token, K} -> Next ! {token, K - 1}, first_loop(Main, Next)
    end.

hop(Next) ->
    receive {token, K} -> Next ! {token, K}, hop(Next) end.

run(Ring) ->
    lists:last(Ring) ! {token, ?HOPS div ?PROCS},
    receive done -> ok end.

rss_kb() ->
    {ok, Status} = file:read_file("/proc/self/status"),
    [Line] = [L || L <- binary:split(Status, <<"\n">>, [global]), binary:match(L, <<"VmRSS">>) =/= nomatch],
    [_, Kb | _] = binary:split(Line, [<<" ">>, <<"\t">>], [global, trim_all]),
    binary_to_integer(Kb).
