%% beamlet dis golden: float arithmetic (float registers), maps (build, update, match).
-module(dis_floats_maps).
-export([main/0, norm/2, bump/2]).

main() ->
    M = #{a => 1, b => 2.5},
    #{b := B} = M,
    io:format("~p~n", [{norm(3.0, 4.0), bump(a, M), B / 2}]).

norm(X, Y) when is_float(X), is_float(Y) -> math:sqrt(X * X + Y * Y).

bump(K, M) ->
    case M of
        #{K := V} when is_integer(V) -> M#{K := V + 1};
        #{} -> M#{K => 0}
    end.
