#!/usr/bin/env escript
%% tests/fuzz/make_seeds.escript DIR — writes the seed inputs of the binary_to_term, match_spec
%% and trace_pattern fuzz targets into DIR/<target>/ (the committed tests/fuzz/seeds were made
%% by it, with OTP 25's term_to_binary). Each seed is one file named after its index.
main([Dir]) ->
    Terms = terms(),
    write(Dir, "binary_to_term",
          [term_to_binary(T) || T <- Terms] ++
          [term_to_binary(T, [compressed]) || T <- lists:sublist(Terms, 8)] ++
          [term_to_binary(T, [{minor_version, 2}]) || T <- lists:sublist(Terms, 8)] ++
          [term_to_binary(T, [{minor_version, 0}]) || T <- [1.5, -0.0, 3.0e300]]),
    write(Dir, "match_spec",
          [<<(term_to_binary(Spec))/binary, (term_to_binary(Args))/binary>> || {Spec, Args} <- specs()]),
    write(Dir, "trace_pattern", [list_to_binary(P) || P <- patterns()]).

write(Dir, Target, Inputs) ->
    D = filename:join(Dir, Target),
    ok = filelib:ensure_dir(filename:join(D, "x")),
    lists:foldl(fun(Bin, N) ->
                        ok = file:write_file(filename:join(D, io_lib:format("seed~3..0w", [N])), Bin),
                        N + 1
                end, 1, Inputs).

terms() ->
    [0, 1, -1, 255, 256, 1 bsl 27, -(1 bsl 27), 1 bsl 59, 1 bsl 64, -(1 bsl 100), 1 bsl 2000,
     1.0, -2.5, 1.0e-300, atom, '', 'with space', 'ünïcödé', '\x{1F600}',
     [], [1, 2, 3], "string", [a | b], [[]], lists:seq(1, 300), {}, {a, b},
     list_to_tuple(lists:seq(1, 300)), <<>>, <<1, 2, 3>>, <<1:3>>, binary:copy(<<"x">>, 300),
     #{}, #{a => 1, b => [2]}, maps:from_list([{I, I} || I <- lists:seq(1, 40)]),
     self(), make_ref(), fun lists:map/2, fun(X) -> X + 1 end,
     {deep, [{nested, #{k => {1, [2, <<3>>]}}}, "text", 3.25]}].

specs() ->
    [{[{'_', [], [true]}], [1]},
     {[{['$1', '$2'], [{'>', '$1', '$2'}], [{message, '$1'}]}], [3, 2]},
     {[{['$1'], [{is_integer, '$1'}], [{return_trace}, {message, {caller}}]}], [7]},
     {[{[{ok, '$1'}, '_'], [{'=:=', {element, 1, {const, {a}}}, a}], ['$_']}], [{ok, 1}, x]},
     {[{'$1', [{'andalso', {is_list, '$1'}, {'>', {length, '$1'}, 1}}], [{exception_trace}]}], [1, 2]},
     {[{['$1'], [], [{set_seq_token, label, 3}, {get_seq_token}, {process_dump}]}], [x]},
     {[{['$1', '$1'], [], [{silent, true}, {trace, [send], []}, {display, '$1'}]}], [a, a]},
     {[{{'$1', '$2'}, [{'==', '$1', {const, 1.0}}], [{{'$2', '$1'}}]}], {1, 2}},
     {[{#{key => '$1'}, [], ['$$']}], #{key => v}},
     {[{['$1'], [{is_map_key, a, '$1'}], [{map_get, a, '$1'}]}], [#{a => 1}]},
     {[{'_', [], [{enable_trace, call}, {disable_trace, send}, {caller_line}]}], []},
     {[{[<<"bin">>, "str"], [{'orelse', {self}, false}], [{message, {self}}]}], [<<"bin">>, "str"]},
     {[{['$1'], [{'+', '$1', 1}], [{'bsl', '$1', 2}]}], [1]},
     {[{['$1'], [], [{hd, '$1'}, {tl, '$1'}, {abs, -1}, {float, 1}, {round, 1.5}]}], [[1, 2]]},
     {[bad_spec], []}, {[{'_', [x], []}], []}, {[{'$2', [], ['$3']}], []}].

patterns() ->
    ["bakery", "bakery:bake", "bakery:*", "bakery:bake/1", "bakery:bake(X) when X =/= bun -> return",
     "bakery:knead -> return", "lists:seq(1, N) when N > 3 -> caller, stack",
     "m:f(<<B:8, _/binary>>, #{k := V}, [H | T], {A, A}) when is_integer(H), V > 0 -> exception",
     "m:f(X) when element(1, X) == ok; X =:= 'quoted atom' -> return; caller",
     "m:f('$1', \"text\", 1.5e3, $a, 16#ff)", "bakery:bake(X", "m:f/", "m:", ":f", "m:f(X) -> nope"].
