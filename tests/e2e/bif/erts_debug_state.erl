%% erts_debug's internal-state knobs, as OTP's own suites use them in init_per_suite: undef
%% until available_internal_state is set (each setting logs erl's warning), badarg for a knob
%% or value the emulator does not know, and flat_size/1.
-module(erts_debug_state).
-export([main/0]).

main() ->
    show(catch erts_debug:get_internal_state(foo)),
    show(catch erts_debug:set_internal_state(wait, deallocations)),
    show(erts_debug:set_internal_state(available_internal_state, true)),
    logger_std_h:filesync(default),
    show(erts_debug:set_internal_state(available_internal_state, true)),
    logger_std_h:filesync(default),
    show(catch erts_debug:get_internal_state(foo)),
    show(catch erts_debug:set_internal_state(wait, deallocations)),
    show(catch erts_debug:set_internal_state(foo, bar)),
    show(catch erts_debug:set_internal_state(available_internal_state, maybe)),
    show(erts_debug:flat_size({a, [1, 2, 3], <<1, 2>>, 1.0})),
    Shared = lists:seq(1, 10),
    show(erts_debug:flat_size({Shared, Shared})),
    show(erts_debug:flat_size(abc)),
    show(erts_debug:set_internal_state(available_internal_state, false)),
    show(catch erts_debug:get_internal_state(foo)),
    ok.

show({'EXIT', {Reason, [{M, F, Args, _} | _]}}) -> io:format("EXIT ~p ~p:~p~p~n", [Reason, M, F, Args]);
show(X) -> io:format("~p~n", [X]).
