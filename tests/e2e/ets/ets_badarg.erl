%% tests/e2e/ets/ets_badarg.erl — a catalogue of error cases, each caught and printed as
%% {error, Class, Reason} (no stack traces): operations on a table that does not exist (an
%% unknown atom, a deleted tid), arguments of the wrong type (table, object, key position,
%% limit, match spec, continuation), ets:new with bad options, and the same through catch
%% (only the first element of the 'EXIT' reason is printed).
-module(ets_badarg).
-export([main/0]).

main() ->
    T = ets:new(t, [set]),
    true = ets:insert(T, {k, 1}),
    Dead = ets:new(dead, []),
    true = ets:delete(Dead),
    Cases =
        [{lookup_unknown_atom, fun() -> ets:lookup(nonexistent, 1) end},
         {lookup_deleted, fun() -> ets:lookup(Dead, 1) end},
         {lookup_integer_tab, fun() -> ets:lookup(42, 1) end},
         {lookup_tuple_tab, fun() -> ets:lookup({a}, 1) end},
         {insert_unknown, fun() -> ets:insert(nonexistent, {1}) end},
         {insert_atom_obj, fun() -> ets:insert(T, foo) end},
         {insert_empty_tuple, fun() -> ets:insert(T, {}) end},
         {insert_list_of_non_tuples, fun() -> ets:insert(T, [1, 2]) end},
         {insert_new_unknown, fun() -> ets:insert_new(nonexistent, {1}) end},
         {member_unknown, fun() -> ets:member(nonexistent, 1) end},
         {delete_unknown_table, fun() -> ets:delete(nonexistent) end},
         {delete_key_unknown, fun() -> ets:delete(nonexistent, k) end},
         {delete_object_bad, fun() -> ets:delete_object(T, 5) end},
         {delete_all_unknown, fun() -> ets:delete_all_objects(nonexistent) end},
         {first_unknown, fun() -> ets:first(nonexistent) end},
         {last_unknown, fun() -> ets:last(nonexistent) end},
         {next_unknown, fun() -> ets:next(nonexistent, 1) end},
         {prev_unknown, fun() -> ets:prev(nonexistent, 1) end},
         {tab2list_unknown, fun() -> ets:tab2list(nonexistent) end},
         {foldl_unknown, fun() -> ets:foldl(fun(_, A) -> A end, 0, nonexistent) end},
         {foldr_unknown, fun() -> ets:foldr(fun(_, A) -> A end, 0, nonexistent) end},
         {match_unknown, fun() -> ets:match(nonexistent, '_') end},
         {match_object_unknown, fun() -> ets:match_object(nonexistent, '_') end},
         {match_delete_unknown, fun() -> ets:match_delete(nonexistent, '_') end},
         {select_unknown, fun() -> ets:select(nonexistent, [{'_', [], [true]}]) end},
         {select_bad_ms_atom, fun() -> ets:select(T, foo) end},
         {select_bad_ms_clause, fun() -> ets:select(T, [{'_', []}]) end},
         {select_bad_guard, fun() -> ets:select(T, [{'_', [{no_such_fun}], [true]}]) end},
         {select_bad_limit, fun() -> ets:select(T, [{'_', [], [true]}], -1) end},
         {select_bad_continuation, fun() -> ets:select(not_a_continuation) end},
         {select_tuple_continuation, fun() -> ets:select({a, b, c}) end},
         {match_bad_continuation, fun() -> ets:match(bogus) end},
         {select_count_bad_ms, fun() -> ets:select_count(T, foo) end},
         {select_delete_bad_ms, fun() -> ets:select_delete(T, foo) end},
         {select_reverse_bad_ms, fun() -> ets:select_reverse(T, foo) end},
         {lookup_element_missing, fun() -> ets:lookup_element(T, nokey, 2) end},
         {lookup_element_pos, fun() -> ets:lookup_element(T, k, 3) end},
         {update_counter_missing, fun() -> ets:update_counter(T, nokey, 1) end},
         {update_counter_bad_op, fun() -> ets:update_counter(T, k, foo) end},
         {update_element_bad, fun() -> ets:update_element(T, k, foo) end},
         {take_unknown, fun() -> ets:take(nonexistent, k) end},
         {rename_bad_name, fun() -> ets:rename(T, "str") end},
         {give_away_bad_pid, fun() -> ets:give_away(T, not_a_pid, x) end},
         {info_bad_item, fun() -> ets:info(T, no_such_item) end},
         {setopts_bad, fun() -> ets:setopts(T, {foo, bar}) end},
         {whereis_non_atom, fun() -> ets:whereis("x") end},
         {new_name_not_atom, fun() -> ets:new("name", []) end},
         {new_opts_not_list, fun() -> ets:new(x, set) end},
         {new_unknown_opt, fun() -> ets:new(x, [bogus]) end},
         {new_bad_keypos, fun() -> ets:new(x, [{keypos, -1}]) end},
         {new_bad_rc, fun() -> ets:new(x, [{read_concurrency, maybe}]) end},
         {new_bad_heir, fun() -> ets:new(x, [{heir, 1, 2}]) end},
         {new_improper_opts, fun() -> ets:new(x, [set | bag]) end},
         {match_spec_run_bad, fun() -> ets:match_spec_run([1], not_compiled) end},
         {update_counter_no_default_list, fun() -> ets:update_counter(T, zz, [{2, 1}]) end}],
    [io:format("~w: ~w~n", [Name, try_op(F)]) || {Name, F} <- Cases],
    %% old-style catch: print only the first element of the reason
    io:format("catch lookup: ~w~n", [first(catch ets:lookup(nonexistent, 1))]),
    io:format("catch insert: ~w~n", [first(catch ets:insert(T, not_a_tuple))]),
    io:format("catch new: ~w~n", [first(catch ets:new(x, [{keypos, 0}]))]),
    %% options that are accepted: later options override earlier ones
    L = ets:new(l, [set, bag, ordered_set, private, public, {keypos, 2}, {keypos, 3}]),
    io:format("last option wins: ~w ~w ~w~n",
              [ets:info(L, type), ets:info(L, protection), ets:info(L, keypos)]),
    io:format("table still fine: ~w~n", [ets:lookup(T, k)]),
    ok.

first({'EXIT', {Reason, _Stack}}) -> {'EXIT', Reason};
first(Other) -> {value, Other}.

try_op(F) ->
    try F() catch C:E -> {error, C, E} end.
