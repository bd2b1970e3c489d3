%% tests/e2e/ets/ets_heir.erl — the heir option: when the owner dies the table passes to the heir,
%% which receives {'ETS-TRANSFER', Tab, FromPid, HeirData}; the heir becomes owner (info owner)
%% and the heir option is then none; the heir can write a protected table afterwards; heir set
%% with setopts/2; heir none; an heir that is dead when the owner dies means the table is deleted;
%% the heir option on ets:new must be a pid (badarg otherwise); info heir.
-module(ets_heir).
-export([main/0]).

main() ->
    Self = self(),
    %% 1. heir given at creation time
    Owner = spawn(fun() ->
                          T0 = ets:new(heir_tab, [named_table, {heir, Self, my_data}]),
                          true = ets:insert(T0, {k, v}),
                          Self ! {created, T0, ets:info(T0, heir) =:= Self},
                          receive die -> ok end
                  end),
    T1 = receive {created, T0, HeirOk} -> io:format("heir info is self: ~w~n", [HeirOk]), T0 end,
    io:format("owner before: is owner proc ~w~n", [ets:info(T1, owner) =:= Owner]),
    io:format("insert as non-owner before transfer: ~w~n",
              [try_op(fun() -> ets:insert(T1, {x, 1}) end)]),
    Owner ! die,
    receive
        {'ETS-TRANSFER', Tab, From, Data} ->
            io:format("ETS-TRANSFER: tab ok ~w (named: ~w), from old owner ~w, data ~w~n",
                      [Tab =:= T1, Tab, From =:= Owner, Data])
    after 2000 -> io:format("no transfer~n")
    end,
    io:format("owner after is self: ~w~n", [ets:info(T1, owner) =:= self()]),
    io:format("heir after is self (kept): ~w~n", [ets:info(T1, heir) =:= self()]),
    io:format("contents: ~w~n", [ets:tab2list(T1)]),
    io:format("insert after transfer: ~w~n", [ets:insert(T1, {x, 1})]),
    true = ets:delete(T1),
    %% 2. heir set later with setopts, the data is any term
    Owner2 = spawn(fun() ->
                           T = ets:new(t2, [private]),
                           true = ets:insert(T, {secret, 42}),
                           true = ets:setopts(T, {heir, Self, {some, [data, 1]}}),
                           Self ! {created, T},
                           receive die -> ok end
                   end),
    T2 = receive {created, X} -> X end,
    io:format("private read before: ~w~n", [try_op(fun() -> ets:lookup(T2, secret) end)]),
    Owner2 ! die,
    receive
        {'ETS-TRANSFER', Tab2, From2, Data2} ->
            io:format("ETS-TRANSFER 2: tab ok ~w (tid: ~w), from ~w, data ~w~n",
                      [Tab2 =:= T2, is_reference(Tab2), From2 =:= Owner2, Data2])
    after 2000 -> io:format("no transfer 2~n")
    end,
    io:format("private read after: ~w~n", [ets:lookup(T2, secret)]),
    io:format("protection still: ~w~n", [ets:info(T2, protection)]),
    %% 3. setopts heir none: table dies with its owner
    Owner3 = spawn(fun() ->
                           T = ets:new(t3, [public, {heir, Self, x}]),
                           true = ets:setopts(T, {heir, none}),
                           Self ! {created, T, ets:info(T, heir)},
                           receive die -> ok end
                   end),
    T3 = receive {created, X3, H3} -> io:format("heir after none: ~w~n", [H3]), X3 end,
    M3 = monitor(process, Owner3),
    Owner3 ! die,
    receive {'DOWN', M3, process, Owner3, _} -> ok end,
    io:format("table 3 after owner death: ~w~n", [ets:info(T3)]),
    io:format("any transfer msg: ~w~n", [receive {'ETS-TRANSFER', _, _, _} -> yes after 100 -> no end]),
    %% 4. the heir is dead when the owner dies: table deleted
    DeadHeir = spawn(fun() -> ok end),
    Mh = monitor(process, DeadHeir),
    receive {'DOWN', Mh, process, DeadHeir, _} -> ok end,
    Owner4 = spawn(fun() ->
                           T = ets:new(t4, [public, {heir, DeadHeir, x}]),
                           Self ! {created, T, ets:info(T, heir) =:= none},
                           receive die -> ok end
                   end),
    T4 = receive {created, X4, HeirNone} -> io:format("dead heir info none: ~w~n", [HeirNone]), X4 end,
    M4 = monitor(process, Owner4),
    Owner4 ! die,
    receive {'DOWN', M4, process, Owner4, _} -> ok end,
    io:format("table 4 after owner death: ~w~n", [ets:info(T4)]),
    %% 5. bad heir options
    io:format("heir atom: ~w~n", [try_op(fun() -> ets:new(x, [{heir, foo, d}]) end)]),
    io:format("heir no data: ~w~n", [try_op(fun() -> ets:new(x, [{heir, self()}]) end)]),
    T5 = ets:new(t5, []),
    io:format("setopts heir atom: ~w~n", [try_op(fun() -> ets:setopts(T5, {heir, foo, d}) end)]),
    io:format("setopts heir self: ~w~n", [ets:setopts(T5, {heir, self(), d}) =:= true]),
    io:format("info heir self: ~w~n", [ets:info(T5, heir) =:= self()]),
    ok.

try_op(F) ->
    try F() catch C:E -> {error, C, E} end.
