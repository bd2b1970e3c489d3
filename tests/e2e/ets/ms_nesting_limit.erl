%% A match spec nested too deep for erts (a guard of a million orelse) is a system_limit
%% error for ets:match_spec_compile/1, select/2,3 and select_replace/2 on both table kinds,
%% not badarg; a reasonably deep one compiles (ets_SUITE:ms_excessive_nesting).
-module(ms_nesting_limit).
-export([main/0]).
main() ->
    Mk = fun (_F, N) when N < 0 -> true; (F, N) -> {'orelse', {'==', N, '$1'}, F(F, N-1)} end,
    MS = [{{'$1', '$2'}, [Mk(Mk, 100)], [{{'$1', blipp}}]}],
    io:format("~p~n", [erlang:match_spec_test({1, blupp}, MS, table)]),
    io:format("~p~n", [ets:is_compiled_ms(ets:match_spec_compile(MS))]),
    EN = [{{'$1', '$2'}, [Mk(Mk, 1000000)], [{{'$1', blipp}}]}],
    T = ets:new(t, [ordered_set]), H = ets:new(h, [set]),
    [io:format("~p~n", [try F() catch C:R -> {C, R} end])
     || F <- [fun() -> ets:match_spec_compile(EN) end, fun() -> ets:select_replace(T, EN) end,
              fun() -> ets:select_replace(H, EN) end, fun() -> ets:select(H, EN) end,
              fun() -> ets:select(H, EN, 10) end, fun() -> ets:match_spec_compile(bad) end]],
    ok.
