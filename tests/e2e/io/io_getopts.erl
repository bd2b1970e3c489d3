-module(io_getopts).
-export([main/0]).

%% The standard io server's options and terminal queries when stdin and stdout are not
%% terminals (stdin is empty here): io:getopts/0,1, io:columns/0,1 and io:rows/0,1 give
%% {error, enotsup}; io:setopts with an unknown option, or one meant for terminals (echo,
%% expand_fun), is {error, enotsup} and changes nothing; setopts of the encoding is seen by
%% getopts; io:printable_range/0 is latin1 by default; reads at eof all return eof (get_line,
%% get_chars, read, fread, file:read, file:read_line); the getopts of standard_error.
%% (Not tested: columns of standard_error, which depends on whether stderr is a terminal.)
main() ->
    io:format("getopts: ~p~n", [io:getopts()]),
    io:format("getopts(standard_io): ~p~n", [io:getopts(standard_io)]),
    io:format("columns: ~p ~p~n", [io:columns(), io:columns(standard_io)]),
    io:format("rows: ~p ~p~n", [io:rows(), io:rows(standard_io)]),
    io:format("setopts unknown: ~p~n", [io:setopts([{no_such_option, 1}])]),
    io:format("setopts echo: ~p~n", [io:setopts([{echo, false}])]),
    io:format("setopts expand_fun: ~p~n", [io:setopts([{expand_fun, fun(_) -> {no, "", []} end}])]),
    io:format("getopts: ~p~n", [io:getopts()]),
    io:format("setopts unicode: ~p, getopts: ~p~n", [io:setopts([{encoding, unicode}]), io:getopts()]),
    io:format("setopts latin1: ~p, getopts: ~p~n", [io:setopts([{encoding, latin1}]), io:getopts()]),
    io:format("printable_range: ~p~n", [io:printable_range()]),
    io:format("get_line: ~p~n", [io:get_line('')]),
    io:format("get_chars: ~p~n", [io:get_chars('', 10)]),
    io:format("read: ~p~n", [io:read('')]),
    io:format("fread: ~p~n", [io:fread('', "~d")]),
    io:format("file:read: ~p~n", [file:read(standard_io, 10)]),
    io:format("file:read_line: ~p~n", [file:read_line(standard_io)]),
    io:format("getopts(standard_error): ~p~n", [io:getopts(standard_error)]).
