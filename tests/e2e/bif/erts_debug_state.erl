%% erts_debug's internal-state knobs, as OTP's own suites use them in init_per_suite: undef
%% until available_internal_state is set (each setting logs erl's warning), badarg for a knob
%% or value the emulator does not know, and the sizes of terms with and without sharing.
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
    %% Sharing: size/1 (OTP's Erlang over same/2) and size_shared/1 count a subterm once.
    Triple = {Shared, Shared, Shared},
    show([erts_debug:flat_size(Triple), erts_debug:size_shared(Triple), erts_debug:size(Triple)]),
    show([erts_debug:same(Shared, Shared), erts_debug:same(Shared, lists:seq(1, 10)), erts_debug:same(a, a)]),
    %% (A binary on the heap: beamlet's reference-counted binary is a word smaller than OTP's.)
    show([erts_debug:size(<<1:100>>), erts_debug:size_shared({Shared, [Shared]}),
          erts_debug:size_shared([Triple, Triple])]),
    show(erts_debug:get_internal_state(available_internal_state)),
    %% reds_left: set (taken into 1..4000), then counted down by the calls that follow.
    show([erts_debug:set_internal_state(reds_left, N) || N <- [0, 1, 4000, 4001, -1]]),
    show(catch erts_debug:set_internal_state(reds_left, a)),
    true = erts_debug:set_internal_state(reds_left, 3000),
    Left = erts_debug:get_internal_state(reds_left),
    show(Left > 2900 andalso Left =< 3000),
    show(erts_debug:get_internal_state(processes_bif_info)),
    show(erts_debug:set_internal_state(sleep, 1)),
    show(catch erts_debug:set_internal_state(sleep, -1)),
    show(erts_debug:set_internal_state(available_internal_state, false)),
    show(catch erts_debug:get_internal_state(foo)),
    ok.

show({'EXIT', {Reason, [{M, F, Args, _} | _]}}) -> io:format("EXIT ~p ~p:~p~p~n", [Reason, M, F, Args]);
show(X) -> io:format("~p~n", [X]).
