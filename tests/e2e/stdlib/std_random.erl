-module(std_random).
-export([main/0]).
-compile(nowarn_deprecated_function).
-compile(nowarn_removed).

%% random, the deprecated Wichmann-Hill generator: seed/1,3, seed0, uniform/0,1, uniform_s/1,2
%% with explicit seeds (the process-dictionary state and the functional state), and the
%% badarg/function_clause cases.
main() ->
    t(seed0, fun() -> random:seed0() end),
    _ = random:seed(1, 2, 3),
    t(seed_again, fun() -> random:seed(4, 5, 6) end),
    t(after_seed, fun() -> get(random_seed) end),
    _ = random:seed(1, 2, 3),
    t(uniform_ints, fun() -> [random:uniform(100) || _ <- lists:seq(1, 10)] end),
    t(uniform_floats, fun() -> [random:uniform() || _ <- lists:seq(1, 4)] end),
    t(seed_tuple, fun() -> random:seed({10, 20, 30}), [random:uniform(6) || _ <- lists:seq(1, 10)] end),
    t(uniform_s, fun() ->
        S0 = {1, 2, 3},
        {V1, S1} = random:uniform_s(S0),
        {V2, S2} = random:uniform_s(1000, S1),
        {V3, S3} = random:uniform_s(1 bsl 40, S2),
        {V1, V2, V3, S3} end),
    t(uniform_1, fun() -> random:seed(7, 7, 7), [random:uniform(1) || _ <- lists:seq(1, 3)] end),
    t(big_seed, fun() -> random:seed(123456789, 987654321, 5), [random:uniform(1000) || _ <- lists:seq(1, 5)] end),
    t(zero_seed, fun() -> random:seed(0, 0, 0), [random:uniform(1000) || _ <- lists:seq(1, 3)] end),
    t(uniform_zero, fun() -> random:uniform(0) end),
    t(uniform_s_bad, fun() -> random:uniform_s(0, {1, 2, 3}) end),
    t(seed_bad, fun() -> random:seed(a, b, c) end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
