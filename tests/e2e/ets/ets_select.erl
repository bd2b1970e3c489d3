%% tests/e2e/ets/ets_select.erl — select/2 with guards and bodies ('$_', '$$', '$N', tuples
%% built in the body with {{...}}, constants, several clauses where the first matching wins),
%% select/3 + select/1 continuations on an ordered_set (chunk boundaries in key order) and on a
%% set (union only), select_reverse/2,3,1 on an ordered_set, select_count/2, select_delete/2
%% (the body must be true to delete), an empty match spec list, and an invalid match spec
%% (badarg).
-module(ets_select).
-export([main/0]).

main() ->
    T = ets:new(t, [set]),
    true = ets:insert(T, [{I, I * I, if I rem 2 =:= 0 -> even; true -> odd end}
                          || I <- lists:seq(1, 12)]),
    io:format("'$_' where sq > 50: ~w~n",
              [lists:sort(ets:select(T, [{{'_', '$1', '_'}, [{'>', '$1', 50}], ['$_']}]))]),
    io:format("'$$' even: ~w~n",
              [lists:sort(ets:select(T, [{{'$1', '$2', even}, [], ['$$']}]))]),
    io:format("body tuple: ~w~n",
              [lists:sort(ets:select(T, [{{'$1', '$2', odd}, [{'<', '$1', 6}],
                                          [{{'$2', '$1', const}}]}]))]),
    io:format("body constant: ~w~n",
              [ets:select(T, [{{3, '_', '_'}, [], [found]}])]),
    io:format("two clauses: ~w~n",
              [lists:sort(ets:select(T, [{{'$1', '_', '_'}, [{'<', '$1', 3}], [{{small, '$1'}}]},
                                         {{'$1', '_', '_'}, [{'<', '$1', 5}], [{{medium, '$1'}}]}]))]),
    io:format("guard andalso/is_integer: ~w~n",
              [lists:sort(ets:select(T, [{{'$1', '$2', '_'},
                                          [{'andalso', {is_integer, '$1'},
                                            {'==', {'rem', '$2', 3}, 0}}],
                                          ['$1']}]))]),
    io:format("arith body: ~w~n",
              [lists:sort(ets:select(T, [{{'$1', '$2', even}, [{'>', '$1', 8}],
                                          [{'+', '$1', '$2'}]}]))]),
    io:format("empty ms: ~w~n", [ets:select(T, [])]),
    io:format("select_count even: ~w~n", [ets:select_count(T, [{{'_', '_', even}, [], [true]}])]),
    io:format("select_count non-true body: ~w~n",
              [ets:select_count(T, [{{'_', '_', even}, [], [yes]}])]),
    io:format("select_count all: ~w~n", [ets:select_count(T, [{'_', [], [true]}])]),
    io:format("select_delete odd > 5: ~w~n",
              [ets:select_delete(T, [{{'$1', '_', odd}, [{'>', '$1', 5}], [true]}])]),
    io:format("select_delete with non-true body: ~w~n",
              [ets:select_delete(T, [{{'_', '_', even}, [], [false]}])]),
    io:format("after: ~w~n", [lists:sort(ets:select(T, [{{'$1', '_', '_'}, [], ['$1']}]))]),
    io:format("bad ms: ~w~n", [try_op(fun() -> ets:select(T, [{'_', [{bad_guard, '$1'}], ['$_']}]) end)]),
    io:format("bad ms not list: ~w~n", [try_op(fun() -> ets:select(T, foo) end)]),
    io:format("bad ms unbound var: ~w~n", [try_op(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], ['$2']}]) end)]),
    %% ordered_set chunks
    O = ets:new(o, [ordered_set]),
    true = ets:insert(O, [{I, I rem 4} || I <- lists:seq(1, 22)]),
    MS = [{{'$1', '$2'}, [{'=/=', '$2', 0}], ['$1']}],
    io:format("oset select/2: ~w~n", [ets:select(O, MS)]),
    io:format("oset select/3 limit 5:~n"),
    chunks(ets:select(O, MS, 5), fun ets:select/1),
    io:format("oset select/3 limit 17 (exactly all):~n"),
    chunks(ets:select(O, MS, 17), fun ets:select/1),
    io:format("oset select/3 no match: ~w~n", [ets:select(O, [{{'_', 9}, [], ['$_']}], 3)]),
    io:format("oset select_reverse/2: ~w~n", [ets:select_reverse(O, MS)]),
    io:format("oset select_reverse/3 limit 6:~n"),
    chunks(ets:select_reverse(O, MS, 6), fun ets:select_reverse/1),
    io:format("oset bound-key select: ~w~n", [ets:select(O, [{{7, '$1'}, [], ['$1']}])]),
    io:format("oset select_count: ~w~n", [ets:select_count(O, MS ++ [])]),
    io:format("oset select_count true: ~w~n",
              [ets:select_count(O, [{{'_', '$2'}, [{'=/=', '$2', 0}], [true]}])]),
    io:format("oset select_delete: ~w, left ~w~n",
              [ets:select_delete(O, [{{'_', 0}, [], [true]}]), ets:tab2list(O)]),
    io:format("select/1 end_of_table: ~w~n", [ets:select('$end_of_table')]),
    %% set chunks: union only
    S = ets:new(s, [set]),
    true = ets:insert(S, [{I, I} || I <- lists:seq(1, 40)]),
    U = collect(ets:select(S, [{{'$1', '_'}, [{'>', '$1', 10}], ['$1']}], 7), fun ets:select/1),
    io:format("set select/3 union: ~w items, sorted ~w~n", [length(U), lists:sort(U)]),
    R = collect(ets:select_reverse(S, [{{'$1', '_'}, [], ['$1']}], 9), fun ets:select_reverse/1),
    io:format("set select_reverse/3 union: ~w items, sum ~w~n", [length(R), lists:sum(R)]),
    io:format("set select_reverse/2 sorted: ~w~n",
              [lists:sort(ets:select_reverse(S, [{{'$1', '_'}, [{'<', '$1', 4}], ['$1']}]))]),
    io:format("select limit 0: ~w~n", [try_op(fun() -> ets:select(S, [{'_', [], [true]}], 0) end)]),
    ok.

chunks('$end_of_table', _Next) -> io:format("  '$end_of_table'~n");
chunks({Items, Cont}, Next) ->
    io:format("  chunk ~w~n", [Items]),
    case Cont of
        '$end_of_table' -> io:format("  continuation is '$end_of_table'~n");
        _ -> chunks(Next(Cont), Next)
    end.

collect('$end_of_table', _Next) -> [];
collect({Items, '$end_of_table'}, _Next) -> Items;
collect({Items, Cont}, Next) -> Items ++ collect(Next(Cont), Next).

try_op(F) ->
    try F() catch C:E -> {error, C, E} end.
