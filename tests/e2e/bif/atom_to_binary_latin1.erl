%% atom_to_binary/2 with latin1 gives one byte per character and is badarg for an atom with a
%% character above 255; erlang:display_string/1 takes any characters (bif_SUITE:
%% t_atom_to_binary, display_string).
-module(atom_to_binary_latin1).
-export([main/0, id/1]).
id(X) -> X.

main() ->
    Long = list_to_atom(lists:seq(0, 254)),
    io:format("~p ~p~n", [byte_size(atom_to_binary(Long, latin1)), byte_size(atom_to_binary(Long, utf8))]),
    io:format("~p~n", [atom_to_binary('åäö', latin1)]),
    io:format("~p~n", [atom_to_binary('åäö', utf8)]),
    Wide = list_to_atom(id([255, 256])),
    io:format("~p~n", [try atom_to_binary(Wide, latin1) catch error:R -> R end]),
    io:format("~p~n", [atom_to_binary(Wide, unicode)]),
    io:format("~p~n", [[erlang:display_string(S) || S <- ["", lists:seq(1100, 1105) ++ "\n"]]]),
    io:format("~p~n", [[try erlang:display_string(S) catch error:E -> E end || S <- [atom, [-1], "ab" ++ c, <<"bin">>]]]),
    ok.
