-module(std_binary_to_term).
-export([main/0]).

%% binary_to_term/1,2 on hand-written external-format binaries: every tag for non-process
%% terms (SMALL_INTEGER, INTEGER, SMALL_BIG, LARGE_BIG, NEW_FLOAT, FLOAT (text), ATOM,
%% SMALL_ATOM, ATOM_UTF8, SMALL_ATOM_UTF8, NIL, STRING, LIST, SMALL_TUPLE, LARGE_TUPLE, MAP,
%% BINARY, BIT_BINARY, compressed), the `used` and `safe` options (safe with an atom that does
%% not exist), and malformed inputs (caught as badarg).
main() ->
    Good = [
      {small_int, <<131, 97, 200>>},
      {int_neg, <<131, 98, 255, 255, 255, 156>>},
      {small_big, <<131, 110, 8, 0, 0, 0, 0, 0, 0, 0, 0, 1>>},
      {small_big_neg, <<131, 110, 2, 1, 1, 1>>},
      {small_big_unnormalized, <<131, 110, 8, 0, 5, 0, 0, 0, 0, 0, 0, 0>>},
      {large_big, <<131, 111, 0, 0, 0, 3, 0, 1, 2, 3>>},
      {new_float, <<131, 70, 64, 9, 33, 251, 84, 68, 45, 24>>},
      {old_float, <<131, 99, (list_to_binary(string:pad("2.5e+00", 31, trailing, 0)))/binary>>},
      {atom_ext, <<131, 100, 0, 5, "hello">>},
      {atom_latin1, <<131, 100, 0, 1, 229>>},
      {small_atom, <<131, 115, 3, "foo">>},
      {atom_utf8, <<131, 118, 0, 2, 206, 169>>},
      {small_atom_utf8, <<131, 119, 3, "bar">>},
      {atom_true, <<131, 119, 4, "true">>},
      {nil, <<131, 106>>},
      {string, <<131, 107, 0, 3, 1, 2, 3>>},
      {list, <<131, 108, 0, 0, 0, 2, 97, 1, 97, 2, 106>>},
      {improper, <<131, 108, 0, 0, 0, 1, 97, 1, 97, 2>>},
      {small_tuple, <<131, 104, 2, 97, 1, 106>>},
      {large_tuple, <<131, 105, 0, 0, 0, 2, 97, 1, 97, 2>>},
      {map, <<131, 116, 0, 0, 0, 2, 97, 2, 97, 20, 97, 1, 97, 10>>},
      {binary, <<131, 109, 0, 0, 0, 3, "abc">>},
      {bit_binary, <<131, 77, 0, 0, 0, 1, 3, 160>>},
      {bit_binary_full, <<131, 77, 0, 0, 0, 1, 8, 7>>},
      {compressed, term_to_binary(lists:duplicate(30, abc), [compressed])},
      {nested, term_to_binary({a, [b, {c, <<"d">>}], #{e => 1.5}})}
    ],
    lists:foreach(fun({Name, B}) ->
        R = try {ok, binary_to_term(B)} catch C:E -> {error, C, E} end,
        io:format("~p: ~w~n", [Name, atom_chars(R)])
    end, Good),
    io:format("used: ~w~n", [binary_to_term(<<131, 97, 1, 99, 99, 99>>, [used])]),
    io:format("trailing ignored: ~w~n", [try binary_to_term(<<131, 97, 1, 99, 99, 99>>) catch C1:E1 -> {C1, E1} end]),
    io:format("used compressed: ~w~n", [element(2, binary_to_term(term_to_binary(lists:duplicate(30, abc), [compressed]), [used]))]),
    io:format("safe existing: ~w~n", [binary_to_term(<<131, 119, 2, "ok">>, [safe])]),
    Fresh = <<"std_b2t_", "q", "z", "x", "unlikely_atom_name">>,
    Unk = <<131, 119, (byte_size(Fresh)), Fresh/binary>>,
    io:format("safe unknown atom: ~w~n", [try binary_to_term(Unk, [safe]) catch C2:E2 -> {C2, E2} end]),
    io:format("safe unknown atom in tuple: ~w~n", [try binary_to_term(<<131, 104, 1, Unk/binary>>, [safe]) catch C3:E3 -> {C3, E3} end]),
    io:format("unsafe creates: ~w~n", [atom_to_binary(binary_to_term(Unk)) =:= Fresh]),
    io:format("safe now ok: ~w~n", [is_atom(binary_to_term(Unk, [safe]))]),
    io:format("safe local fun: ~w~n", [is_function(binary_to_term(term_to_binary(fun() -> Fresh end), [safe]), 0)]),
    Bad = [
      {empty, <<>>},
      {only_version, <<131>>},
      {bad_version, <<130, 97, 1>>},
      {no_version, <<97, 1>>},
      {unknown_tag, <<131, 1>>},
      {truncated_int, <<131, 98, 0, 0>>},
      {truncated_atom, <<131, 100, 0, 5, "ab">>},
      {truncated_list, <<131, 108, 0, 0, 0, 3, 97, 1>>},
      {truncated_binary, <<131, 109, 0, 0, 0, 10, "abc">>},
      {truncated_float, <<131, 70, 64, 9>>},
      {bad_utf8_atom, <<131, 119, 2, 255, 255>>},
      {bad_bits, <<131, 77, 0, 0, 0, 1, 0, 0>>},
      {bad_bits9, <<131, 77, 0, 0, 0, 1, 9, 0>>},
      {atom_too_long, <<131, 118, 1, 0, (binary:copy(<<"a">>, 256))/binary>>},
      {map_dup_keys, <<131, 116, 0, 0, 0, 2, 97, 1, 97, 1, 97, 1, 97, 2>>},
      {bad_compressed, <<131, 80, 0, 0, 0, 10, 1, 2, 3>>},
      {nan_float, <<131, 70, 127, 248, 0, 0, 0, 0, 0, 0>>},
      {inf_float, <<131, 70, 127, 240, 0, 0, 0, 0, 0, 0>>},
      {not_binary, [131, 97, 1]},
      {atom_arg, abc}
    ],
    lists:foreach(fun({Name, B}) ->
        R = try {ok, binary_to_term(B)} catch C:E -> {error, C, E} end,
        io:format("bad ~p: ~w~n", [Name, R])
    end, Bad),
    io:format("bad option: ~w~n", [try binary_to_term(<<131, 97, 1>>, [bogus]) catch C4:E4 -> {C4, E4} end]),
    ok.

%% Atoms are shown as {atom, Chars} (chars printed with ~w) to keep the output ASCII.
atom_chars({ok, A}) when is_atom(A) -> {ok, {atom, atom_to_list(A)}};
atom_chars(R) -> R.
