%% tests/e2e/ets/ets_term_order.erl — an ordered_set with keys of every type: tab2list, first,
%% last, next/prev walks follow the standard term order (numbers < atoms < refs < funs < ports
%% < pids < tuples < maps < nil < lists < bitstrings); within numbers ints and floats compare by
%% value (1 == 1.0 is one key); tuples by size then elements; maps by size then keys; lists and
%% binaries lexicographically. Refs, funs and pids are replaced by a tag before printing. (Ports
%% are left out: beamlet has no ports to make one with.)
-module(ets_term_order).
-export([main/0]).

main() ->
    Ref = make_ref(),
    Fun = fun() -> ok end,
    Pid = self(),
    Keys = [<<"b">>, <<"a">>, <<>>, <<1:3>>, [b], [a, b], [a], "abc", [], #{b => 1}, #{a => 1, b => 2},
            #{}, {b}, {a, b}, {a}, {}, Pid, Fun, Ref, zebra, apple, '', 1.5, -3, 2, 1.0e10,
            -1.5e300, 1 bsl 70, -(1 bsl 70), 0, 0.5],
    T = ets:new(t, [ordered_set]),
    true = ets:insert(T, [{K, N} || {K, N} <- lists:zip(Keys, lists:seq(1, length(Keys)))]),
    Tag = fun(K) when is_reference(K) -> ref;
             (K) when is_function(K) -> 'fun';
             (K) when is_pid(K) -> pid;
             (K) -> K
          end,
    io:format("size: ~w~n", [ets:info(T, size)]),
    io:format("tab2list keys:~n"),
    [io:format("  ~w~n", [Tag(K)]) || {K, _} <- ets:tab2list(T)],
    io:format("first: ~w, last: ~w~n", [Tag(ets:first(T)), Tag(ets:last(T))]),
    Fwd = walk(T, ets:first(T), fun ets:next/2),
    Bwd = walk(T, ets:last(T), fun ets:prev/2),
    io:format("walks agree with tab2list: ~w ~w~n",
              [Fwd =:= [K || {K, _} <- ets:tab2list(T)], lists:reverse(Bwd) =:= Fwd]),
    io:format("matches lists:sort: ~w~n", [Fwd =:= lists:sort(Keys)]),
    %% next from keys of each type that are not in the table
    [io:format("next(~w): ~w~n", [Tag(K), Tag(ets:next(T, K))])
     || K <- [-2, 1, aardvark, {a, a}, {z, z, z}, #{c => 1}, [a, a], "zz", <<"a", 0>>]],
    %% 1 and 1.0: inserting 2.0 replaces the object with key 2
    true = ets:insert(T, {2.0, replaced}),
    io:format("lookup 2: ~w~n", [ets:lookup(T, 2)]),
    io:format("size after 2.0: ~w~n", [ets:info(T, size)]),
    %% maps: ordered by size, then by keys in term order, then values
    M = ets:new(m, [ordered_set]),
    true = ets:insert(M, [{#{b => 1}}, {#{a => 2}}, {#{a => 1}}, {#{a => 1, b => 1}},
                          {#{1 => x}}, {#{a => 1.0}}]),
    io:format("maps: ~w~n", [ets:tab2list(M)]),
    %% lists and improper lists
    L = ets:new(l, [ordered_set]),
    true = ets:insert(L, [{[1 | 2]}, {[1, 2]}, {[1]}, {[1 | a]}, {[0, 9]}, {[2]}]),
    io:format("lists: ~w~n", [ets:tab2list(L)]),
    %% bitstrings
    Bs = ets:new(bs, [ordered_set]),
    true = ets:insert(Bs, [{<<1>>}, {<<1, 0>>}, {<<0:1>>}, {<<1:1>>}, {<<0, 255>>}, {<<2:2>>}, {<<>>}]),
    io:format("bitstrings: ~w~n", [ets:tab2list(Bs)]),
    ok.

walk(_T, '$end_of_table', _Step) -> [];
walk(T, K, Step) -> [K | walk(T, Step(T, K), Step)].
