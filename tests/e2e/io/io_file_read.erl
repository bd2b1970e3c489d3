-module(io_file_read).
-export([main/0]).

%% file:read(standard_io, N) on standard input (io_file_read.input) in chunks until eof:
%% chunks of exactly N characters (lists: standard_io is in list mode) crossing line ends,
%% the last one shorter, then eof; file:read_line/1 on standard_io in between; the total
%% size and a checksum of everything read (erlang:crc32) match the input.
main() ->
    {ok, First} = file:read(standard_io, 10),
    io:format("first chunk: ~p~n", [First]),
    {ok, Line} = file:read_line(standard_io),
    io:format("read_line: ~p~n", [Line]),
    {Chunks, Total, Crc} = loop(100, [], 0, erlang:crc32(First ++ Line)),
    io:format("chunks of 100: ~p~n", [length(Chunks)]),
    io:format("chunk sizes: ~w~n", [[length(C) || C <- Chunks]]),
    io:format("last chunk: ~p~n", [lists:last(Chunks)]),
    io:format("total characters: ~p~n", [length(First) + length(Line) + Total]),
    io:format("crc32: ~p~n", [Crc]),
    io:format("again at eof: ~p ~p~n", [file:read(standard_io, 5), file:read_line(standard_io)]).

loop(N, Acc, Total, Crc) ->
    case file:read(standard_io, N) of
        {ok, Data} -> loop(N, [Data | Acc], Total + length(Data), erlang:crc32(Crc, Data));
        eof -> {lists:reverse(Acc), Total, Crc}
    end.
