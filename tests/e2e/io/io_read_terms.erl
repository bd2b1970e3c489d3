-module(io_read_terms).
-export([main/0]).

%% io:read/1,2,3 of Erlang terms from standard input (io_read_terms.input) until eof: terms
%% of every kind, a term over several lines, two terms on one line, numbers in other bases,
%% chars, adjacent strings; a syntax error ({error, {Line, erl_parse, Message}}) after which
%% reading goes on; an expression that is not a term (1 + 2: an error); a last term without
%% its dot at eof (a syntax error, then eof); io:read/3 returns the end location (io:read/1,2
%% report errors at line 1). The prompt is written each time.
main() ->
    io:format("~p~n", [io:read("term> ")]),
    io:format("~p~n", [io:read(standard_io, '')]),
    io:format("~p~n", [io:read(standard_io, '', 1)]),
    loop().

loop() ->
    case io:read('') of
        {eof} -> io:format("eof tuple~n");
        eof -> io:format("eof~n");
        R -> io:format("~p~n", [R]), loop()
    end.
