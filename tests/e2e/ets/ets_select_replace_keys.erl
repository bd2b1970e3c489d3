%% Which select_replace specs keep the key (else badarg), as OTP decides it before running,
%% and next/prev of '$end_of_table' in an ordered_set.
-module(ets_select_replace_keys).
-export([main/0]).

specs() ->
    [[{{'$1', '$2'}, [], ['$_']}],
     [{{'$1', '$2'}, [], [{{'$1', x}}]}],
     [{{'$1', '$2'}, [], [{{'$2', x}}]}],
     [{{'_', '$2'}, [], [{{'_', x}}]}],
     [{{{'$1', '$3'}, '$2'}, [], [{{{{'$1', '$3'}}, [$x | '$2'], stuff}}]}],
     [{{{'$1', '$3'}, '$2'}, [], [{{{'$1', '$3'}, '$2'}}]}],
     [{{k1, '$2'}, [], [{{k1, y}}]}],
     [{{k1, '$2'}, [], [{{{const, k1}, y}}]}],
     [{{k1, '$2'}, [], [{const, {k1, z}}]}],
     [{{'$1', '$2'}, [], [{const, {'$1', z}}]}],
     [{{'$1', '$2'}, [], [{{{element, 1, '$_'}, w}}]}],
     [{{'$1', '$2'}, [], [{{{element, 2, '$_'}, w}}]}],
     [{{[a | '$1'], '$2'}, [], [{{[a | '$1'], v}}]}],
     [{{#{a => '$1'}, '$2'}, [], [{{#{a => '$1'}, v}}]}],
     [{{'$1', '$2'}, [], [{{'$1', x}}, {{'$1', y}}]}],
     [{{'$1', '$2'}, [], [{'$1', x}]}],
     [{'$1', [], [{{'$1'}}]}],
     [{{'$1', '$2'}, [], [{{{float, '$1'}, x}}]}],
     [{{2.5, '$2'}, [], [{{2.5, f}}]}]].

main() ->
    lists:foreach(
      fun(Type) ->
              lists:foreach(
                fun(Spec) ->
                        T = ets:new(t, [Type]),
                        ets:insert(T, [{k1, a}, {{p, q}, b}, {[a, b], c}, {2.5, d}, {#{a => 1}, e}]),
                        R = try ets:select_replace(T, Spec)
                            catch error:badarg -> badarg end,
                        io:format("~p ~p: ~p ~p~n", [Type, Spec, R, lists:sort(ets:tab2list(T))]),
                        ets:delete(T)
                end, specs())
      end, [set, ordered_set]),
    O = ets:new(o, [ordered_set]),
    ets:insert(O, [{1}, {a}]),
    [io:format("~p ~p~n", [F, try ets:F(O, '$end_of_table') catch error:E -> E end]) || F <- [next, prev]],
    io:format("from absent key ~p ~p~n", [ets:next(O, 0), ets:prev(O, b)]).
