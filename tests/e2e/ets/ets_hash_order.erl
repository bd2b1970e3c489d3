%% tests/e2e/ets/ets_hash_order.erl — the order in which a set, bag or duplicate_bag lists its
%% objects, as erl 25 lists them (OTP's linear hash table: the key's hash, 256 buckets growing
%% one at a time, chains in arrival order with a key's newest object first, shrinking only
%% past 2,304 buckets): tab2list, first/next, select/2 and select/3 chunks with their leftover
%% matches, match/3 and match_object/3, a spec binding keys, ets:slot/2, foldl, deletes that
%% shrink the table, a fixed table's deletes and re-inserts, and keys of several types without
%% atoms inside (an atom's place in a compound key follows the VM's atom numbering).
-module(ets_hash_order).
-export([main/0]).

main() ->
    small_set(),
    chunks(),
    shrink(),
    fixed(),
    bags(),
    mixed(),
    ok.

small_set() ->
    T = ets:new(t, [set]),
    [ets:insert(T, {I, x}) || I <- lists:seq(1, 20)],
    io:format("tab2list ~w~n", [[K || {K, _} <- ets:tab2list(T)]]),
    io:format("select ~w~n", [ets:select(T, [{{'$1', '_'}, [], ['$1']}])]),
    io:format("first/next ~w~n", [first_next(T)]),
    A = ets:new(a, [set]),
    [ets:insert(A, {K}) || K <- [a, b, c, foo, bar, hello, world, ok, error]],
    io:format("atoms ~w ~w~n", [ets:tab2list(A), first_next(A)]),
    B = ets:new(b, [set]),
    [ets:insert(B, {I}) || I <- lists:seq(1, 600)],
    io:format("600 ~w~n", [[K || {K} <- ets:tab2list(B)]]),
    io:format("600 first/next ~w~n", [first_next(B) =:= lists:reverse([K || {K} <- ets:tab2list(B)])]),
    io:format("600 buckets ~w~n", [element(1, ets:info(B, stats))]).

chunks() ->
    T = ets:new(t, [set]),
    [ets:insert(T, {I, I * 2}) || I <- lists:seq(1, 600)],
    print_chunks(ets:select(T, [{{'$1', '$2'}, [{'<', '$1', 100}], ['$1']}], 7)),
    print_chunks(ets:match(T, {'$1', '_'}, 150)),
    print_chunks(ets:match_object(T, {'_', '_'}, 250)),
    io:format("bound ~w~n", [ets:select(T, [{{K, '_'}, [], ['$_']} || K <- [5, 77, 5, 300, 1000, 42]])]),
    print_chunks(ets:select(T, [{{K, '_'}, [], ['$_']} || K <- [5, 77, 300, 42]], 2)),
    L = ets:new(l, [set]),
    [ets:insert(L, {I}) || I <- lists:seq(1, 3000)],
    print_chunks(ets:select(L, [{{'$1'}, [], ['$1']}], 1500)),
    print_chunks(ets:select(L, [{{'$1'}, [{'<', '$1', 2000}], ['$1']}], 900)),
    io:format("foldl ~w~n", [ets:foldl(fun({K}, Acc) when K < 50 -> [K | Acc]; (_, Acc) -> Acc end, [], L)]).

shrink() ->
    T = ets:new(t, [set]),
    [ets:insert(T, {I, I}) || I <- lists:seq(1, 600)],
    [ets:delete(T, I) || I <- lists:seq(1, 600, 2)],
    io:format("deleted odd ~w~n", [[K || {K, _} <- ets:tab2list(T)]]),
    [ets:delete(T, I) || I <- lists:seq(2, 560, 2)],
    io:format("deleted most ~w ~w~n", [[K || {K, _} <- ets:tab2list(T)], element(1, ets:info(T, stats))]),
    ets:select_delete(T, [{{'$1', '_'}, [{'>', '$1', 580}], [true]}]),
    io:format("select_delete ~w~n", [[K || {K, _} <- ets:tab2list(T)]]),
    Big = ets:new(big, [set]),
    [ets:insert(Big, {I}) || I <- lists:seq(1, 5000)],
    Sizes = [begin ets:delete(Big, I), element(1, ets:info(Big, stats)) end || I <- lists:seq(5000, 1, -1)],
    io:format("5000 buckets while deleting ~w~n", [dedup(Sizes)]).

fixed() ->
    T = ets:new(t, [set]),
    [ets:insert(T, {I, x}) || I <- lists:seq(1000, 1400)],
    ets:safe_fixtable(T, true),
    [ets:delete(T, I) || I <- lists:seq(1000, 1200)],
    [ets:insert(T, {I, y}) || I <- lists:seq(1100, 1300) ++ lists:seq(2000, 2300)],
    io:format("fixed ~w ~w~n", [first_next(T), element(1, ets:info(T, stats))]),
    ets:safe_fixtable(T, false),
    io:format("unfixed ~w ~w~n", [ets:tab2list(T), element(1, ets:info(T, stats))]),
    ets:insert(T, {5000, z}),
    io:format("one more ~w ~w~n", [first_next(T), element(1, ets:info(T, stats))]).

bags() ->
    B = ets:new(b, [bag]),
    [ets:insert(B, {K, V}) || K <- [1, 2, 3, 4], V <- [a, b, c, d]],
    ets:safe_fixtable(B, true),
    ets:delete_object(B, {2, b}),
    ets:delete_object(B, {3, a}),
    ets:delete(B, 4),
    ets:insert(B, {2, b}),
    ets:insert(B, {3, e}),
    ets:insert(B, {4, d}),
    io:format("bag fixed ~w~n", [ets:tab2list(B)]),
    ets:safe_fixtable(B, false),
    io:format("bag ~w ~w ~w~n", [ets:tab2list(B), ets:lookup(B, 2), ets:lookup_element(B, 3, 2)]),
    io:format("slots ~w~n", [[ets:slot(B, I) || I <- lists:seq(0, 255), ets:slot(B, I) =/= []]]),
    D = ets:new(d, [duplicate_bag]),
    ets:insert(D, [{K, V} || K <- [7, 8, 9], V <- [a, b, a, c]]),
    ets:delete_object(D, {8, a}),
    io:format("duplicate_bag ~w ~w~n", [ets:tab2list(D), ets:take(D, 9)]).

mixed() ->
    Keys = ["str", <<"bin">>, 1.5, -3, 123456789012345678901234567890, [], {}, <<>>,
            {1, "x", <<"y">>}, [1, 2, 3], {1, 2}, 3.25, <<1:3>>],
    S = ets:new(s, [set]),
    [ets:insert(S, {K}) || K <- Keys],
    io:format("mixed ~w~n", [ets:tab2list(S)]).

print_chunks('$end_of_table') -> io:format("end~n");
print_chunks({L, C}) -> io:format("chunk ~w ~w~n", [L, continuation(C)]), print_chunks(ets:select(C)).

continuation('$end_of_table') -> '$end_of_table';
continuation(C) -> {slot, element(2, C), rest, element(5, C), element(6, C)}.

first_next(T) -> first_next(T, ets:first(T)).
first_next(_, '$end_of_table') -> [];
first_next(T, K) -> [K | first_next(T, ets:next(T, K))].

dedup([X, X | R]) -> dedup([X | R]);
dedup([X | R]) -> [X | dedup(R)];
dedup([]) -> [].
