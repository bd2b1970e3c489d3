-module(atoms).
-export([main/0]).

%% Atoms, including ones that need quoting in ~p / ~w.
main() ->
    As = [hello, 'hello world', 'Caps', '[]', '', 'a-b', a_b, 'a.b', a@b, 'a@',
          'true', false, 'if', 'case', 'end', 'receive', 'fun', 'not', 'and', 'div',
          'quote\'s', 'back\\slash', 'new\nline', 'tab\there', '123', a123, 'A',
          'hello_World', '_under', '{}', '!', ok, 'ok ', 'maybe', 'else', 'catch',
          'when', 'orelse', 'bsl', 'xor', 'try', 'of', 'after', 'begin', 'query'],
    lists:foreach(fun(A) ->
        io:format("~p ~w ~s|~n", [A, A, atom_to_list(A)])
    end, As),
    io:format("eq ~w ~w~n", ['abc' =:= abc, 'Abc' =:= abc]),
    io:format("lengths ~w~n", [[length(atom_to_list(A)) || A <- [a, bb, 'c c c']]]),
    io:format("list ~p~n", [['hello world', 'Caps', plain]]),
    io:format("tuple ~w~n", [{'[]', [], '{}'}]),
    ok.
