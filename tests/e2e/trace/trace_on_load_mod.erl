%% tests/e2e/trace/trace_on_load_mod.erl — the module trace_on_load loads after setting on_load
%% patterns (it also runs alone as a trivial program).
-module(trace_on_load_mod).
-export([main/0, g/1]).

main() -> io:format("~p~n", [g(1)]).

g(X) -> h(X) + 1.

h(X) -> X * 2.
