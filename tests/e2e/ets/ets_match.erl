%% tests/e2e/ets/ets_match.erl — match/2 (variables '$N' bound in order of their number, '_'
%% wildcards, a bound key, nested patterns, a repeated variable, a pattern of the wrong size),
%% match_object/2, match_delete/2, and the chunked forms match/3 + match/1 and
%% match_object/3 + match_object/1 on an ordered_set (chunks in key order, iterated to
%% '$end_of_table') and on a set (only the sorted union and the total are printed); a limit on
%% an empty result; badarg for a limit of 0.
-module(ets_match).
-export([main/0]).

main() ->
    T = ets:new(t, [set]),
    true = ets:insert(T, [{alice, 30, {paris, fr}}, {bob, 25, {oslo, no}},
                          {carol, 30, {lyon, fr}}, {dave, 40, {bergen, no}},
                          {same, same, x}, {eve, 25}]),
    io:format("names/ages: ~w~n", [lists:sort(ets:match(T, {'$1', '$2', '_'}))]),
    io:format("swapped var numbers: ~w~n", [lists:sort(ets:match(T, {'$2', '$1', '_'}))]),
    io:format("age 30: ~w~n", [lists:sort(ets:match(T, {'$1', 30, '_'}))]),
    io:format("nested fr: ~w~n", [lists:sort(ets:match(T, {'$1', '_', {'$2', fr}}))]),
    io:format("repeated var: ~w~n", [ets:match(T, {'$1', '$1', '_'})]),
    io:format("bound key: ~w~n", [ets:match(T, {bob, '$1', '$2'})]),
    io:format("2-tuples: ~w~n", [ets:match(T, {'$1', '$2'})]),
    io:format("no vars: ~w~n", [ets:match(T, {bob, '_', '_'})]),
    io:format("whole object var: ~w~n", [lists:sort(ets:match(T, '$1'))]),
    io:format("match_object age 25: ~w~n", [lists:sort(ets:match_object(T, {'_', 25, '_'}))]),
    io:format("match_object any size: ~w~n", [length(ets:match_object(T, '_'))]),
    io:format("match_delete no: ~w~n", [ets:match_delete(T, {'_', '_', {'_', no}})]),
    io:format("after: ~w~n", [lists:sort(ets:tab2list(T))]),
    %% chunks on an ordered_set
    O = ets:new(o, [ordered_set]),
    true = ets:insert(O, [{I, I rem 3} || I <- lists:seq(1, 20)]),
    io:format("oset match/3 limit 4 (rem 0):~n", []),
    print_chunks(ets:match(O, {'$1', 0}, 4)),
    io:format("oset match/3 limit 3 (rem 1):~n", []),
    print_chunks(ets:match(O, {'$1', 1}, 3)),
    io:format("oset match_object/3 limit 5 (all):~n", []),
    print_obj_chunks(ets:match_object(O, '_', 5)),
    io:format("oset match/3 no match: ~w~n", [ets:match(O, {'_', 7}, 5)]),
    io:format("match/1 end_of_table: ~w~n", [ets:match('$end_of_table')]),
    %% chunks on a set: union only
    S = ets:new(s, [set]),
    true = ets:insert(S, [{I, I * 2} || I <- lists:seq(1, 25)]),
    All = collect(ets:match(S, {'$1', '$2'}, 4), fun ets:match/1),
    io:format("set match/3 union: ~w items, sorted ~w~n", [length(All), lists:sort(All)]),
    AllO = collect(ets:match_object(S, {'_', '_'}, 7), fun ets:match_object/1),
    io:format("set match_object/3 union: ~w items, sum ~w~n",
              [length(AllO), lists:sum([V || {_, V} <- AllO])]),
    io:format("set match/3 no match: ~w~n", [ets:match(S, {x, '_'}, 3)]),
    io:format("limit 0: ~w~n", [try_op(fun() -> ets:match(S, '_', 0) end)]),
    io:format("limit atom: ~w~n", [try_op(fun() -> ets:match(S, '_', a) end)]),
    ok.

print_chunks('$end_of_table') -> io:format("  '$end_of_table'~n");
print_chunks({Items, Cont}) ->
    io:format("  chunk ~w~n", [Items]),
    case Cont of
        '$end_of_table' -> io:format("  continuation is '$end_of_table'~n");
        _ -> print_chunks(ets:match(Cont))
    end.

print_obj_chunks('$end_of_table') -> io:format("  '$end_of_table'~n");
print_obj_chunks({Items, Cont}) ->
    io:format("  chunk ~w~n", [Items]),
    case Cont of
        '$end_of_table' -> io:format("  continuation is '$end_of_table'~n");
        _ -> print_obj_chunks(ets:match_object(Cont))
    end.

collect('$end_of_table', _Next) -> [];
collect({Items, '$end_of_table'}, _Next) -> Items;
collect({Items, Cont}, Next) -> Items ++ collect(Next(Cont), Next).

try_op(F) ->
    try F() catch C:E -> {error, C, E} end.
