-module(io_get_chars).
-export([main/0]).

%% io:get_chars/2,3 on standard input (io_get_chars.input): chunks of N characters cross line
%% ends ("\n" counts as one character), a prompt is written before each read, get_line after
%% get_chars continues from where it stopped, the last chunk is shorter, then eof; a count of
%% 0 returns [] (an empty string).
main() ->
    io:format("~p~n", [io:get_chars("chars> ", 4)]),
    io:format("~p~n", [io:get_chars('', 8)]),
    io:format("~p~n", [io:get_chars(standard_io, '', 1)]),
    io:format("~p~n", [io:get_chars('', 0)]),
    io:format("~p~n", [io:get_line('')]),
    io:format("~p~n", [io:get_chars('', 22)]),
    io:format("~p~n", [io:get_line('')]),
    Chunks = chunks(7, []),
    io:format("chunks of 7: ~p~n", [Chunks]),
    io:format("at eof: ~p~n", [io:get_chars('', 3)]).

chunks(N, Acc) ->
    case io:get_chars('', N) of
        eof -> lists:reverse(Acc);
        Chunk -> chunks(N, [Chunk | Acc])
    end.
