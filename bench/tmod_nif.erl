%% bench/tmod_nif.erl — the NIF tracer module of bench_tmod (bench/tmod_nif.c).
-module(tmod_nif).
-export([enabled/3, trace/5, count/0]).
-on_load(init/0).

init() ->
    Lib = case erlang:is_builtin(beamlet, on_load_claim, 1) of
              true -> "tmod_nif_beamlet";
              false -> "tmod_nif_otp"
          end,
    erlang:load_nif(filename:join(filename:dirname(code:which(?MODULE)), Lib), 0).

enabled(_, _, _) -> erlang:nif_error(not_loaded).
trace(_, _, _, _, _) -> erlang:nif_error(not_loaded).
count() -> erlang:nif_error(not_loaded).
