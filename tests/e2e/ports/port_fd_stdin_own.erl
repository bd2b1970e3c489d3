%% A program that reads standard input through a port of its own, started without -noinput
%% (port_fd_stdin_own.beamlet_flags is empty): kernel's `user` io server reads fd 0 only once
%% it is asked for input, so the program's port gets every line (the Benchmarks Game's
%% regex-redux reads its input this way). erl needs -noinput for it (its .erl_flags).
-module(port_fd_stdin_own).
-export([main/0]).

main() ->
    Port = open_port({fd, 0, 1}, [in, binary, {line, 64}, eof]),
    {Lines, Bytes} = read(Port, 0, 0),
    io:format("lines ~p bytes ~p~n", [Lines, Bytes]),
    io:format("output still works~n").

read(Port, Lines, Bytes) ->
    receive
        {Port, {data, {eol, Line}}} -> read(Port, Lines + 1, Bytes + byte_size(Line) + 1);
        {Port, {data, {noeol, Part}}} -> read(Port, Lines, Bytes + byte_size(Part));
        {Port, eof} -> {Lines, Bytes}
    after 5000 -> {timeout, Lines, Bytes}
    end.
