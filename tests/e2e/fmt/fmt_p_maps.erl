-module(fmt_p_maps).
-export([main/0]).

%% ~p line breaking for maps: long maps, nested maps, maps inside lists and tuples.
main() ->
    M = #{name => "beamlet", version => {0, 1, 0}, features => [bignums, floats, maps, binaries],
          limits => #{max_atoms => 1048576, max_processes => 262144}, enabled => true},
    io:format("~p~n", [M]),
    io:format("~p~n", [maps:from_list([{list_to_atom([C]), C} || C <- lists:seq($a, $z)])]),
    io:format("~p~n", [#{config => #{db => #{host => "localhost", port => 5432, user => "admin",
                                             pool => #{size => 10, overflow => 5}},
                                     cache => #{ttl => 3600, backend => ets}}}]),
    io:format("~p~n", [[#{id => I, label => "item" ++ integer_to_list(I), value => I * 1.5} || I <- lists:seq(1, 4)]]),
    io:format("~p~n", [{state, #{counter => 42, history => lists:seq(1, 25)}, ok}]),
    io:format("~p~n", [#{{tuple, key} => [1, 2, 3], <<"binary key">> => #{}, "string key" => 'atom value',
                         42 => 3.14, [list, key] => {a, b}}]),
    io:format("~p~n", [#{a => #{b => #{c => #{d => #{e => #{f => #{g => deep}}}}}}}]),
    io:format("~p~n", [#{long_key_number_one => long_value_number_one, long_key_number_two => long_value_number_two}]),
    io:format("~w~n", [#{a => 1, b => [2], c => {3}}]),
    ok.
