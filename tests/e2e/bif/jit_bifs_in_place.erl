%% BIFs that native code calls in place: guard BIFs (bif0..gc_bif3) in guards and bodies,
%% and call_ext of the process dictionary, tuple and list BIFs; their failures (the fail
%% label, or an error with the stack trace and arguments erl shows), a BIF traced while the
%% code calling it runs, and the same results as erl everywhere.
-module(jit_bifs_in_place).
-export([main/0, loop/2]).

main() ->
    [io:format("guard ~p~n", [classify(X)]) || X <- [{a, b}, {}, [1, 2, 3], <<1, 2>>, 7, self(), "abc"]],
    [io:format("body ~p: ~p~n", [F, catch_it(fun() -> body(F) end)]) || F <- [size, hd, element, length, 'bsl', node, map_get, tuple_size, binary_part]],
    io:format("dict ~p~n", [dict_ops()]),
    io:format("tuples ~p~n", [tuple_ops({1, 2, 3})]),
    io:format("lists ~p~n", [list_ops([3, 1, 2])]),
    [io:format("call_ext ~p: ~p~n", [F, catch_it(fun() -> failing(F) end)]) || F <- [element, setelement, hd, tl, append, subtract, length, atom_to_list, make_tuple, list_to_tuple]],
    io:format("tail ~p ~p~n", [last_element({x, y}), catch_it(fun() -> last_element(nope) end)]),
    io:format("loop ~p~n", [loop(100000, 0)]),
    traced(),
    ok.

classify(X) when tuple_size(X) > 1, element(1, X) =:= a -> pair_a;
classify(X) when tuple_size(X) =:= 0 -> empty_tuple;
classify(X) when length(X) > 2 -> long_list;
classify(X) when byte_size(X) =:= 2, binary_part(X, 0, 1) =:= <<1>> -> binary;
classify(X) when X band 3 =:= 3, abs(-X) > 6 -> seven;
classify(X) when node(X) =:= node() -> local_pid;
classify(_) -> other.

body(size) -> byte_size(id(atom));
body(hd) -> hd(id([]));
body(element) -> element(id(5), id({1, 2}));
body(length) -> length(id([1 | 2]));
body('bsl') -> id(1) bsl id(a);
body(node) -> node(id(7));
body(map_get) -> map_get(id(k), id(#{}));
body(tuple_size) -> tuple_size(id([]));
body(binary_part) -> binary_part(id(<<1, 2, 3>>), id(2), id(5)).

dict_ops() ->
    undefined = put(k, 1),
    1 = put(k, get(k) + 1),
    put(other, x),
    V = get(k),
    E = erase(other),
    {V, E, get(other), lists:sort(get())}.

tuple_ops(T) ->
    T2 = setelement(2, T, b),
    T3 = erlang:append_element(T2, 4),
    {element(2, T2), tuple_size(T3), tuple_to_list(T3), list_to_tuple([a | tuple_to_list(T)]),
     erlang:make_tuple(2, z), erlang:make_tuple(3, 0, [{2, two}])}.

list_ops(L) ->
    {hd(L), tl(L), L ++ [4], L -- [1], length(L), max(hd(L), 2), min(hd(L), 2), abs(-hd(L)),
     atom_to_list(abc), integer_to_list(-42), self() =:= self()}.

failing(element) -> element(id(4), id({a}));
failing(setelement) -> setelement(id(0), id({a}), b);
failing(hd) -> hd(id(a));
failing(tl) -> tl(id([]));
failing(append) -> id([1 | 2]) ++ [3];
failing(subtract) -> [1, 2] -- id(a);
failing(length) -> length(id(a));
failing(atom_to_list) -> atom_to_list(id("a"));
failing(make_tuple) -> erlang:make_tuple(id(-1), a);
failing(list_to_tuple) -> list_to_tuple(id([a | b])).

last_element(T) -> element(2, T).

loop(0, Acc) -> Acc;
loop(N, Acc) ->
    put(n, N),
    loop(N - 1, Acc + get(n) rem 7 + element(1, {1})).

%% erlang:put/2 traced from code that calls it natively: the calls made after the pattern is
%% set are traced, the ones after it is removed are not.
traced() ->
    Self = self(),
    Tracer = spawn(fun() -> tracer(Self, []) end),
    erlang:trace(self(), true, [call, {tracer, Tracer}]),
    erlang:trace_pattern({erlang, put, 2}, true, [global]),
    put(a, 1),
    put(b, 2),
    erlang:trace_pattern({erlang, put, 2}, false, [global]),
    put(c, 3),
    erlang:trace(self(), false, [call]),
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end,
    Tracer ! {done, self()},
    receive {events, Es} -> [io:format("traced ~p~n", [E]) || E <- Es] end.

tracer(Main, Acc) ->
    receive
        {done, Main} -> Main ! {events, lists:reverse(Acc)};
        {trace, Main, call, MFA} -> tracer(Main, [MFA | Acc])
    end.

catch_it(F) ->
    try F() of
        V -> {ok, V}
    catch
        C:R:St -> {C, R, [{M, Fn, A} || {M, Fn, A, _} <- lists:sublist(St, 2)]}
    end.

id(X) -> X.
