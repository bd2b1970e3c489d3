-module(std_term_to_binary).
-export([main/0]).

%% term_to_binary/1,2 byte for byte: atoms (short, long, latin1, utf8), integers (small,
%% 32-bit, bignums), floats (NEW_FLOAT_EXT, and minor_version 0 text floats), binaries,
%% bitstrings, strings, lists, improper lists, tuples (small and large), maps (small, and
%% large with `deterministic`), options compressed / {compressed, N} / {minor_version, 0..2},
%% external_size, term_to_iovec, and round trips through binary_to_term. No pids, refs, funs.
main() ->
    Terms = [a, abc, '', 'Hello World', list_to_atom([16#e5, $x]), list_to_atom([16#3a9]),
             list_to_atom(lists:duplicate(255, $z)),
             0, 1, 255, 256, -1, 1 bsl 27, -(1 bsl 27), 2147483647, -2147483648, 2147483648,
             -2147483649, 1 bsl 64, -(1 bsl 64), 1 bsl 2040, 123456789012345678901234567890,
             0.0, -0.0, 1.0, -2.5, 3.141592653589793, 1.0e300, 5.0e-324,
             <<>>, <<"bin">>, <<1:1>>, <<255, 7:3>>,
             [], "abc", [1, 2, 300], [a | b], [[]], [$a, 256], lists:seq(1, 3),
             {}, {a}, {a, {b, {c}}}, list_to_tuple(lists:seq(1, 256)),
             #{}, #{a => 1}, #{b => 2, a => 1, 1 => x}, #{<<"k">> => [v]},
             {1.5, "str", <<"bin">>, [x, y], #{k => v}}],
    lists:foreach(fun(T) ->
        B = term_to_binary(T),
        io:format("~s~n  ~w~n", [show(T), B]),
        case binary_to_term(B) =:= T of
            true -> ok;
            false -> io:format("  ROUNDTRIP MISMATCH~n")
        end
    end, Terms),
    io:format("== minor versions~n"),
    lists:foreach(fun(T) ->
        [io:format("~s minor ~w: ~w~n", [show(T), V, term_to_binary(T, [{minor_version, V}])]) || V <- [0, 1, 2]]
    end, [1.5, -0.0, 1.0e-300, abc, list_to_atom([16#e5]), list_to_atom([16#3a9]), {x, 2.25}]),
    io:format("minor 0 float decodes: ~w~n", [binary_to_term(term_to_binary(0.1, [{minor_version, 0}]))]),
    io:format("== compressed~n"),
    Rep = lists:duplicate(50, {hello, "world", 12345}),
    C = term_to_binary(Rep, [compressed]),
    io:format("compressed: ~w~n", [C]),
    io:format("compressed 9: ~w~n", [term_to_binary(Rep, [{compressed, 9}])]),
    io:format("compressed 1: ~w~n", [term_to_binary(Rep, [{compressed, 1}])]),
    io:format("compressed 0: ~w~n", [byte_size(term_to_binary(Rep, [{compressed, 0}]))]),
    io:format("compressed small (not compressed): ~w~n", [term_to_binary(abc, [compressed])]),
    io:format("sizes: ~w ~w ~w~n", [byte_size(term_to_binary(Rep)), byte_size(C), binary_to_term(C) =:= Rep]),
    io:format("== deterministic maps~n"),
    Small = #{z => 1, a => 2, m => 3, 1 => 4, "s" => 5},
    io:format("small det: ~w~n", [term_to_binary(Small, [deterministic])]),
    io:format("small det == plain: ~w~n", [term_to_binary(Small, [deterministic]) =:= term_to_binary(Small)]),
    Large = maps:from_list([{K, K * 2} || K <- lists:seq(1, 40)]),
    Large2 = lists:foldl(fun(K, M) -> M#{K => K * 2} end, #{}, lists:seq(40, 1, -1)),
    LD = term_to_binary(Large, [deterministic]),
    io:format("large det: ~w bytes, head ~w~n", [byte_size(LD), binary:part(LD, 0, 24)]),
    io:format("large det equal: ~w~n", [LD =:= term_to_binary(Large2, [deterministic])]),
    io:format("large det tail: ~w~n", [binary:part(LD, byte_size(LD) - 12, 12)]),
    io:format("large roundtrip: ~w~n", [binary_to_term(term_to_binary(Large)) =:= Large]),
    io:format("nested det: ~w~n", [term_to_binary([#{b => #{y => 1, x => 2}, a => []}], [deterministic])]),
    io:format("== misc~n"),
    io:format("external_size: ~w~n", [[erlang:external_size(T) || T <- [a, 1, 1.5, <<"abc">>, "abc", {a, b}, Rep]]]),
    io:format("external_size minor0: ~w~n", [erlang:external_size(1.5, [{minor_version, 0}])]),
    io:format("iovec: ~w~n", [iolist_to_binary(erlang:term_to_iovec({a, <<"bin">>, 1})) =:= term_to_binary({a, <<"bin">>, 1})]),
    io:format("long string: ~w~n", [binary:part(term_to_binary(lists:duplicate(70000, $a)), 0, 8)]),
    io:format("long list of ints: ~w~n", [binary:part(term_to_binary(lists:duplicate(70000, 300)), 0, 8)]),
    io:format("big binary: ~w~n", [binary:part(term_to_binary(binary:copy(<<"x">>, 300)), 0, 8)]),
    [io:format("bad option ~w: ~w~n", [O, try term_to_binary(x, O) catch Cl:E -> {Cl, E} end])
     || O <- [[{compressed, 10}], [{minor_version, 3}], [bogus], notalist]],
    ok.

%% The term as text, ASCII only (non-ASCII characters as \x{...}), huge integers abbreviated.
show(T) when is_integer(T), abs(T) > 1 bsl 200 ->
    io_lib:format("<integer of ~w bytes>", [byte_size(binary:encode_unsigned(abs(T)))]);
show(T) ->
    lists:flatmap(fun(C) when C > 127 -> io_lib:format("\\x{~.16B}", [C]);
                     (C) -> [C]
                  end, lists:flatten(io_lib:format("~P", [T, 12]))).
