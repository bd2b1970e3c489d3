-module(maps_large).
-export([main/0]).

%% Maps of more than 32 keys (erts's hashmaps): iteration, list and external-format order as
%% erl gives them, put/update/remove across the 32-key boundary, equality and order between
%% maps built in different ways, copies (messages, ETS, binary_to_term, literals), hashing,
%% and keys whose 32-bit hashes collide.
main() ->
    M33 = maps:from_list([{I, I} || I <- lists:seq(1, 33)]),
    io:format("~p~n~w~n", [M33, M33]),
    io:format("keys ~w~nvalues ~w~nto_list ~w~n", [maps:keys(M33), maps:values(M33), maps:to_list(M33)]),
    io:format("fold ~w~n", [maps:fold(fun(K, _, A) -> [K | A] end, [], M33)]),
    io:format("iterator ~w~n", [walk(maps:next(maps:iterator(M33)))]),
    M100 = maps:from_list([{I, I} || I <- lists:seq(1, 100)]),
    io:format("iterator path ~w~n", [batch(erts_internal:map_next(0, M100, iterator))]),
    io:format("fold 100 ~w~n", [maps:fold(fun(K, _, A) -> [K | A] end, [], M100)]),
    io:format("t2b ~w~n", [term_to_binary(M33)]),
    %% Down to 32 keys: a flatmap again, in key order.
    io:format("removed ~w~n", [maps:keys(maps:remove(17, M33))]),
    io:format("32 ~w~n", [maps:keys(maps:from_list([{I, x} || I <- lists:seq(1, 32)]))]),
    %% Grown one key at a time, with => and :=, against maps:from_list.
    Grown = lists:foldl(fun(I, Acc) -> Acc#{I => I * 2} end, #{}, lists:seq(1, 3000)),
    Built = maps:from_list([{I, I * 2} || I <- lists:seq(3000, 1, -1)]),
    io:format("grown =:= built ~p, size ~p~n", [Grown =:= Built, map_size(Grown)]),
    Updated = lists:foldl(fun(I, Acc) -> Acc#{I := I * 2} end, Grown, lists:seq(1, 3000, 7)),
    io:format("update same values ~p~n", [Updated =:= Grown]),
    Tripled = lists:foldl(fun(I, Acc) -> Acc#{I := I * 3} end, Grown, lists:seq(1, 3000)),
    io:format("get ~w~n", [[maps:get(I, Tripled) || I <- [1, 2, 1500, 3000]]]),
    io:format("badkey ~p~n", [try (id(Grown))#{3001 := x} catch error:R -> R end]),
    io:format("is_key ~p ~p find ~p ~p~n",
              [maps:is_key(2999, Grown), maps:is_key(0, Grown), maps:find(10, Grown), maps:find(-1, Grown)]),
    #{1 := One, 3000 := Last} = Grown,
    io:format("match ~p ~p~n", [One, Last]),
    case Grown of
        #{3001 := _} -> io:format("matched a missing key~n");
        #{2 := Two} when is_map_key(5, Grown) -> io:format("guard ~p~n", [Two])
    end,
    %% Shrinking across the boundary keeps every pair.
    Shrunk = lists:foldl(fun(I, Acc) -> maps:remove(I, Acc) end, Grown, lists:seq(1, 2968)),
    io:format("shrunk ~p~n", [Shrunk]),
    io:format("shrunk is flat ~p~n", [Shrunk =:= maps:from_list([{I, I * 2} || I <- lists:seq(2969, 3000)])]),
    {V, Taken} = maps:take(2000, Grown),
    io:format("take ~p ~p ~p~n", [V, map_size(Taken), maps:is_key(2000, Taken)]),
    %% Order and equality: sizes first, then keys, then values.
    A = Grown#{1 := 0},
    io:format("order ~p ~p ~p ~p~n", [A < Grown, Grown < Tripled, M33 < Grown, Grown == Built]),
    FloatKeys = maps:from_list([{float(I), I} || I <- lists:seq(1, 40)]),
    IntKeys = maps:from_list([{I, I} || I <- lists:seq(1, 40)]),
    io:format("float keys ~p ~p ~p~n", [FloatKeys == IntKeys, FloatKeys < IntKeys, maps:get(3.0, FloatKeys)]),
    io:format("sorted ~w~n", [[map_size(X) || X <- lists:sort([Grown, M33, #{}, Shrunk, A, #{a => 1}])]]),
    io:format("phash2 ~p ~p~n", [erlang:phash2(Grown) =:= erlang:phash2(Built), erlang:phash2(M33)]),
    %% Other key types: strings, binaries, tuples (atoms hash by their index in the atom
    %% table, which differs between VMs, as their order in a large map does).
    Strings = maps:from_list([{integer_to_list(I), I} || I <- lists:seq(1, 50)]),
    io:format("strings ~w~n", [maps:keys(Strings)]),
    Bins = maps:from_list([{integer_to_binary(I), I} || I <- lists:seq(1, 50)]),
    io:format("binaries ~w~n", [maps:values(Bins)]),
    Tuples = maps:from_list([{{I, [I]}, I} || I <- lists:seq(1, 50)]),
    io:format("tuples ~w~n", [maps:values(Tuples)]),
    Mixed = maps:from_list([{I, I} || I <- lists:seq(1, 20)] ++ [{float(I), I} || I <- lists:seq(1, 20)]),
    io:format("mixed ~w~n", [maps:keys(Mixed)]),
    %% Library functions over iterators.
    io:format("filter ~p~n", [maps:filter(fun(K, _) -> K rem 500 =:= 0 end, Grown)]),
    io:format("map ~w~n", [maps:values(maps:map(fun(_, X) -> X + 1 end, M33))]),
    io:format("with ~p without ~p~n", [maps:with([1, 2, 3], Grown), map_size(maps:without(lists:seq(1, 100), Grown))]),
    io:format("merge ~p ~p~n", [map_size(maps:merge(Grown, M33)), maps:merge(M33, #{}) =:= M33]),
    io:format("merge_with ~w~n",
              [lists:sublist(maps:to_list(maps:merge_with(fun(_, X, Y) -> X + Y end, M33, M33)), 5)]),
    io:format("from_keys ~w~n", [maps:keys(maps:from_keys(lists:seq(100, 140), 0))]),
    %% Copies: a message, ETS, the external format, a literal.
    Self = self(),
    spawn(fun() -> Self ! {copy, Grown, Shrunk} end),
    receive {copy, G2, S2} -> io:format("message ~p ~p~n", [G2 =:= Grown, S2 =:= Shrunk]) end,
    T = ets:new(t, []),
    ets:insert(T, {Grown, Tripled}),
    [{_, T2}] = ets:lookup(T, Built),
    io:format("ets ~p~n", [T2 =:= Tripled]),
    Bin = term_to_binary(Grown),
    io:format("external ~p ~p ~p~n", [binary_to_term(Bin) =:= Grown, erlang:md5(Bin), byte_size(Bin)]),
    io:format("literal ~p~n", [literal()]),
    io:format("literal keys ~w~n", [maps:keys(literal())]),
    %% Maps of maps, and big maps as keys.
    Nested = #{Grown => big, M33 => small, #{a => 1} => tiny},
    io:format("nested ~p ~p~n", [maps:get(Built, Nested), maps:get(maps:from_list(maps:to_list(M33)), Nested)]),
    %% Garbage collection moves the nodes of live maps.
    Kept = churn(Grown, 30),
    io:format("after gc ~p~n", [Kept =:= Grown]),
    %% Keys whose 32-bit hashes collide (40660 and 59671, 22575 and 119693 do on erl as
    %% here): found, updated and removed like any other; their order between them is left out.
    Colliding = [40660, 59671, 22575, 119693],
    C1 = maps:from_list([{X, X} || X <- Colliding ++ lists:seq(1, 40)]),
    C2 = lists:foldl(fun(X, Acc) -> Acc#{X => X} end, maps:from_list([{X, X} || X <- lists:seq(1, 40)]),
                     lists:reverse(Colliding)),
    io:format("colliding ~p ~p ~w~n", [C1 =:= C2, map_size(C1), [maps:get(X, C1) || X <- Colliding]]),
    C3 = maps:remove(59671, C1#{40660 := updated}),
    io:format("collision update ~p ~p ~p~n", [maps:get(40660, C3), maps:is_key(59671, C3), map_size(C3)]),
    io:format("collision order ~w~n", [[K || K <- maps:keys(maps:remove(22575, C3)), not lists:member(K, Colliding)]]),
    Huge = maps:from_list([{I, I} || I <- lists:seq(1, 200000)]),
    Halved = lists:foldl(fun(I, Acc) -> maps:remove(I, Acc) end, Huge, lists:seq(1, 200000, 2)),
    Refilled = lists:foldl(fun(I, Acc) -> Acc#{I => I} end, Halved, lists:seq(1, 200000, 2)),
    io:format("huge ~p ~p ~p ~p ~p~n", [map_size(Huge), map_size(Halved), Refilled =:= Huge,
                                       lists:sum(maps:values(Halved)), maps:fold(fun(_, X, Sum) -> X + Sum end, 0, Huge)]),
    ok.

batch({_, _, [Path | _]}) -> {1, Path};
batch({_, _, Next}) -> {N, Path} = batch(Next), {N + 1, Path}.

walk(none) -> [];
walk({K, _, I}) -> [K | walk(maps:next(I))].

churn(M, 0) -> M;
churn(M, N) ->
    _ = [maps:from_list([{{N, I}, I} || I <- lists:seq(1, 100)]) || _ <- lists:seq(1, 20)],
    erlang:garbage_collect(),
    churn(M#{N => N * 2}, N - 1).

literal() ->
    #{1 => 1, 2 => 2, "3" => 3, 4 => 4, 5 => 5, "6" => 6, 7 => 7, 8 => 8, "9" => 9, 10 => 10,
      11 => 11, "12" => 12, 13 => 13, 14 => 14, "15" => 15, 16 => 16, 17 => 17, "18" => 18,
      19 => 19, 20 => 20, "21" => 21, 22 => 22, 23 => 23, "24" => 24, 25 => 25, 26 => 26,
      "27" => 27, 28 => 28, 29 => 29, "30" => 30, 31 => 31, 32 => 32, "33" => 33, 34 => 34,
      35 => 35, "36" => 36, 37 => 37, 38 => 38}.

id(X) -> X.
