-module(atom_conv).
-export([main/0]).

%% atom_to_list, list_to_atom, atom_to_binary, binary_to_atom, list_to_existing_atom.
main() ->
    As = [hello, 'Hello World', '', 'with\nnewline', 'a_b@c', ok],
    lists:foreach(fun(A) ->
        L = atom_to_list(A),
        B = atom_to_binary(A),
        B2 = atom_to_binary(A, utf8),
        B3 = atom_to_binary(A, latin1),
        io:format("~p ~p ~p ~w ~w~n", [A, L, B, B =:= B2, B =:= B3])
    end, As),
    io:format("~p~n", [[list_to_atom(S) || S <- ["abc", "Cap", "with space", "", "123"]]]),
    io:format("~p~n", [[binary_to_atom(B) || B <- [<<"xyz">>, <<"Q">>, <<"a b">>]]]),
    io:format("~p~n", [[binary_to_atom(B, utf8) || B <- [<<"utf">>]]]),
    io:format("~p~n", [list_to_existing_atom("hello")]),
    io:format("~p~n", [binary_to_existing_atom(<<"ok">>, utf8)]),
    R = try list_to_existing_atom("surely_this_atom_does_not_exist_xyzzy_42") catch error:E -> E end,
    io:format("nonexisting ~p~n", [R]),
    Made = list_to_atom("made_" ++ integer_to_list(7)),
    io:format("~p ~w~n", [Made, Made =:= made_7]),
    io:format("roundtrip ~w~n", [[binary_to_atom(atom_to_binary(A)) =:= A || A <- As]]),
    io:format("errors ~w~n", [[try F() catch error:Er -> Er end ||
                                F <- [fun() -> atom_to_list(id(1)) end, fun() -> list_to_atom(id(abc)) end,
                                      fun() -> binary_to_atom(id("abc")) end,
                                      fun() -> list_to_atom(id([a])) end]]]),
    io:format("length limit ~w~n", [length(atom_to_list(list_to_atom(lists:duplicate(255, $z))))]),
    ok.

id(X) -> X.
