-module(std_io_lib_misc).
-export([main/0]).

%% io_lib helpers besides format: write/1,2,3, write_atom, write_string, write_char,
%% write_latin1_string, write_string_as_latin1, fwrite, print/1,4, indentation, nl,
%% char_list, deep_char_list, latin1_char_list, printable_list/printable_latin1_list/
%% printable_unicode_list, fread, scan_format/unscan_format/build_text, format with options
%% (chars_limit), and bad arguments.
main() ->
    T = {rec, [1, 2, 3], "abc", <<"xyz">>, 'Quoted', -5, 2.5, #{a => [b]}},
    t(write, fun() -> lists:flatten(io_lib:write(T)) end),
    t(write_depth, fun() -> lists:flatten(io_lib:write(T, 3)) end),
    t(write_depth_neg, fun() -> lists:flatten(io_lib:write(T, -1)) end),
    t(write_opts, fun() -> lists:flatten(io_lib:write(T, [{depth, 4}])) end),
    t(write_chars_limit, fun() -> lists:flatten(io_lib:write(lists:seq(1, 100), [{chars_limit, 20}])) end),
    t(write_atom, fun() -> lists:flatten([io_lib:write_atom(A) || A <- [abc, 'A', 'a b', '', list_to_atom([233]), list_to_atom([16#3a9]), 'don\'t', 'end', 'ok_1', 'Ok@x', 'x@y']]) end),
    t(write_atom_as_latin1, fun() -> lists:flatten(io_lib:write_atom_as_latin1(list_to_atom([16#3a9]))) end),
    t(write_string, fun() -> lists:flatten(io_lib:write_string("a\"b\\c\nd\te\x01")) end),
    t(write_string_quote, fun() -> lists:flatten(io_lib:write_string("it's \"x\"", $')) end),
    t(write_latin1_string, fun() -> lists:flatten(io_lib:write_latin1_string("ab\n")) end),
    t(write_char, fun() -> [lists:flatten(io_lib:write_char(C)) || C <- [$a, $\n, $\s, $\\, $', $", 0, 127]] end),
    t(write_char_latin1, fun() -> list_to_tuple(lists:flatten(io_lib:write_char(200))) end),
    t(write_latin1_char, fun() -> lists:flatten(io_lib:write_latin1_char($z)) end),
    t(fwrite, fun() -> lists:flatten(io_lib:fwrite("~w-~s", [x, "y"])) end),
    t(fwrite_opts, fun() -> lists:flatten(io_lib:format("~p", [lists:seq(1, 50)], [{chars_limit, 30}])) end),
    t(fwrite_opts_str, fun() -> lists:flatten(io_lib:format("~s", [lists:duplicate(40, $a)], [{chars_limit, 10}])) end),
    t(print1, fun() -> lists:flatten(io_lib:print(T)) end),
    t(print4, fun() -> lists:flatten(io_lib:print(T, 10, 40, -1)) end),
    t(print4_depth, fun() -> lists:flatten(io_lib:print(T, 1, 80, 4)) end),
    t(print_long, fun() -> lists:flatten(io_lib:print([{key, lists:seq(1, 30)}, {other, "a long string value here"}])) end),
    t(indentation, fun() -> [io_lib:indentation("ab\tc", 0), io_lib:indentation("abc\nde", 5), io_lib:indentation("", 3)] end),
    t(nl, fun() -> io_lib:nl() end),
    t(char_list, fun() -> [io_lib:char_list(X) || X <- ["abc", [], [a], "a" ++ [-1], [16#10ffff], [16#110000], [1|2]]] end),
    t(deep_char_list, fun() -> [io_lib:deep_char_list(X) || X <- [["ab", ["c", [$d]]], [[[]]], [["a"], b], [[$a | $b]]]] end),
    t(deep_latin1_char_list, fun() -> [io_lib:deep_latin1_char_list(X) || X <- [["ab", [255]], [[256]]]] end),
    t(latin1_char_list, fun() -> [io_lib:latin1_char_list(X) || X <- ["abc", [255], [256]]] end),
    t(printable_list, fun() -> [io_lib:printable_list(X) || X <- ["abc", "a\nb\t", [1], [], [$a, 200], [$a, 300], "a\e", [$a | b]]] end),
    t(printable_latin1_list, fun() -> [io_lib:printable_latin1_list(X) || X <- ["abc", [200], [300], [7], [127]]] end),
    t(printable_unicode_list, fun() -> [io_lib:printable_unicode_list(X) || X <- ["abc", [300], [16#10ffff], [16#fffe], [7]]] end),
    t(fread_ok, fun() -> io_lib:fread("~d~s", "42 hello rest") end),
    t(fread_float, fun() -> io_lib:fread("~f~a", "3.5 atom") end),
    t(fread_more, fun() -> io_lib:fread("~d~d", "1") end),
    t(fread_err, fun() -> io_lib:fread("~d", "abc") end),
    t(fread_chars, fun() -> io_lib:fread("~3c~u", "abc77") end),
    t(fread_hex, fun() -> io_lib:fread("~16u~#", "ff 8#17") end),
    t(fread_skip, fun() -> io_lib:fread("~*d~d", "1 2") end),
    t(scan_format, fun() -> io_lib:scan_format("a~10.3.xs~n~p", ["str", term]) end),
    t(unscan_format, fun() -> io_lib:unscan_format(io_lib:scan_format("x~-6.2.0f y~p", [1.5, z])) end),
    t(build_text, fun() -> lists:flatten(io_lib:build_text(io_lib:scan_format("<~5w|~-5s>", [ab, "cd"]))) end),
    t(quote_atom, fun() -> [io_lib:quote_atom(A, atom_to_list(A)) || A <- [abc, 'a b', 'X']] end),
    t(format_bad_fmt, fun() -> io_lib:format(not_a_format, []) end),
    t(format_bad_args, fun() -> io_lib:format(fmt2(), [one]) end),
    t(format_atom_fmt, fun() -> lists:flatten(io_lib:format('atom ~w', [1])) end),
    t(format_bin_fmt, fun() -> lists:flatten(io_lib:format(<<"bin ~w">>, [1])) end),
    t(write_string_bad, fun() -> io_lib:write_string(abc) end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).

fmt2() -> "~p ~p".
