%% tests/e2e/ets/ets_continuation.erl — continuation behaviour of select/3, match/3,
%% match_object/3 and select_reverse/3: on an ordered_set a continuation is a plain term that
%% can be reused (the same chunk twice), it resumes after the last returned key so inserts and
%% deletes made meanwhile are seen; '$end_of_table' passed to select/1, match/1 and
%% match_object/1; a continuation of a deleted table is badarg; a limit larger than the table;
%% a set's continuation still yields every object exactly once when nothing changes.
-module(ets_continuation).
-export([main/0]).

main() ->
    O = ets:new(o, [ordered_set, public]),
    true = ets:insert(O, [{I, I} || I <- lists:seq(1, 10)]),
    MS = [{{'$1', '_'}, [], ['$1']}],
    {C1, K1} = ets:select(O, MS, 3),
    io:format("chunk 1: ~w~n", [C1]),
    {C2, K2} = ets:select(K1),
    {C2b, _} = ets:select(K1),
    io:format("chunk 2: ~w, reused continuation gives the same: ~w~n", [C2, C2 =:= C2b]),
    %% modify between chunks
    true = ets:insert(O, [{6.5, x}, {0, y}]),
    true = ets:delete(O, 8),
    {C3, K3} = ets:select(K2),
    io:format("chunk 3 after insert 6.5/0, delete 8: ~w~n", [C3]),
    Rest = ets:select(K3),
    io:format("rest: ~w~n", [Rest]),
    io:format("select/1 '$end_of_table': ~w, match/1: ~w, match_object/1: ~w~n",
              [ets:select('$end_of_table'), ets:match('$end_of_table'),
               ets:match_object('$end_of_table')]),
    %% limit larger than the table
    io:format("limit 100: ~w~n", [ets:select(O, MS, 100)]),
    io:format("limit 100 match: ~w~n", [ets:match(O, {'$1', '_'}, 100)]),
    io:format("limit 100 match_object count: ~w~n",
              [case ets:match_object(O, '_', 100) of {L, Kx} -> {length(L), Kx} end]),
    %% select_reverse continuations
    {R1, RK1} = ets:select_reverse(O, MS, 4),
    true = ets:insert(O, {9.5, z}),
    {R2, _} = ets:select_reverse(RK1),
    io:format("reverse chunks: ~w ~w~n", [R1, R2]),
    %% match/3 continuation reused, then the table is deleted
    {M1, MK1} = ets:match(O, {'$1', '$2'}, 2),
    io:format("match chunk: ~w~n", [M1]),
    {M2, _} = ets:match(MK1),
    io:format("match next: ~w~n", [M2]),
    {_, OK1} = ets:match_object(O, '_', 2),
    true = ets:delete(O),
    io:format("select/1 on deleted table: ~w~n", [try_op(fun() -> ets:select(K1) end)]),
    io:format("match/1 on deleted table: ~w~n", [try_op(fun() -> ets:match(MK1) end)]),
    io:format("match_object/1 on deleted table: ~w~n", [try_op(fun() -> ets:match_object(OK1) end)]),
    %% set: iterate all with select/1
    S = ets:new(s, [set]),
    true = ets:insert(S, [{I, I} || I <- lists:seq(1, 100)]),
    All = collect(ets:select(S, MS, 9)),
    io:format("set: ~w objects, distinct ~w, sum ~w~n",
              [length(All), length(lists:usort(All)), lists:sum(All)]),
    io:format("set select/3 limit 1000: ~w items~n",
              [case ets:select(S, MS, 1000) of {L2, _} -> length(L2) end]),
    ok.

collect('$end_of_table') -> [];
collect({Items, '$end_of_table'}) -> Items;
collect({Items, Cont}) -> Items ++ collect(ets:select(Cont)).

try_op(F) ->
    try F() catch C:E -> {error, C, E} end.
