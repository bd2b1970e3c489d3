%% tests/e2e/ets/ets_large.erl — 100,000 keys in a set and in an ordered_set: sizes, sums of a
%% fold, select_count with a guard, lookups of a sample, first/last of the ordered_set, deleting
%% half with select_delete, update_counter on every key, a duplicate_bag with many objects per
%% key, insert of a long list in one call, delete_all_objects; only counts and sums are printed.
-module(ets_large).
-export([main/0]).

-define(N, 100000).

main() ->
    S = ets:new(s, [set]),
    O = ets:new(o, [ordered_set]),
    lists:foreach(fun(I) -> true = ets:insert(S, {I, I * 2}) end, lists:seq(1, ?N)),
    true = ets:insert(O, [{I, I * 2} || I <- lists:seq(?N, 1, -1)]),
    [report(Name, T) || {Name, T} <- [{set, S}, {ordered_set, O}]],
    io:format("oset first/last: ~w ~w, next(50000): ~w, prev(1): ~w~n",
              [ets:first(O), ets:last(O), ets:next(O, 50000), ets:prev(O, 1)]),
    io:format("oset select range 1000..1009: ~w~n",
              [ets:select(O, [{{'$1', '$2'}, [{'>=', '$1', 1000}, {'<', '$1', 1010}], ['$2']}])]),
    %% chunked select over the whole ordered_set
    {Chunks, Total} = count_chunks(ets:select(O, [{{'$1', '_'}, [], ['$1']}], 1000), 0, 0),
    io:format("oset select/3 by 1000: ~w chunks, ~w keys~n", [Chunks, Total]),
    %% set chunked select: union
    SU = sum_chunks(ets:select(S, [{{'$1', '_'}, [{'>', '$1', 90000}], ['$1']}], 333), 0),
    io:format("set select/3 sum of keys > 90000: ~w~n", [SU]),
    %% update every counter
    lists:foreach(fun(I) -> ets:update_counter(S, I, 1) end, lists:seq(1, ?N)),
    io:format("set sum after update_counter: ~w~n", [ets:foldl(fun({_, V}, A) -> A + V end, 0, S)]),
    %% delete half
    io:format("select_delete odd: ~w ~w~n",
              [ets:select_delete(S, [{{'$1', '_'}, [{'==', {'rem', '$1', 2}, 1}], [true]}]),
               ets:select_delete(O, [{{'$1', '_'}, [{'==', {'rem', '$1', 2}, 1}], [true]}])]),
    io:format("sizes: ~w ~w~n", [ets:info(S, size), ets:info(O, size)]),
    io:format("oset first after: ~w, sum of keys: ~w~n",
              [ets:first(O), ets:foldl(fun({K, _}, A) -> A + K end, 0, O)]),
    %% duplicate bag with many objects per key
    D = ets:new(d, [duplicate_bag]),
    true = ets:insert(D, [{I rem 10, I} || I <- lists:seq(1, 20000)]),
    io:format("dbag size ~w, key 3 count ~w, sum ~w~n",
              [ets:info(D, size), length(ets:lookup(D, 3)),
               lists:sum(ets:lookup_element(D, 3, 2))]),
    io:format("dbag select_count key 0: ~w~n", [ets:select_count(D, [{{0, '_'}, [], [true]}])]),
    true = ets:delete(D, 3),
    io:format("dbag size after delete key 3: ~w~n", [ets:info(D, size)]),
    true = ets:delete_all_objects(S),
    io:format("set after delete_all_objects: ~w ~w~n", [ets:info(S, size), ets:first(S)]),
    ok.

report(Name, T) ->
    io:format("~w: size ~w~n", [Name, ets:info(T, size)]),
    io:format("~w: foldl sum ~w~n", [Name, ets:foldl(fun({_, V}, A) -> A + V end, 0, T)]),
    io:format("~w: select_count div by 7: ~w~n",
              [Name, ets:select_count(T, [{{'$1', '_'}, [{'==', {'rem', '$1', 7}, 0}], [true]}])]),
    io:format("~w: sample lookups: ~w~n",
              [Name, [ets:lookup(T, K) || K <- [1, 777, 50000, 99999, 100000, 100001, 0]]]),
    io:format("~w: tab2list length ~w~n", [Name, length(ets:tab2list(T))]).

count_chunks('$end_of_table', C, N) -> {C, N};
count_chunks({L, '$end_of_table'}, C, N) -> {C + 1, N + length(L)};
count_chunks({L, Cont}, C, N) -> count_chunks(ets:select(Cont), C + 1, N + length(L)).

sum_chunks('$end_of_table', A) -> A;
sum_chunks({L, '$end_of_table'}, A) -> A + lists:sum(L);
sum_chunks({L, Cont}, A) -> sum_chunks(ets:select(Cont), A + lists:sum(L)).
