-module(io_unicode_input).
-export([main/0]).

%% Standard input with {encoding, unicode}, set before anything is read
%% (io_unicode_input.input is UTF-8): in binary mode get_line returns the UTF-8 bytes and
%% get_chars counts characters, not bytes; back in list mode lines are lists of code points
%% (λ is 955, € 8364, an emoji one code point above 16#FFFF). The encoding applies to output
%% too: ~ts writes UTF-8, and io:put_chars of a list with code points above 255 works.
%% getopts reports the encoding.
main() ->
    ok = io:setopts([binary, {encoding, unicode}]),
    io:format("getopts: ~p~n", [io:getopts()]),
    B = io:get_line(''),
    io:format("binary line: ~w (~p bytes), as text: ~ts", [B, byte_size(B), B]),
    C = io:get_chars('', 4),
    io:format("get_chars 4: ~w = ~ts (~p characters)~n", [C, C, length(unicode:characters_to_list(C))]),
    ok = io:setopts([list]),
    L = io:get_line(''),
    io:format("rest of the line: ~w~n", [L]),
    Lines = read_all([]),
    [io:format("~w code points: ~w~n", [length(X), X]) || X <- Lines],
    [io:format("~ts", [X]) || X <- Lines],
    io:put_chars([955, $\s, 8364, $\n]),
    io:format("~ts ~ts~n", [<<"binary λ"/utf8>>, [8364]]),
    io:format("~tp ~p~n", [[955], [955]]),
    io:format("eof: ~p~n", [io:get_line('')]).

read_all(Acc) ->
    case io:get_line('') of
        eof -> lists:reverse(Acc);
        Line -> read_all([Line | Acc])
    end.
