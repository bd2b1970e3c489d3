%% tests/e2e/ets/ets_match_spec.erl — match specs outside tables and built with fun2ms:
%% ets:match_spec_compile/1 + ets:match_spec_run/2 (the compiled form is not printed; its
%% is_compiled_ms/1 is), ets:test_ms/2 ({ok, Result} with false for no match, {error, _} for an
%% invalid spec), ets:fun2ms/1 via the ms_transform parse transform (the spec itself is printed,
%% it is fixed at compile time) used with select/2, select_count/2, select_delete/2 and
%% select_replace/2; match_spec_compile of an invalid spec is badarg.
-module(ets_match_spec).
-export([main/0]).
-include_lib("stdlib/include/ms_transform.hrl").

main() ->
    MS = [{{'$1', '$2'}, [{'>', '$2', 1}], [{{'$2', '$1'}}]}],
    C = ets:match_spec_compile(MS),
    io:format("is_compiled_ms: ~w ~w~n", [ets:is_compiled_ms(C), ets:is_compiled_ms(MS)]),
    io:format("match_spec_run: ~w~n",
              [ets:match_spec_run([{a, 1}, {b, 2}, {c, 3}, not_a_tuple, {d}], C)]),
    io:format("match_spec_run empty: ~w~n", [ets:match_spec_run([], C)]),
    C2 = ets:match_spec_compile([{'$1', [{is_atom, '$1'}], [{{atom, '$1'}}]},
                                 {'$1', [{is_integer, '$1'}], [{'*', '$1', 10}]}]),
    io:format("match_spec_run clauses: ~w~n", [ets:match_spec_run([x, 3, "s", y, 4.0], C2)]),
    io:format("compile bad: ~w~n",
              [try_op(fun() -> ets:match_spec_compile([{'_', [{foo, 1}], []}]) end)]),
    io:format("compile not list: ~w~n", [try_op(fun() -> ets:match_spec_compile(foo) end)]),
    %% test_ms
    io:format("test_ms match: ~w~n", [ets:test_ms({a, 5}, MS)]),
    io:format("test_ms no match: ~w~n", [ets:test_ms({a, 0}, MS)]),
    io:format("test_ms '$_': ~w~n", [ets:test_ms({k, [1, 2]}, [{{k, '_'}, [], ['$_']}])]),
    io:format("test_ms '$$': ~w~n", [ets:test_ms({k, 1, 2}, [{{k, '$1', '$2'}, [], ['$$']}])]),
    io:format("test_ms constant body: ~w~n", [ets:test_ms(x, [{'_', [], [{const, {a, b}}]}])]),
    {error, Errs} = ets:test_ms({a, 1}, [{'_', [{bad_fun, '$1'}], ['$_']}]),
    io:format("test_ms invalid: error with a non-empty list: ~w~n", [is_list(Errs) andalso Errs =/= []]),
    io:format("test_ms guard bifs: ~w~n",
              [ets:test_ms({3, [a, b, c], <<1, 2>>},
                           [{{'$1', '$2', '$3'},
                             [{is_list, '$2'}, {'==', {length, '$2'}, '$1'},
                              {'==', {byte_size, '$3'}, 2}],
                             [{{{hd, '$2'}, {tl, '$2'}, {element, 1, {{'$1'}}},
                                {size, {{'$1', '$1'}}}, {'band', '$1', 2},
                                {'div', '$1', 2}, {abs, {'-', '$1', 10}}}}]}])]),
    io:format("test_ms orelse/not: ~w ~w~n",
              [ets:test_ms(5, [{'$1', [{'orelse', {'<', '$1', 0}, {'not', {'<', '$1', 3}}}], [yes]}]),
               ets:test_ms(1, [{'$1', [{'orelse', {'<', '$1', 0}, {'not', {'<', '$1', 3}}}], [yes]}])]),
    %% fun2ms
    F1 = ets:fun2ms(fun({K, V}) when V > 10 -> {V, K} end),
    io:format("fun2ms 1: ~w~n", [F1]),
    F2 = ets:fun2ms(fun({K, V, _}) when is_atom(K), V =/= 0 -> K end),
    io:format("fun2ms 2: ~w~n", [F2]),
    F3 = ets:fun2ms(fun(X) -> X end),
    io:format("fun2ms 3: ~w~n", [F3]),
    F4 = ets:fun2ms(fun({K, _}) when K < 3 -> true; ({K, _}) when K > 8 -> true end),
    io:format("fun2ms 4: ~w~n", [F4]),
    Lim = 5,
    F5 = ets:fun2ms(fun({K, V}) when K >= Lim -> {K, V * 2} end),
    io:format("fun2ms with bound var: ~w~n", [F5]),
    F6 = ets:fun2ms(fun({K, V}) when K == 2 -> {K, [V, V]} end),
    io:format("fun2ms 6: ~w~n", [F6]),
    T = ets:new(t, [ordered_set]),
    true = ets:insert(T, [{I, I * 3} || I <- lists:seq(1, 10)]),
    io:format("select F1: ~w~n", [ets:select(T, F1)]),
    io:format("select F3: ~w~n", [ets:select(T, F3)]),
    io:format("select F5: ~w~n", [ets:select(T, F5)]),
    io:format("select_count F4: ~w~n", [ets:select_count(T, F4)]),
    io:format("select_replace F6: ~w -> ~w~n", [ets:select_replace(T, F6), ets:lookup(T, 2)]),
    io:format("select_delete F4: ~w -> ~w~n", [ets:select_delete(T, F4), ets:tab2list(T)]),
    io:format("match_spec_run fun2ms: ~w~n",
              [ets:match_spec_run([{1, 20}, {2, 5}, {3, 30}], ets:match_spec_compile(F1))]),
    ok.

try_op(F) ->
    try F() catch C:E -> {error, C, E} end.
