%% tests/e2e/ets/ets_partly_bound_key.erl — an ordered_set matched with a key whose leading
%% elements are bound ({a, b, '_'}) visits only the range of keys that can match, as OTP's
%% partly bound keys: the answers are those of a whole scan, whatever the other keys (other
%% types, other arities, 1 against 1.0), for match, match_object, select, select_count,
%% select_delete and select_reverse.
-module(ets_partly_bound_key).
-export([main/0]).

main() ->
    T = ets:new(t, [ordered_set]),
    Keys = [{A, B, N} || A <- [a, b, 1, 2.0], B <- [a, b, x], N <- lists:seq(1, 30)] ++
           [{a, N} || N <- lists:seq(1, 10)] ++ [{a, b, c, N} || N <- lists:seq(1, 10)] ++
           [a, 1, "ab", [a, b], {}, {a}, <<"ab">>],
    [ets:insert(T, {K, value(K)}) || K <- Keys],
    Patterns = [{{a, b, '_'}, '_'}, {{a, '_', '_'}, '_'}, {{1.0, x, '_'}, '_'}, {{2, a, '$1'}, '$2'},
                {{b, x, 7}, '_'}, {{a, '_'}, '_'}, {{a, b, c, '_'}, '_'}, {{z, '_', '_'}, '_'},
                {{a, b, '$1'}, big}],
    [begin
         MS = [{P, [], ['$_']}],
         io:format("~p: match_object ~p, select ~p, count ~p, reverse ~p~n",
                   [P, length(ets:match_object(T, P)), lists:sum([V || {_, V} <- ets:select(T, MS), is_integer(V)]),
                    ets:select_count(T, [{P, [], [true]}]), hd(ets:select_reverse(T, MS) ++ [none])])
     end || P <- Patterns],
    io:format("match: ~p~n", [ets:match(T, {{2, a, '$1'}, '_'})]),
    io:format("limited: ~p~n", [element(1, ets:select(T, [{{{a, x, '$1'}, '_'}, [{'<', '$1', 20}], ['$1']}], 5))]),
    io:format("deleted: ~p, left ~p~n", [ets:select_delete(T, [{{{b, '_', '_'}, '_'}, [], [true]}]), ets:info(T, size)]),
    ok.

value({_, _, N}) when is_integer(N) -> N;
value(_) -> other.
