-module(std_os_system).
-export([main/0]).

%% Deterministic system facts and environment variables: erlang:system_info for wordsize,
%% {wordsize, internal | external}, machine, smp_support and threads; os:type(), os:getenv/1,2,
%% os:putenv/2, os:unsetenv/1, os:env/0 and os:getenv/0 (only the variables this test sets),
%% and bad arguments.
main() ->
    t(wordsize, fun() -> erlang:system_info(wordsize) end),
    t(wordsize_internal, fun() -> erlang:system_info({wordsize, internal}) end),
    t(wordsize_external, fun() -> erlang:system_info({wordsize, external}) end),
    t(machine, fun() -> erlang:system_info(machine) end),
    t(smp_threads, fun() -> {erlang:system_info(smp_support), erlang:system_info(threads)} end),
    t(context_reductions, fun() -> erlang:system_info(context_reductions) end),
    t(ets_always_compress, fun() -> erlang:system_info(ets_always_compress) end),
    t(os_type, fun() -> os:type() end),
    t(system_info_bad, fun() -> erlang:system_info(no_such_item_xyz) end),
    V = "BEAMLET_STD_TEST_VAR",
    V2 = "BEAMLET_STD_TEST_VAR_2",
    t(getenv_unset, fun() -> os:getenv(V) end),
    t(getenv_default, fun() -> os:getenv(V, "the default") end),
    t(putenv, fun() -> os:putenv(V, "some value") end),
    t(getenv_set, fun() -> os:getenv(V) end),
    t(getenv_default_set, fun() -> os:getenv(V, "the default") end),
    t(putenv_empty, fun() -> os:putenv(V2, ""), os:getenv(V2) end),
    t(putenv_overwrite, fun() -> os:putenv(V, "second=value with = signs"), os:getenv(V) end),
    t(env_mine, fun() -> lists:sort([KV || {K, _} = KV <- os:env(), lists:prefix("BEAMLET_STD_TEST_", K)]) end),
    t(getenv0_mine, fun() -> lists:sort([S || S <- os:getenv(), lists:prefix("BEAMLET_STD_TEST_", S)]) end),
    t(unsetenv, fun() -> os:unsetenv(V) end),
    t(getenv_after_unset, fun() -> os:getenv(V) end),
    t(unsetenv_missing, fun() -> os:unsetenv("BEAMLET_STD_TEST_NEVER_SET") end),
    t(unset2, fun() -> os:unsetenv(V2), os:getenv(V2, gone) end),
    t(env_mine_after, fun() -> [K || {K, _} <- os:env(), lists:prefix("BEAMLET_STD_TEST_", K)] end),
    t(putenv_bad_name, fun() -> os:putenv("A=B", "x") end),
    t(putenv_bad_type, fun() -> os:putenv(abc, "x") end),
    t(getenv_bad_type, fun() -> os:getenv(abc) end),
    t(path_is_set, fun() -> is_list(os:getenv("PATH")) end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
