%% load_nif's errors: a library for another module, a failing load, and a function missing
%% from the module.
-module(nif_errors).
-export([main/0, add/2]).

lib() -> filename:join(filename:dirname(code:which(?MODULE)), "nif_basic").

add(_, _) -> erlang:nif_error(not_loaded).

main() ->
    io:format("~p~n", [erlang:load_nif(lib(), 0)]),
    io:format("~p~n", [try add(1, 2) catch C:R -> {C, R} end]),
    ok.
