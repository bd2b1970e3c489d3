-module(io_get_line).
-export([main/0]).

%% io:get_line/1,2 on standard input (io_get_line.input) until eof: the prompt is written to
%% stdout before each read (an empty prompt writes nothing); each line comes back with its
%% "\n" (an empty line is "\n", and "\r\n" becomes "\n"); the last line has no newline; then
%% eof, again and again. Standard input is latin1: a non-ASCII byte is one character (UTF-8
%% bytes are not decoded). A 300-character line comes back whole.
main() ->
    First = io:get_line("prompt> "),
    io:format("~p~n", [First]),
    Second = io:get_line(standard_io, ''),
    io:format("~p~n", [Second]),
    Rest = read_all(3, []),
    [io:format("~3w: ~w chars: ~p~n", [N, length(L), short(L)]) || {N, L} <- Rest],
    io:format("after eof: ~p ~p~n", [io:get_line(''), io:get_line("prompt at eof> ")]),
    io:format("lines: ~p~n", [2 + length(Rest)]).

read_all(N, Acc) ->
    case io:get_line('') of
        eof -> lists:reverse(Acc);
        Line -> read_all(N + 1, [{N, Line} | Acc])
    end.

short(L) when length(L) > 40 -> lists:sublist(L, 20) ++ "..." ++ lists:nthtail(length(L) - 10, L);
short(L) -> L.
