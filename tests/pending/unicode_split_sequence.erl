%% tests/pending/unicode_split_sequence.erl — a UTF-8 sequence split across two binaries of one
%% chardata list: OTP joins them ([8364]); beamlet's characters_to_list reports an error.
-module(unicode_split_sequence).
-export([main/0]).

main() ->
    {incomplete, L, R} = unicode:characters_to_list(<<"x", 16#e2, 16#82>>),
    io:format("~w~n", [{L, R, unicode:characters_to_list([R, <<16#ac>>])}]).
