-module(io_put_chars).
-export([main/0]).

%% Output on standard_io: io:put_chars/1,2 with iodata (deep lists of characters and
%% binaries), io:nl/0,1, io:write/1, io:fwrite/1,2, io:format/1 with no arguments; the
%% string io_lib:format/2 builds is what io:format/2 prints (compared after flattening);
%% ~s/~ts/~p/~tp/~w with field widths, precision and padding; a bad format or wrong
%% arguments raise error badarg (nothing is printed). With the default latin1 encoding, a
%% character above 255 is written as \x{...} (io:format ~ts, io:put_chars of a list, and of a
%% UTF-8 binary) while latin1 characters are single bytes; ~s of such a list is badarg;
%% file:write/2 of raw bytes passes them through. After io:setopts([{encoding, unicode}])
%% the same calls write UTF-8.
main() ->
    ok = io:put_chars("put_chars of a string\n"),
    ok = io:put_chars(["deep ", [$i, $o, [<<"data">>, " with "], <<"binaries">>], $\n]),
    ok = io:put_chars(standard_io, [<<"put_chars/2">>, "\n"]),
    ok = io:put_chars(<<>>),
    ok = io:put_chars([]),
    io:put_chars("io:nl next:"), ok = io:nl(), ok = io:nl(standard_io),
    ok = io:write({a, "term", [1, 2], <<"b">>}), io:nl(),
    ok = io:fwrite("fwrite/1~n"),
    ok = io:fwrite("fwrite/2 ~p~n", [two]),
    ok = io:format("format/1 with no arguments~n"),
    Fmt = "~p ~w ~s ~10s| ~-10s| ~.3f ~e ~8.2f| ~b ~.16B ~x ~c~c ~5c ~~~n",
    Args = [{tuple, "str"}, [1, 2], "string", "right", "left", 3.14159, 2.5, 1.5, 255, 255, 255, "p", $x, $y, $z],
    Built = io_lib:format(Fmt, Args),
    io:format(Fmt, Args),
    io:put_chars(Built),
    io:format("io_lib:format is deep: ~p, flattens to what io:format printed: ~p~n",
              [is_list(Built), lists:flatten(Built) =:= lists:flatten(io_lib:format(Fmt, Args))]),
    io:format("~p~n", [lists:seq(1, 30)]),
    io:format("~40p|~n", [{some, nested, [tuple, "that", is], wide}]),
    io:format("~P~n", [[1, [2, [3, [4, [5, [6]]]]]], 4]),
    io:format("~W~n", [lists:seq(1, 20), 5]),
    io:format("~*c|~-*s|~n", [5, $*, 8, "ab"]),
    io:format("~s ~s~n", [atom_to_be_printed, <<"binary for ~s">>]),
    io:format("bad format: ~p~n", [caught(fun() -> io:format(id("~q~n"), [x]) end)]),
    io:format("too few arguments: ~p~n", [caught(fun() -> io:format(id("~p ~p~n"), [x]) end)]),
    io:format("~~d of an atom: ~p~n", [caught(fun() -> io:format(id("~d~n"), [x]) end)]),
    io:format("io_lib:format badarg: ~p~n", [caught(fun() -> io_lib:format(id("~d"), [x]) end)]),

    %% Characters above 255 with the default latin1 encoding.
    io:format("latin1: caf~s ~c~n", [[233], 252]),
    io:format("~~ts: ~ts~n", [[955, $x]]),
    io:put_chars([955, $\n]),
    io:put_chars(<<"binary \xce\xbb\n">>),
    io:format("~~ts of a UTF-8 binary: ~ts~n", [<<"λ"/utf8>>]),
    io:format("~~s of a code point above 255: ~p~n", [caught(fun() -> io:format("~s~n", [[955]]) end)]),
    ok = file:write(standard_io, <<"file:write raw bytes: \xce\xbb\n">>),
    ok = io:setopts([{encoding, unicode}]),
    io:format("unicode ~~ts: ~ts~n", [[955, $x]]),
    io:put_chars([955, $\n]),
    io:put_chars(<<"binary \xce\xbb\n">>),
    io:format("unicode latin1: caf~s~n", [[233]]),
    io:format("unicode ~~tp ~~p: ~tp ~p~n", ["λ", "λ"]),
    io:format("~ts~n", [lists:duplicate(3, 8364)]).

%% Keeps the compiler from checking (and warning about) the bad format strings.
id(Format) -> binary_to_list(list_to_binary(Format)).

caught(F) ->
    try F(), returned
    catch C:R -> {C, R}
    end.
