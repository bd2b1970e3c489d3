%% A map update in a guard fails the guard (no badkey or badmap exception), as erl_eval_SUITE's
%% otp_15035 checks: M#{a := b} on a map without the key, or on something not a map.
-module(map_update_in_guard).
-export([main/0]).

main() ->
    F = fun(M) when M#{} -> empty_update;
           (M) when M#{a := b} -> exact;
           (M) when M#{a := b} =:= M#{a := b} -> exact_compared;
           (M) when M#{a => b} =:= #{a => b} -> assoc_compared;
           (_) -> none
        end,
    [io:format("~w -> ~w~n", [M, F(M)]) || M <- [#{}, #{a => b}, #{a => c}, #{b => 1}, not_a_map, [1]]],
    G = fun(M) when map_size(M#{k := 1}) > 0 -> has_k; (_) -> no_k end,
    io:format("~w ~w~n", [G(#{k => 0}), G(#{})]),
    io:format("outside a guard: ~w~n", [element(1, element(2, catch (id(#{}))#{a := b}))]),
    ok.

id(X) -> X.
