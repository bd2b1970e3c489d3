-module(ets_spec_reuse).
-export([main/0]).

%% The same match spec given again (beamlet keeps recently compiled specs per scheduler):
%% each call still answers for its own table and its own spec, and specs that differ only
%% in 1 against 1.0, or in a bound constant, are different specs.
main() ->
    T1 = ets:new(t1, [set]), T2 = ets:new(t2, [bag]),
    ets:insert(T1, [{K, K * 10} || K <- lists:seq(1, 20)]),
    ets:insert(T2, [{K rem 3, K} || K <- lists:seq(1, 9)] ++ [{1.0, float}]),
    MS = [{{'$1', '$2'}, [{'>', '$2', 50}], ['$1']}],
    io:format("~p~n", [lists:sort(ets:select(T1, MS))]),
    io:format("~p~n", [lists:sort(ets:select(T2, MS))]),
    io:format("~p~n", [lists:sort(ets:select(T1, MS))]),
    io:format("int key: ~p~n", [lists:sort(ets:select(T2, [{{1, '$1'}, [], ['$1']}]))]),
    io:format("float key: ~p~n", [lists:sort(ets:select(T2, [{{1.0, '$1'}, [], ['$1']}]))]),
    io:format("int key again: ~p~n", [lists:sort(ets:select(T2, [{{1, '$1'}, [], ['$1']}]))]),
    [io:format("bound ~p: ~p~n", [N, ets:select_count(T1, [{{'$1', '_'}, [{'<', '$1', N}], [true]}])]) || N <- [3, 5, 3, 10, 5]],
    io:format("match_object: ~p ~p~n", [ets:match_object(T1, {7, '_'}), ets:match_object(T1, {8, '_'})]),
    io:format("many specs: ~p~n", [[ets:select_count(T1, [{{'$1', '_'}, [{'=<', '$1', N}], [true]}]) || N <- lists:seq(1, 20)]]),
    io:format("bad spec: ~p~n", [try ets:select(T1, [{{'$1'}, [{bad_guard, '$1'}], ['$1']}]) catch error:E -> E end]),
    io:format("bad spec again: ~p~n", [try ets:select(T1, [{{'$1'}, [{bad_guard, '$1'}], ['$1']}]) catch error:E2 -> E2 end]),
    ok.
