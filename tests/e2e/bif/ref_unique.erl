-module(ref_unique).
-export([main/0]).

%% make_ref / unique_integer: only properties are printed, never the values.
main() ->
    R1 = make_ref(),
    R2 = make_ref(),
    io:format("refs ~w ~w ~w ~w~n", [R1 =:= R1, R1 =:= R2, R1 == R2, is_reference(R1)]),
    io:format("ref order total ~w~n", [(R1 < R2) xor (R2 < R1)]),
    io:format("ref vs others ~w ~w~n", [R1 > 1 bsl 100, R1 > zzz]),
    Refs = [make_ref() || _ <- lists:seq(1, 100)],
    io:format("distinct refs ~w~n", [length(lists:usort(Refs))]),
    M = #{R1 => one, R2 => two},
    io:format("ref keys ~w ~w~n", [maps:get(R1, M), maps:get(R2, M)]),
    Us = [erlang:unique_integer([monotonic]) || _ <- lists:seq(1, 1000)],
    io:format("monotonic ~w~n", [Us =:= lists:sort(Us) andalso length(lists:usort(Us)) =:= 1000]),
    Ps = [erlang:unique_integer([positive]) || _ <- lists:seq(1, 100)],
    io:format("positive ~w~n", [lists:all(fun(X) -> is_integer(X) andalso X > 0 end, Ps)]),
    io:format("unique ~w~n", [length(lists:usort(Ps)) =:= 100]),
    MP = [erlang:unique_integer([monotonic, positive]) || _ <- lists:seq(1, 100)],
    io:format("mono+pos ~w~n", [MP =:= lists:usort(MP) andalso hd(MP) > 0]),
    io:format("plain is int ~w~n", [is_integer(erlang:unique_integer())]),
    io:format("ref in tuple eq ~w~n", [{R1, a} =:= {R1, a}]),
    io:format("self is pid ~w~n", [is_pid(self())]),
    ok.
