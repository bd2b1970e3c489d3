%% tests/e2e/mspec/ms_spec_test.erl — erlang:match_spec_test(Args, MS, trace): {ok, Result,
%% Flags, Warnings} where Result is false (no match), true (match, no message value) or the
%% {message, ...} value, and Flags lists return_trace/exception_trace; trace actions are not
%% performed (silent, enable_trace give true); {error, [{error, String}]} for invalid specs;
%% badarg for a non-list target or an unknown type; the 'table' type for comparison.
-module(ms_spec_test).
-export([main/0]).

main() ->
    t([a, b], [{['$1', '_'], [], [{message, '$1'}]}]),
    t([a, b], [{['$1', '$1'], [], []}]),
    t([a, a], [{['$1', '$1'], [], []}]),
    t([1, 2], [{['$1', '$2'], [{'>', '$1', '$2'}], [{message, gt}]}, {'_', [], [{message, other}]}]),
    t([a, b], [{['$1', b], [{is_atom, '$1'}], [{message, {{'$1', ok}}}]}]),
    t([a, b], [{'_', [], [{message, '$_'}]}]),
    t([a, b], [{'_', [], [{message, '$$'}]}]),
    t([a, b], [{['$2', '$1'], [], [{message, '$$'}]}]),
    t([a, b], [{'_', [], [{return_trace}]}]),
    t([a, b], [{'_', [], [{exception_trace}]}]),
    t([a, b], [{'_', [], [{return_trace}, {exception_trace}]}]),
    t([a, b], [{'_', [], [{return_trace}, {message, false}]}]),
    t([a, b], [{'_', [], [{message, true}]}]),
    t([a, b], [{[c, '_'], [], [{return_trace}]}]),
    t([a, b], [{'_', [], [{message, {caller}}]}]),
    t([a, b], [{'_', [], [{silent, true}]}]),
    t([a, b], [{'_', [], [{message, {enable_trace, send}}]}]),
    t([a, b], [{'_', [], [{message, {hd, '$_'}}]}]),
    t([a, b], [{'_', [{hd, foo}], []}]),
    t([a, b], [{'_', [], [{message, {hd, foo}}]}]),
    t([a, b], [{'_', [], [foo]}]),
    t([a, b], [{'_', [], []}]),
    t([a | b], [{'_', [], []}]),
    t([], [{[], [], [ok]}]),
    t([], [{'$1', [], [{message, '$1'}]}]),
    %% Self is the caller of match_spec_test.
    {ok, Self, [], []} = erlang:match_spec_test([x], [{'_', [], [{message, {self}}]}], trace),
    io:format("self: ~w~n", [Self =:= self()]),
    {ok, Dump, [], []} = erlang:match_spec_test([x], [{'_', [], [{message, {process_dump}}]}], trace),
    io:format("process_dump: ~w~n", [is_binary(Dump) andalso byte_size(Dump) > 6
                                      andalso element(1, split_binary(Dump, 6)) =:= <<"=proc:">>]),
    %% Errors.
    t([a, b], []),
    t([a, b], true),
    t([a, b], bad),
    t([a, b], [bad]),
    t([a, b], [{'_', []}]),
    t([a, b], [{'_', [], [{return_trace}]}, bad]),
    t([a, b], [{'_', [], [{foo}]}]),
    t([a, b], [{'_', [{foo, 1}], []}]),
    t([a, b], [{'$1', [], [{message, '$2'}]}]),
    t([a, b], [{'_', [{return_trace}], []}]),
    t({a, b}, [{['$1', b], [], []}]),
    t([a, b], [{['$1', '_'], [], ['$1']}], foo),
    %% The table dialect for comparison.
    t({a, b}, [{{'$1', '_'}, [], ['$1']}], table),
    t({a, b}, [{{'$1', '_'}, [], [{message, '$1'}]}], table),
    ok.

t(Args, MS) -> t(Args, MS, trace).

t(Args, MS, Type) ->
    R = try erlang:match_spec_test(Args, MS, Type) catch C:E -> {C, E} end,
    io:format("~w ~w ~w~n  -> ~p~n", [Type, Args, MS, R]).
