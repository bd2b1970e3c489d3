%% tests/e2e/ets/ets_access.erl — access rights: public (anyone reads and writes), protected (the
%% default: others read, writes raise badarg), private (others can neither read nor write: badarg,
%% also for member, lookup_element, match, select, first, tab2list). setopts and give_away
%% need ownership even on a public table; rename and delete/1 of a public table by another
%% process are allowed (write access is enough).
%% The owner may do everything in all three. ets:info/2 protection reports the mode; info/2
%% itself works from another process even on a private table.
-module(ets_access).
-export([main/0]).

main() ->
    Pub = ets:new(pub, [public]),
    Pro = ets:new(pro, [protected]),
    Def = ets:new(def, []),
    Pri = ets:new(pri, [private]),
    [true = ets:insert(T, {k, 1}) || T <- [Pub, Pro, Def, Pri]],
    io:format("protection: ~w ~w ~w ~w~n",
              [ets:info(T, protection) || T <- [Pub, Pro, Def, Pri]]),
    io:format("owner lookups: ~w~n", [[ets:lookup(T, k) || T <- [Pub, Pro, Def, Pri]]]),
    lists:foreach(fun({Name, T}) ->
                          Res = in_other(fun() -> ops(T) end),
                          io:format("~w from other process:~n", [Name]),
                          [io:format("  ~w: ~w~n", [Op, R]) || {Op, R} <- Res]
                  end,
                  [{public, Pub}, {protected, Pro}, {private, Pri}]),
    io:format("public after other cleared it: ~w~n", [lists:sort(ets:tab2list(Pub))]),
    in_other(fun() -> ets:insert(Pub, [{x, 1}, {y, 2}]) end),
    io:format("public after other wrote: ~w~n", [lists:sort(ets:tab2list(Pub))]),
    io:format("protected after other tried: ~w~n", [lists:sort(ets:tab2list(Pro))]),
    io:format("info size from other on private: ~w~n",
              [in_other(fun() -> ets:info(Pri, size) end)]),
    io:format("info protection from other on private: ~w~n",
              [in_other(fun() -> ets:info(Pri, protection) end)]),
    %% deleting a table the caller does not own
    io:format("delete public table from other: ~w~n",
              [in_other(fun() -> try_op(fun() -> ets:delete(Pub) end) end)]),
    io:format("public table still there: ~w~n", [ets:info(Pub, size)]),
    ok.

ops(T) ->
    [{lookup, try_op(fun() -> ets:lookup(T, k) end)},
     {member, try_op(fun() -> ets:member(T, k) end)},
     {lookup_element, try_op(fun() -> ets:lookup_element(T, k, 2) end)},
     {match, try_op(fun() -> ets:match(T, {'$1', '_'}) end)},
     {select, try_op(fun() -> ets:select(T, [{'_', [], ['$_']}]) end)},
     {first, try_op(fun() -> ets:first(T) end)},
     {tab2list, try_op(fun() -> ets:tab2list(T) end)},
     {insert, try_op(fun() -> ets:insert(T, {other, 2}) end)},
     {insert_new, try_op(fun() -> ets:insert_new(T, {other2, 3}) end)},
     {update_counter, try_op(fun() -> ets:update_counter(T, k, 1) end)},
     {delete_key, try_op(fun() -> ets:delete(T, nokey) end)},
     {delete_object, try_op(fun() -> ets:delete_object(T, {nokey, 1}) end)},
     {update_element, try_op(fun() -> ets:update_element(T, k, {2, 5}) end)},
     {take, try_op(fun() -> ets:take(T, nokey) end)},
     {match_delete, try_op(fun() -> ets:match_delete(T, {nokey, '_'}) end)},
     {select_delete, try_op(fun() -> ets:select_delete(T, [{{nokey, '_'}, [], [true]}]) end)},
     {select_replace, try_op(fun() -> ets:select_replace(T, [{{nokey, '$1'}, [], ['$_']}]) end)},
     {select_count, try_op(fun() -> ets:select_count(T, [{'_', [], [true]}]) end)},
     {setopts_heir, try_op(fun() -> ets:setopts(T, {heir, none}) end)},
     {give_away, try_op(fun() -> ets:give_away(T, self(), x) end)},
     {rename_returns_tid, try_op(fun() -> ets:rename(T, renamed_by_other) =:= T end)},
     {delete_all_objects, try_op(fun() -> ets:delete_all_objects(T) end)}].

try_op(F) ->
    try F() catch C:R -> {error, C, R} end.

in_other(F) ->
    Self = self(),
    Pid = spawn(fun() -> Self ! {self(), F()} end),
    receive {Pid, R} -> R end.
