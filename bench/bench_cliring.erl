%% bench/bench_cliring.erl — the cost of `beamlet trace` against the same pattern set from
%% inside the program (bench/cli_trace.sh runs it both ways, and on erl).
%%
%% A ring of 1000 processes passes a token 200k hops; every hop calls pass/1 (a local call).
%%   main() / main([plain])    the ring, untraced by itself (the command line may trace it);
%%                             main() runs the variant in $CLIRING when set ("calls 500000")
%%   main([inprogram])         the ring with pass/1 traced from inside: a local call pattern
%%                             and the call flag on every ring process, to a tracer process
%%                             that counts the messages (as a dbg-like tracer would)
%%   main([calls, N])          one process calls pass/1 N times (N call events, 2N with
%%                             returns): the Chrome-trace writing benchmark
%% Prints "bench cliring_VARIANT US us" for the timed part (the hops, or the calls).
-module(bench_cliring).
-export([main/0, main/1, hop/1, pass/1, counter/1]).

-define(P, 1000).
-define(HOPS, 200000).

main() ->
    case os:getenv("CLIRING") of
        false -> main([plain]);
        Text ->
            [Variant | Args] = string:lexemes(Text, " "),
            main([list_to_atom(Variant) | [list_to_integer(A) || A <- Args]])
    end.

main([calls, N]) ->
    T0 = erlang:monotonic_time(microsecond),
    ok = calls(N),
    io:format("bench cliring_calls ~w us~n", [erlang:monotonic_time(microsecond) - T0]);
main([Variant]) ->
    Ring = make_ring(?P),
    _ = run_ring(Ring, 1000),  % warm-up
    Counter = case Variant of
                  plain -> none;
                  inprogram -> trace_from_inside(Ring)
              end,
    Us = run_ring(Ring, ?HOPS),
    case Counter of
        none -> ok;
        _ ->
            [erlang:trace(Pid, false, [call]) || Pid <- pids(Ring)],
            Counter ! {count, self()},
            receive {counted, N} -> io:format("result cliring_~w messages=~w~n", [Variant, N]) end
    end,
    stop_ring(Ring),
    io:format("bench cliring_~w ~w us~n", [Variant, Us]),
    io:format("metric cliring_~w ~w ps/hop~n", [Variant, Us * 1000000 div ?HOPS]).

trace_from_inside(Ring) ->
    Counter = spawn(?MODULE, counter, [0]),
    1 = erlang:trace_pattern({?MODULE, pass, 1}, true, [local]),
    [erlang:trace(Pid, true, [call, {tracer, Counter}]) || Pid <- pids(Ring)],
    Counter.

counter(N) ->
    receive
        {trace, _, call, _} -> counter(N + 1);
        {count, From} ->
            receive after 0 -> ok end,
            flush(N, From)
    end.

% Messages still on their way when asked are counted too.
flush(N, From) ->
    receive {trace, _, call, _} -> flush(N + 1, From)
    after 100 -> From ! {counted, N}
    end.

calls(0) -> ok;
calls(N) ->
    _ = pass(N),
    calls(N - 1).

pass(N) -> N - 1.

%% ---- the ring: {First, Pids} ----

make_ring(P) ->
    First = spawn(?MODULE, hop, [undefined]),
    {Last, Pids} = chain(P - 1, First, [First]),
    First ! {next, Last},
    {First, Pids}.

chain(0, Pid, Acc) -> {Pid, Acc};
chain(K, Next, Acc) ->
    Pid = spawn(?MODULE, hop, [Next]),
    chain(K - 1, Pid, [Pid | Acc]).

pids({_, Pids}) -> Pids.

hop(undefined) ->
    receive {next, Next} -> hop(Next) end;
hop(Next) ->
    receive
        {token, 0, From} -> From ! {done, self()}, hop(Next);
        {token, N, From} -> Next ! {token, pass(N), From}, hop(Next);
        stop -> ok
    end.

run_ring({First, _}, Hops) ->
    T0 = erlang:monotonic_time(microsecond),
    First ! {token, Hops, self()},
    receive {done, _} -> ok end,
    erlang:monotonic_time(microsecond) - T0.

stop_ring({_, Pids}) ->
    [Pid ! stop || Pid <- Pids],
    ok.
