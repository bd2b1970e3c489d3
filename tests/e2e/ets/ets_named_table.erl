%% tests/e2e/ets/ets_named_table.erl — named_table: ets:new returns the name, the table is reached
%% by name, a second named table with the same name is badarg, ets:whereis/1 (the tid for a
%% named table, undefined otherwise), ets:all/0 contains the table (the tid for an unnamed one,
%% the name for a named one), rename/2 (old name stops working, renaming to a taken name or an
%% unnamed table), info name/named_table, deleting by name frees the name.
-module(ets_named_table).
-export([main/0]).

main() ->
    R = ets:new(my_tab, [named_table, set]),
    io:format("new returns: ~w~n", [R]),
    true = ets:insert(my_tab, {a, 1}),
    io:format("lookup by name: ~w~n", [ets:lookup(my_tab, a)]),
    io:format("second new same name: ~w~n",
              [try_op(fun() -> ets:new(my_tab, [named_table]) end)]),
    %% an unnamed table with the same name is fine
    U = ets:new(my_tab, []),
    io:format("unnamed with same name ok: ~w~n", [is_reference(U)]),
    io:format("info name unnamed: ~w, named_table: ~w~n",
              [ets:info(U, name), ets:info(U, named_table)]),
    io:format("info name named: ~w, named_table: ~w~n",
              [ets:info(my_tab, name), ets:info(my_tab, named_table)]),
    W = ets:whereis(my_tab),
    io:format("whereis is a ref: ~w~n", [is_reference(W)]),
    io:format("lookup via whereis tid: ~w~n", [ets:lookup(W, a)]),
    io:format("whereis unknown: ~w~n", [ets:whereis(no_such_table)]),
    All = ets:all(),
    io:format("all has my_tab: ~w, has unnamed tid: ~w, has whereis tid: ~w~n",
              [lists:member(my_tab, All), lists:member(U, All), lists:member(W, All)]),
    io:format("rename: ~w~n", [ets:rename(my_tab, new_name)]),
    io:format("old name lookup: ~w~n", [try_op(fun() -> ets:lookup(my_tab, a) end)]),
    io:format("new name lookup: ~w~n", [ets:lookup(new_name, a)]),
    io:format("tid still works: ~w~n", [ets:lookup(W, a)]),
    io:format("info name: ~w~n", [ets:info(new_name, name)]),
    io:format("whereis old: ~w, whereis new == tid: ~w~n",
              [ets:whereis(my_tab), ets:whereis(new_name) =:= W]),
    All2 = ets:all(),
    io:format("all has new_name: ~w, has my_tab: ~w~n",
              [lists:member(new_name, All2), lists:member(my_tab, All2)]),
    _ = ets:new(taken, [named_table]),
    io:format("rename to taken name: ~w~n",
              [try_op(fun() -> ets:rename(new_name, taken) end)]),
    io:format("rename missing: ~w~n",
              [try_op(fun() -> ets:rename(no_such_table, x) end)]),
    %% rename of an unnamed table: allowed, changes only info(name)
    io:format("rename unnamed returns the tid: ~w~n",
              [try_op(fun() -> ets:rename(U, renamed_u) end) =:= U]),
    io:format("info name after rename unnamed: ~w~n", [ets:info(U, name)]),
    io:format("renamed_u as name: ~w~n", [try_op(fun() -> ets:info(renamed_u, size) end)]),
    io:format("delete by name: ~w~n", [ets:delete(new_name)]),
    io:format("whereis after delete: ~w~n", [ets:whereis(new_name)]),
    io:format("info after delete: ~w~n", [ets:info(new_name)]),
    io:format("name reusable: ~w~n", [ets:new(new_name, [named_table])]),
    io:format("atom that is no table: ~w~n", [try_op(fun() -> ets:insert(nope, {1}) end)]),
    ok.

try_op(F) ->
    try F() catch C:E -> {error, C, E} end.
