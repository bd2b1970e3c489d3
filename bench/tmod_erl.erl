%% bench/tmod_erl.erl — the same tracer module in Erlang (beamlet only): State discard, or
%% {count, CountersRef} counting in trace/5, or {count_enabled, CountersRef} counting in
%% enabled/3 and answering discard (one callback per event).
-module(tmod_erl).
-export([enabled/3, trace/5]).

enabled(trace_status, _, _) -> trace;
enabled(_, {count, _}, _) -> trace;
enabled(_, {count_enabled, C}, _) -> counters:add(C, 1, 1), discard;
enabled(_, _, _) -> discard.

trace(_, {count, C}, _, _, _) -> counters:add(C, 1, 1), ok.
