-module(maps_patterns).
-export([main/0]).

%% Map patterns in function heads, case, guards; large maps (sorted output).
main() ->
    Events = [#{type => click, x => 1, y => 2},
              #{type => key, code => 65},
              #{type => key, code => 13, shift => true},
              #{type => scroll},
              #{other => 1},
              not_a_map],
    lists:foreach(fun(E) -> io:format("~p~n", [handle(E)]) end, Events),
    io:format("~w ~w~n", [area(#{shape => circle, r => 2}), area(#{shape => rect, w => 3, h => 4})]),
    io:format("~w~n", [[size_class(M) || M <- [#{}, #{a => 1}, #{a => 1, b => 2, c => 3}]]]),
    Big = maps:from_list([{I, integer_to_list(I)} || I <- lists:seq(1, 100)]),
    #{50 := V50, 100 := V100} = Big,
    io:format("big ~s ~s ~w~n", [V50, V100, map_size(Big)]),
    io:format("big sorted ~p~n", [lists:sublist(lists:sort(maps:to_list(Big)), 5)]),
    Big2 = Big#{50 := fifty, 101 => new},
    io:format("big2 ~p ~p ~w~n", [maps:get(50, Big2), maps:get(101, Big2), map_size(Big2)]),
    io:format("keys sum ~w~n", [lists:sum(maps:keys(Big2))]),
    io:format("match counter ~w~n", [count(#{n => 0}, 5)]),
    ok.

handle(#{type := click, x := X, y := Y}) -> {click, X + Y};
handle(#{type := key, code := 13, shift := true}) -> shift_enter;
handle(#{type := key, code := C}) when C >= 65, C =< 90 -> {letter, [C]};
handle(#{type := T}) -> {unknown_type, T};
handle(M) when is_map(M) -> {no_type, maps:keys(M)};
handle(_) -> not_map.

area(#{shape := circle, r := R}) -> 3 * R * R;
area(#{shape := rect, w := W, h := H}) -> W * H.

size_class(M) when map_size(M) =:= 0 -> empty;
size_class(M) when map_size(M) < 2 -> small;
size_class(_) -> large.

count(M = #{n := N}, Max) when N < Max -> count(M#{n := N + 1}, Max);
count(#{n := N}, _) -> N.
