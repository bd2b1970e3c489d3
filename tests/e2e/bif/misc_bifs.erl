-module(misc_bifs).
-export([main/0]).

%% Assorted BIFs: is_function/2, tuple/list conversions, integer/binary round-trips,
%% (no external term format, no hashing).
main() ->
    io:format("~w~n", [tuple_to_list(list_to_tuple(lists:seq(1, 5)))]),
    io:format("~w~n", [[is_function(F, A) || {F, A} <- [{fun() -> ok end, 0}, {fun(_) -> ok end, 0}, {fun lists:map/2, 2}]]]),
    io:format("~p~n", [atom_to_binary(list_to_atom(binary_to_list(integer_to_binary(255, 16))))]),
    io:format("~w~n", [binary_to_integer(list_to_binary(integer_to_list(1 bsl 90)))]),
    io:format("~w~n", [erlang:max(erlang:min(5, 10), 7)]),
    io:format("~w~n", [[erlang:'=:='(X, Y) || {X, Y} <- [{1, 1}, {1, 1.0}]]]),
    io:format("~w~n", [[erlang:'=='(1, 1.0), erlang:'/='(a, b), erlang:'=<'(1, 1), erlang:'>='(2, 3)]]),
    io:format("~w~n", [[erlang:'not'(true), erlang:'and'(true, false), erlang:'or'(true, false), erlang:'xor'(true, true)]]),
    io:format("~w~n", [erlang:element(2, erlang:list_to_tuple([x, y, z]))]),
    io:format("~w~n", [[erlang:is_map_key(k, #{k => 1}), erlang:map_get(k, #{k => v}), erlang:map_size(#{a => 1})]]),
    io:format("~w~n", [[erlang:bit_size(<<1:N>>) || N <- [0, 1, 7, 8, 9]]]),
    io:format("~w~n", [erlang:byte_size(<<1:17>>)]),
    io:format("~p~n", [erlang:setelement(1, {a}, b)]),
    io:format("~w~n", [lists:map(fun erlang:abs/1, [-1, 2, -3])]),
    io:format("~w~n", [erlang:list_to_integer("-0")]),
    io:format("~w~n", [[erlang:integer_to_list(N, 16) || N <- [10, 255, -256]]]),
    ok.
