%% tests/e2e/ets/ets_misc.erl — table identity and lifetime: ets:new returns a fresh reference
%% for each unnamed table (same name allowed many times), ets:all/0 lists tables of this and of
%% other processes and forgets deleted ones, many tables created and deleted, tables owned by
%% a process that exits normally or crashes disappear, a table outlives a process that only
%% used it, lookup returns copies (a stored term equals what was inserted), tab2list on each
%% table type, and is_reference/is_atom of table ids.
-module(ets_misc).
-export([main/0]).

main() ->
    T1 = ets:new(same, []),
    T2 = ets:new(same, []),
    io:format("refs: ~w ~w, distinct: ~w~n", [is_reference(T1), is_reference(T2), T1 =/= T2]),
    true = ets:insert(T1, {k, one}),
    true = ets:insert(T2, {k, two}),
    io:format("independent: ~w ~w~n", [ets:lookup(T1, k), ets:lookup(T2, k)]),
    All = ets:all(),
    io:format("all has both: ~w ~w~n", [lists:member(T1, All), lists:member(T2, All)]),
    true = ets:delete(T1),
    io:format("all after delete: ~w ~w~n", [lists:member(T1, ets:all()), lists:member(T2, ets:all())]),
    %% many tables
    Ts = [ets:new(many, [public]) || _ <- lists:seq(1, 1000)],
    [true = ets:insert(T, {n, I}) || {T, I} <- lists:zip(Ts, lists:seq(1, 1000))],
    io:format("1000 tables, sum: ~w, all distinct: ~w~n",
              [lists:sum([ets:lookup_element(T, n, 2) || T <- Ts]), length(lists:usort(Ts))]),
    All2 = ets:all(),
    io:format("all contains the 1000: ~w~n", [lists:all(fun(T) -> lists:member(T, All2) end, Ts)]),
    [true = ets:delete(T) || T <- Ts],
    All3 = ets:all(),
    io:format("none left after delete: ~w~n", [not lists:any(fun(T) -> lists:member(T, All3) end, Ts)]),
    %% tables of other processes
    Self = self(),
    Other = spawn(fun() ->
                          T = ets:new(others, [public]),
                          true = ets:insert(T, {from, other}),
                          Self ! {tab, T},
                          receive crash -> exit(boom); quit -> ok end
                  end),
    OT = receive {tab, X} -> X end,
    io:format("other's table in all: ~w, readable: ~w~n",
              [lists:member(OT, ets:all()), ets:lookup(OT, from)]),
    Mo = monitor(process, Other),
    Other ! crash,
    receive {'DOWN', Mo, process, Other, Why} -> io:format("owner exit: ~w~n", [Why]) end,
    io:format("after owner crash: in all ~w, info ~w~n", [lists:member(OT, ets:all()), ets:info(OT)]),
    %% a process that only used my table does not take it along
    Mine = ets:new(mine, [public]),
    {User, Mu} = spawn_monitor(fun() -> true = ets:insert(Mine, {user, was_here}) end),
    receive {'DOWN', Mu, process, User, _} -> ok end,
    io:format("table outlives user: ~w~n", [ets:lookup(Mine, user)]),
    %% stored terms are copies equal to the originals
    Term = {[1, 2, {3, <<"bin">>}], #{a => [b]}, 1 bsl 80, 2.5, "str"},
    true = ets:insert(Mine, {term, Term}),
    [{term, Back}] = ets:lookup(Mine, term),
    io:format("round trip: ~w~n", [Back =:= Term]),
    %% tab2list on each type
    lists:foreach(
      fun(Type) ->
              T = ets:new(x, [Type]),
              true = ets:insert(T, [{b, 2}, {a, 1}, {b, 2}, {c, 3}, {a, 1.0}]),
              L = ets:tab2list(T),
              %% {a,1} and {a,1.0} sort as equal: tag the value's kind so the order is fixed
              io:format("~w tab2list: ~w~n",
                        [Type, case Type of
                                   ordered_set -> L;
                                   _ -> lists:sort([{K, V, is_float(V)} || {K, V} <- L])
                               end])
      end, [set, ordered_set, bag, duplicate_bag]),
    ok.
