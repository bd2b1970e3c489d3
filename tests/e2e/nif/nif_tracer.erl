%% A tracer module with NIF callbacks (tests/e2e/nif/nif_tracer.c).
-module(nif_tracer).
-export([enabled/3, trace/5]).
-on_load(init/0).

init() -> erlang:load_nif(filename:join(filename:dirname(code:which(?MODULE)), "nif_tracer"), 0).

enabled(_, _, _) -> erlang:nif_error(not_loaded).
trace(_, _, _, _, _) -> erlang:nif_error(not_loaded).
