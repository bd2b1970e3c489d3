-module(io_binary_mode).
-export([main/0]).

%% io:setopts([binary]) on standard input before anything is read: get_line, get_chars and
%% file:read/2 then return binaries (getopts says {binary, true}); io:setopts([list])
%% switches back to lists, with what was already read ahead kept; eof is the same in both
%% modes. (Switching from list to binary once input has been read ahead makes OTP 25's user
%% io server crash in -noshell; it is not tested.) Input: io_binary_mode.input.
main() ->
    io:format("getopts: ~p~n", [io:getopts()]),
    ok = io:setopts([binary]),
    io:format("getopts: ~p~n", [io:getopts()]),
    io:format("get_line: ~p~n", [io:get_line('')]),
    io:format("get_line with a prompt: ~p~n", [io:get_line("binary> ")]),
    io:format("get_chars: ~p~n", [io:get_chars('', 5)]),
    io:format("file:read: ~p~n", [file:read(standard_io, 4)]),
    io:format("rest of the line: ~p~n", [io:get_line('')]),
    ok = io:setopts([list]),
    io:format("getopts: ~p~n", [io:getopts()]),
    io:format("list get_line: ~p~n", [io:get_line('')]),
    io:format("list get_chars: ~p~n", [io:get_chars('', 3)]),
    io:format("list get_line: ~p~n", [io:get_line('')]),
    io:format("last: ~p~n", [io:get_line('')]),
    io:format("eof: ~p ~p ~p~n", [io:get_line(''), io:get_chars('', 1), file:read(standard_io, 1)]),
    ok = io:setopts([{binary, true}]),
    io:format("eof in binary mode: ~p ~p ~p~n", [io:get_line(''), io:get_chars('', 1), file:read(standard_io, 1)]).
