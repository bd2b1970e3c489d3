-module(std_io_output).
-export([main/0]).

%% The io module writing to standard output: io:format/1,2,3 (standard_io, user), io:fwrite,
%% io:put_chars/1,2 (lists, binaries, deep iolists), io:write/1, io:nl/0, io:columns (not a
%% terminal here), io:printable_range, ~ts of latin1 text to a latin1 device, and the error
%% raised for bad format arguments (caught; io:format raises badarg in the caller).
main() ->
    io:format("plain format with no args~n"),
    io:format("atom format ~w~n", [1]),
    io:format(<<"binary format ~w~n">>, [2]),
    io:format('atom_as_format~n', []),
    io:format(standard_io, "to standard_io ~p~n", [{a, "b"}]),
    io:format(user, "to user ~p~n", [[1, 2]]),
    io:fwrite("fwrite ~s~n", ["works"]),
    io:fwrite("fwrite/1 works~n"),
    io:put_chars("put_chars list\n"),
    io:put_chars(<<"put_chars binary\n">>),
    io:put_chars(["deep ", [<<"io">>, $l, "ist"], $\n]),
    io:put_chars(standard_io, "put_chars/2\n"),
    io:write({write, [1, "two", <<"three">>]}),
    io:nl(),
    io:write(standard_io, 'Quoted Atom'),
    io:nl(standard_io),
    io:format("columns: ~p~n", [io:columns()]),
    io:format("printable_range: ~p~n", [io:printable_range()]),
    io:format("latin1 text via ~~s: ~s~n", [[$a, $b, $c]]),
    io:format("multi~nline~n~noutput~n"),
    io:format("tab\there and percent % and tilde ~~~n"),
    io:format("~s~n", [lists:duplicate(200, $x)]),
    R1 = try io:format(id("~d~n"), [notanint]), no_error catch C1:E1 -> {C1, E1} end,
    io:format("bad format arg: ~p~n", [R1]),
    R2 = try io:format(id("~p ~p~n"), [only_one]), no_error catch C2:E2 -> {C2, E2} end,
    io:format("too few args: ~p~n", [R2]),
    R3 = try io:format(12345, []), no_error catch C3:E3 -> {C3, E3} end,
    io:format("bad format: ~p~n", [R3]),
    R4 = try io:put_chars([a, b]), no_error catch C4:E4 -> {C4, E4} end,
    io:format("bad put_chars: ~p~n", [R4]),
    R5 = (catch io:format(no_such_device_registered, "x", [])),
    io:format("bad device: ~p~n", [element(1, R5)]),
    io:format("request: ~p~n", [io:request(standard_io, {put_chars, latin1, "via request\n"})]),
    io:format("done~n").

id(X) -> X.
