%% bench/bench_tmod.erl — call tracing through a tracer module, as bench_tcall measures it for
%% a tracer process: ns per traced call of fib/1 over the untraced call.
%%   nif_discard   NIF enabled/3 answers discard (OTP calls enabled twice per call:
%%                 trace_status, then call)
%%   nif_count     NIF enabled/3 answers trace, trace/5 counts in C
%%   erl_discard   the same in Erlang (beamlet only)
%%   erl_count     Erlang trace/5 counts with counters:add/3 (beamlet only)
%%   erl_count_en  Erlang enabled/3 counts and answers discard (beamlet only)
-module(bench_tmod).
-export([main/0, main/1, fib/1]).

-define(N, 27).

main() ->
    Beamlet = erlang:is_builtin(beamlet, on_load_claim, 1),
    main([nif_discard, nif_count] ++ [V || Beamlet, V <- [erl_discard, erl_count, erl_count_en]]).

main(Variants) ->
    {module, _} = code:ensure_loaded(tmod_nif),
    _ = fib(20),
    BaseUs = time_fib(),
    Base = per_call(BaseUs),
    io:format("bench tmod_untraced ~w us~n", [BaseUs]),
    io:format("metric tmod_untraced ~w ps/call~n", [Base]),
    [variant(V, Base) || V <- Variants],
    ok.

variant(V, Base) ->
    C = counters:new(1, []),
    {Module, State} = case V of
                          nif_discard -> {tmod_nif, discard};
                          nif_count -> {tmod_nif, count};
                          erl_discard -> {tmod_erl, discard};
                          erl_count -> {tmod_erl, {count, C}};
                          erl_count_en -> {tmod_erl, {count_enabled, C}}
                      end,
    Before = tmod_nif:count(),
    erlang:trace_pattern({?MODULE, fib, 1}, true, [local]),
    1 = erlang:trace(self(), true, [call, {tracer, Module, State}]),
    Us = time_fib(),
    erlang:trace(self(), false, [call]),
    erlang:trace_pattern({?MODULE, fib, 1}, false, [local]),
    Counted = case V of
                  nif_count -> tmod_nif:count() - Before;
                  erl_count -> counters:get(C, 1);
                  erl_count_en -> counters:get(C, 1);
                  _ -> 0
              end,
    io:format("result tmod_~w counted ~w of ~w calls~n", [V, Counted, calls(?N)]),
    io:format("bench tmod_~w ~w us~n", [V, Us]),
    io:format("metric tmod_~w ~w ps/call~n", [V, per_call(Us)]),
    io:format("metric tmod_~w_extra ~w ps/call~n", [V, per_call(Us) - Base]).

time_fib() ->
    T0 = erlang:monotonic_time(microsecond),
    _ = fib(?N),
    erlang:monotonic_time(microsecond) - T0.

per_call(Us) -> Us * 1000000 div calls(?N).

calls(N) -> 2 * fib_plain(N + 1) - 1.
fib_plain(N) when N < 2 -> N;
fib_plain(N) -> fib_plain(N - 1) + fib_plain(N - 2).

fib(N) when N < 2 -> N;
fib(N) -> fib(N - 1) + fib(N - 2).
