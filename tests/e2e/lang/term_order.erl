-module(term_order).
-export([main/0]).

%% number < atom < reference < fun < port < pid < tuple < map < nil < list < bitstring
main() ->
    Mixed = [<<"b">>, [1, 2], {1, 2}, #{a => 1}, abc, 3, [], 2.5, {1}, <<1:3>>,
             "abc", 'Zed', #{}, {}, -10, 1 bsl 80, [a | b], <<>>, {1, 2, 3}, aa],
    io:format("~w~n", [lists:sort(Mixed)]),
    io:format("~w~n", [lists:reverse(lists:sort(Mixed))]),
    R = make_ref(),
    F = fun() -> ok end,
    io:format("atom<ref ~w ref<fun ~w fun<tuple ~w~n", [zzz < R, R < F, F < {}]),
    io:format("tuples ~w~n", [lists:sort([{2}, {1, 1}, {0, 0, 0}, {1, 0}, {a}])]),
    io:format("lists ~w~n", [lists:sort([[b], [a, b], [a], [a, a, a], [1 | 2], [1]])]),
    io:format("atoms ~w~n", [lists:sort([b, a, 'B', 'A', aa, ab, 'a b', ''])]),
    io:format("bins ~w~n", [lists:sort([<<2>>, <<1, 2>>, <<1>>, <<1:1>>, <<>>, <<1, 1>>])]),
    io:format("maps ~w~n", [lists:sort([#{b => 1}, #{a => 2}, #{a => 1}, #{a => 1, b => 1}, #{1 => a}])]),
    io:format("map key order ~w~n", [lists:sort([#{1 => a}, #{1.0 => a}])]),
    io:format("cmp ~w ~w ~w~n", [{1, 2} < {1, 3}, [1, 2] < [1, 2, 0], {9} < {1, 1}]),
    io:format("int vs float keys ~w~n", [lists:sort([{1.0, a}, {1, b}])]),
    ok.
