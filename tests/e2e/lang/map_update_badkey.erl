%% M#{K := V, ...} with missing keys: the badkey error names the first missing key in map-key
%% order (integers before floats of equal value), whatever order the source lists them in.
-module(map_update_badkey).
-export([main/0]).

main() ->
    M0 = id(#{1 => a, 2 => b, 3.0 => c, 4 => d, 5 => e}),
    [io:format("~p~n", [reason(catch F(M0))]) || F <- [
        fun(M) -> M#{42.0 := v, 42 := v2} end,
        fun(M) -> M#{42 => v1, 42.0 := v2, 42 := v3} end,
        fun(M) -> M#{1.0 := v, 1.0 => v2} end,
        fun(M) -> M#{zz := 1, aa := 2, 3 := x} end,
        fun(M) -> M#{<<"b">> := 1, "a" := 2, {t} := 3} end,
        fun(M) -> M#{3.0 := new, 1 := one} end]].

reason({'EXIT', {R, _}}) -> R;
reason(V) -> V.

id(X) -> X.
