-module(std_io_pretty).
-export([main/0]).

-record(point, {x = 0, y = 0}).
-record(shape, {name, points = [], style = #{color => red}, meta}).

%% io:format ~p line breaking at 80 columns of nested and long terms (lists, tuples, maps,
%% strings, binaries, records as tuples), the indentation after leading text, ~p with an
%% explicit line length, ~P depth limits, and io_lib_pretty:print with a record_print_fun
%% that knows the record definitions (as the shell does).
main() ->
    Long = lists:seq(1, 60),
    io:format("~p~n", [Long]),
    io:format("prefix text: ~p~n", [Long]),
    io:format("~p~n", [[{N, atom_to_list(list_to_atom("item_" ++ integer_to_list(N)))} || N <- lists:seq(1, 8)]]),
    Nested = {level1, {level2, {level3, {level4, [alpha, beta, gamma, delta, epsilon, zeta, eta, theta, iota]}}}},
    io:format("~p~n", [Nested]),
    io:format("~p~n", [[Nested, Nested]]),
    io:format("~p~n", [#{name => "a fairly long string value", list => lists:seq(1, 25), nested => #{inner => {a, b, c}, other => [x, y, z]}}]),
    io:format("~p~n", [lists:duplicate(5, "a string that is long enough to wrap")]),
    io:format("~p~n", [list_to_binary(lists:duplicate(100, $b))]),
    io:format("~p~n", [[list_to_binary(lists:seq($a, $z)), list_to_binary(lists:seq($A, $Z)), <<1, 2, 3, 255>>]]),
    io:format("~p~n", [{"string with\nnewline and \"quotes\"", 'atom with space', [$\t, $a]}]),
    S = #shape{name = triangle, points = [#point{x = 1, y = 2}, #point{x = 10, y = 20}, #point{x = 100, y = 200}],
               meta = {created, {2020, 1, 1}, by, "somebody with a long name"}},
    io:format("~p~n", [S]),
    io:format("~w~n", [S]),
    io:format("~40p~n", [S]),
    io:format("~20p~n", [Long]),
    io:format("~200p~n", [Long]),
    io:format("~P~n", [S, 5]),
    io:format("~P~n", [Long, 10]),
    io:format("~p ~p~n", [Long, Long]),
    io:format("~p~n", [[[[[[[[[[deep]]]]]]]]]]),
    io:format("~p~n", [{[], {}, #{}, <<>>, "", [[]], [{}]}]),
    io:format("~p~n", [[{a, 1} | improper_tail]]),
    io:format("~p~n", [[1, 2, 3 | 4]]),
    io:format("~p~n", [{1.5, -2.25e-20, 3.0e50, -0.0, 100.0}]),
    io:format("~p~n", [{12345678901234567890123456789012345678901234567890, -98765432109876543210}]),
    RF = fun(point, 2) -> [x, y];
            (shape, 4) -> [name, points, style, meta];
            (_, _) -> no
         end,
    io:format("~s~n", [io_lib_pretty:print(S, [{record_print_fun, RF}])]),
    io:format("~s~n", [io_lib_pretty:print(#point{x = 5}, [{record_print_fun, RF}])]),
    io:format("~s~n", [io_lib_pretty:print({point, 1, 2, 3}, [{record_print_fun, RF}])]),
    io:format("~s~n", [io_lib_pretty:print([S, S], [{record_print_fun, RF}, {column, 10}, {line_length, 60}])]),
    io:format("~s~n", [io_lib_pretty:print(S, [{record_print_fun, RF}, {depth, 6}])]),
    io:format("~s~n", [io_lib_pretty:print(Long, [{column, 30}])]),
    ok.
