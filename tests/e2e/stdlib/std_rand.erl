-module(std_rand).
-export([main/0]).

%% rand with explicit seeds only: seed/2 and seed_s/2 for exsss (default), exrop, exs1024s,
%% exro928ss, exsp, exs64-free algorithms; uniform/0,1, uniform_s, uniform_real,
%% uniform_real_s, normal/0,2, normal_s, bytes/bytes_s, jump, export_seed/export_seed_s and
%% seed from an exported state (reproducibility), process-dictionary state vs functional
%% state, and bad arguments.
main() ->
    Algs = [exsss, exrop, exs1024s, exro928ss, exsp, exsplus, exs1024],
    lists:foreach(fun(Alg) ->
        _ = rand:seed(Alg, {1, 2, 3}),
        Ints = [rand:uniform(100) || _ <- lists:seq(1, 8)],
        Floats = [rand:uniform() || _ <- lists:seq(1, 3)],
        Big = rand:uniform(1 bsl 80),
        Real = rand:uniform_real(),
        Norm = rand:normal(),
        Norm2 = rand:normal(10.0, 4.0),
        io:format("~p: ints=~w~n  floats=~p~n  big=~p real=~p~n  normal=~p normal2=~p~n",
                  [Alg, Ints, Floats, Big, Real, Norm, Norm2])
    end, Algs),
    %% functional state
    S0 = rand:seed_s(exsss, {42, 43, 44}),
    {A1, S1} = rand:uniform_s(1000, S0),
    {A2, S2} = rand:uniform_s(1000, S1),
    {F1, S3} = rand:uniform_s(S2),
    {R1, S4} = rand:uniform_real_s(S3),
    {N1, S5} = rand:normal_s(S4),
    {N2, S6} = rand:normal_s(100, 25, S5),
    io:format("functional: ~p ~p ~p ~p ~p ~p~n", [A1, A2, F1, R1, N1, N2]),
    %% Exported state round trip
    Exp = rand:export_seed_s(S6),
    io:format("exported: ~p~n", [Exp]),
    {X1, _} = rand:uniform_s(1 bsl 40, S6),
    {X2, _} = rand:uniform_s(1 bsl 40, rand:seed_s(Exp)),
    {X3, _} = rand:uniform_s(1 bsl 40, rand:seed(Exp)),
    io:format("reseeded equal: ~p ~p~n", [X1 =:= X2, X2 =:= X3]),
    %% Process dictionary state
    _ = rand:seed(exrop, {7, 8, 9}),
    P1 = [rand:uniform(10) || _ <- lists:seq(1, 5)],
    PExp = rand:export_seed(),
    P2 = [rand:uniform(10) || _ <- lists:seq(1, 5)],
    _ = rand:seed(PExp),
    P3 = [rand:uniform(10) || _ <- lists:seq(1, 5)],
    io:format("pdict: ~w ~w ~w~n", [P1, P2, P2 =:= P3]),
    io:format("pdict export: ~p~n", [PExp]),
    %% Same seed, same sequence; seed as an integer
    Seq = fun(Alg, Seed) -> S = rand:seed_s(Alg, Seed), element(1, lists:mapfoldl(fun(_, St) -> rand:uniform_s(1000000, St) end, S, lists:seq(1, 6))) end,
    io:format("same: ~p~n", [Seq(exsss, {1, 2, 3}) =:= Seq(exsss, {1, 2, 3})]),
    io:format("int seed exsss: ~w~n", [Seq(exsss, 12345)]),
    io:format("int seed exrop: ~w~n", [Seq(exrop, 12345)]),
    io:format("zero seed exsss: ~w~n", [Seq(exsss, {0, 0, 0})]),
    io:format("big seed exro928ss: ~w~n", [Seq(exro928ss, {1 bsl 70, -5, 3})]),
    %% bytes
    {B1, _} = rand:bytes_s(10, rand:seed_s(exsss, {1, 2, 3})),
    {B2, _} = rand:bytes_s(0, rand:seed_s(exrop, {1, 2, 3})),
    _ = rand:seed(exs1024s, {1, 2, 3}),
    B3 = rand:bytes(13),
    io:format("bytes: ~w ~w ~w~n", [B1, B2, B3]),
    %% jump
    J0 = rand:seed_s(exsss, {5, 6, 7}),
    J1 = rand:jump(J0),
    {JV, _} = rand:uniform_s(1000000, J1),
    {JV2, _} = rand:uniform_s(1000000, rand:jump(rand:seed_s(exro928ss, {5, 6, 7}))),
    {JV3, _} = rand:uniform_s(1000000, rand:jump(rand:seed_s(exs1024s, {5, 6, 7}))),
    io:format("jump: ~p ~p ~p~n", [JV, JV2, JV3]),
    %% Distribution sanity on a fixed seed
    {Counts, _} = lists:foldl(fun(_, {C, St}) -> {V, St2} = rand:uniform_s(4, St), {setelement(V, C, element(V, C) + 1), St2} end,
                              {{0, 0, 0, 0}, rand:seed_s(exsss, {9, 9, 9})}, lists:seq(1, 4000)),
    io:format("counts: ~p~n", [Counts]),
    t(uniform_zero, fun() -> rand:uniform(0) end),
    t(uniform_neg, fun() -> rand:uniform(-5) end),
    t(uniform_float_arg, fun() -> rand:uniform(2.0) end),
    t(bad_alg, fun() -> rand:seed(bogus, {1, 2, 3}) end),
    t(bad_seed_s, fun() -> rand:seed_s(notanalg) end),
    t(jump_unsupported, fun() -> rand:jump(rand:seed_s(exsplus, {1, 2, 3})) =/= undefined end),
    t(bytes_neg, fun() -> rand:bytes_s(-1, rand:seed_s(exsss, {1, 2, 3})) end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
