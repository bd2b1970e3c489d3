%% unicode:characters_to_list/binary with UTF-8 sequences split across the binaries of one
%% chardata list (OTP joins them), unfinished at the end (incomplete) or cut short by the
%% next element (error, with OTP's rest).
-module(std_unicode_split_sequence).
-export([main/0]).

main() ->
    {incomplete, L, R} = unicode:characters_to_list(<<"x", 16#e2, 16#82>>),
    io:format("~w~n", [{L, R, unicode:characters_to_list([R, <<16#ac>>])}]),
    [io:format("~w~n", [unicode:characters_to_list(X)])
     || X <- [[<<"x">>, <<226>>, <<130>>], [<<"x", 226>>, <<130>>, <<172, "y">>], [<<226>>, 65],
              [<<226>>, <<65>>], [<<226>>, [<<130>>, <<172>>]], [[<<226>>], <<130, 172>>],
              [<<226, 130>>, <<172>>, 66], [<<240, 159>>, <<152>>, <<128>>], [<<"a">>, <<255>>, 66],
              [<<226>>, <<>>], <<226>>, [[<<226>>], 65], [<<"a">>, <<255>>], [<<226>>, <<65>>, 66],
              [[<<226>>], <<65>>], [<<"a">>, [<<255>>]]]],
    [io:format("~w~n", [unicode:characters_to_binary(X)])
     || X <- [[<<"x">>, <<226>>, <<130>>], [<<226>>, <<65>>], [<<226>>, <<130>>, <<172>>]]].
