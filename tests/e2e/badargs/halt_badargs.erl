%% halt/1,2 with bad arguments: badarg, and the VM runs on (bif_SUITE:erlang_halt).
-module(halt_badargs).
-export([main/0]).
main() ->
    [io:format("~p -> ~p~n", [A, try apply(erlang, halt, A) catch C:R -> {C, R} end]) ||
        A <- [[undefined], [undefined, []], [0, undefined], [0, [undefined]], [0, [{undefined,true}]],
              [0, [{flush,undefined}]], [0, [{flush,true,undefined}]], [-1], [0, [flush]], [1.0], [0, [{flush,true}|x]]]].
