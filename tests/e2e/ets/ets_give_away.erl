%% tests/e2e/ets/ets_give_away.erl — ets:give_away/3: the receiver gets
%% {'ETS-TRANSFER', Tab, FromPid, GiftData} and becomes the owner; badarg when the caller is not
%% the owner, when giving to itself, to a dead process, or to a non-pid; a table given away and
%% back; a table dies with its owner when there is no heir (info undefined, ops badarg, name
%% freed); give_away keeps the heir.
-module(ets_give_away).
-export([main/0]).

main() ->
    Self = self(),
    T = ets:new(gift, [protected]),
    true = ets:insert(T, {a, 1}),
    Receiver = spawn(fun receiver/0),
    io:format("give_away: ~w~n", [ets:give_away(T, Receiver, {gift, 1})]),
    Receiver ! {report, Self},
    receive
        {got, TabOk, FromOk, Data, OwnerOk, Ins} ->
            io:format("receiver: tab ok ~w, from ok ~w, data ~w, owner is receiver ~w, "
                      "receiver insert ~w~n", [TabOk, FromOk, Data, OwnerOk, Ins])
    end,
    io:format("info owner is receiver: ~w~n", [ets:info(T, owner) =:= Receiver]),
    io:format("old owner insert now: ~w~n", [try_op(fun() -> ets:insert(T, {c, 3}) end)]),
    io:format("old owner reads: ~w~n", [lists:sort(ets:tab2list(T))]),
    io:format("give_away by non-owner: ~w~n",
              [try_op(fun() -> ets:give_away(T, self(), x) end)]),
    %% receiver gives it back
    Receiver ! {give_back, Self, T},
    receive
        {'ETS-TRANSFER', Tb, From, Back} ->
            io:format("got back: tab ok ~w, from receiver ~w, data ~w~n",
                      [Tb =:= T, From =:= Receiver, Back])
    end,
    io:format("owner is self again: ~w~n", [ets:info(T, owner) =:= self()]),
    io:format("give to self: ~w~n", [try_op(fun() -> ets:give_away(T, self(), x) end)]),
    Dead = spawn(fun() -> ok end),
    Md = monitor(process, Dead),
    receive {'DOWN', Md, process, Dead, _} -> ok end,
    io:format("give to dead: ~w~n", [try_op(fun() -> ets:give_away(T, Dead, x) end)]),
    io:format("give to atom: ~w~n", [try_op(fun() -> ets:give_away(T, foo, x) end)]),
    io:format("give missing table: ~w~n",
              [try_op(fun() -> ets:give_away(no_such_tab, Receiver, x) end)]),
    %% heir is kept across give_away
    Heir = spawn(fun() -> receive stop -> ok end end),
    H = ets:new(h, [{heir, Heir, hd}]),
    true = ets:give_away(H, Receiver, g),
    Receiver ! {heir_of, Self, H},
    receive {heir_is, HeirOk} -> io:format("heir kept after give_away: ~w~n", [HeirOk =:= Heir]) end,
    Heir ! stop,
    %% owner death without heir: table is deleted
    Owner = spawn(fun() ->
                          Tn = ets:new(dies, [named_table, public]),
                          true = ets:insert(Tn, {k, v}),
                          Tu = ets:new(dies2, [public]),
                          Self ! {made, Tu},
                          receive die -> ok end
                  end),
    Tu = receive {made, X} -> X end,
    io:format("before death: ~w ~w~n", [ets:lookup(dies, k), ets:info(Tu, size)]),
    Mo = monitor(process, Owner),
    Owner ! die,
    receive {'DOWN', Mo, process, Owner, _} -> ok end,
    io:format("after death info: ~w ~w~n", [ets:info(dies), ets:info(Tu)]),
    io:format("after death lookup: ~w~n", [try_op(fun() -> ets:lookup(dies, k) end)]),
    io:format("after death whereis: ~w~n", [ets:whereis(dies)]),
    io:format("in all: ~w ~w~n", [lists:member(dies, ets:all()), lists:member(Tu, ets:all())]),
    io:format("name free again: ~w~n", [ets:new(dies, [named_table])]),
    Receiver ! stop,
    ok.

receiver() ->
    receive
        {'ETS-TRANSFER', T, From, Data} ->
            receive {report, Parent} -> ok end,
            Ins = ets:insert(T, {b, 2}),
            Parent ! {got, is_reference(T), From =:= Parent, Data,
                      ets:info(T, owner) =:= self(), Ins},
            receiver_loop()
    end.

receiver_loop() ->
    receive
        {give_back, Parent, T} ->
            true = ets:give_away(T, Parent, back),
            receiver_loop();
        {heir_of, Parent, T} ->
            receive {'ETS-TRANSFER', T, _, _} -> ok end,
            Parent ! {heir_is, ets:info(T, heir)},
            receiver_loop();
        stop -> ok
    end.

try_op(F) ->
    try F() catch C:E -> {error, C, E} end.
