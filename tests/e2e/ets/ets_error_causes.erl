%% tests/e2e/ets/ets_error_causes.erl — the cause erts puts in a bad ETS call's error_info (what
%% the shell's "*** argument 1: ..." lines come from), as erl 25 gives it: the table is checked
%% before the other arguments (a bad table wins over a bad limit, option or pid), a plain
%% reference is not a table identifier (type) while a deleted table's is (id), and
%% update_counter/update_element/select_replace name the key position, a position past the
%% object, or a table of the wrong type.
-module(ets_error_causes).
-export([main/0]).

main() ->
    T = ets:new(t, [set, private]),
    ets:insert(T, {one, 1, 2}),
    Bag = ets:new(b, [bag]),
    Dead = ets:new(d, [set]),
    ets:delete(Dead),
    Plain = make_ref(),
    Calls = [{select, [Plain, [], 0]},
             {select, [Dead, bad_spec, bad_limit]},
             {match, [Dead, '_', 0]},
             {lookup, [Plain, k]},
             {lookup, [Dead, k]},
             {lookup, [{not_a, table}, k]},
             {info, [Plain]},
             {info, [Plain, size]},
             {delete, [Plain]},
             {rename, [Dead, {bad, name}]},
             {safe_fixtable, [Dead, maybe]},
             {setopts, [Dead, bad_opts]},
             {give_away, [T, self(), gift]},
             {give_away, [T, not_a_pid, gift]},
             {update_counter, [T, one, {1, 5}]},
             {update_counter, [T, one, {4, 5}]},
             {update_counter, [T, one, {4, bad}]},
             {update_counter, [T, none, 1]},
             {update_counter, [T, none, {1, 42}, {none, 0}]},
             {update_counter, [T, none, {3, 42}, {none, 0}]},
             {update_counter, [Dead, none, 1, not_a_tuple]},
             {update_counter, [Bag, k, 1]},
             {update_element, [T, one, {1, x}]},
             {update_element, [T, one, {9, x}]},
             {select_replace, [Bag, [{{'$1', '$2'}, [], [{{'$1', '$2'}}]}]]}],
    [io:format("~w/~w: ~w~n", [F, length(A), cause(F, A)]) || {F, A} <- Calls],
    Other = spawn(fun() -> receive stop -> ok end end),
    Mine = self(),
    spawn(fun() -> Mine ! {from_other, [cause(F, A) || {F, A} <- [{select, [T, [], 0]}, {give_away, [T, Other, x]},
                                                                   {setopts, [T, bad]}]]} end),
    receive {from_other, Causes} -> io:format("from another process: ~w~n", [Causes]) end,
    Other ! stop,
    ok.

cause(F, A) ->
    try apply(ets, F, A) of
        R -> {returned, R}
    catch error:Reason:Stack ->
        [{ets, F, _, Info} | _] = Stack,
        ErrorInfo = proplists:get_value(error_info, Info, #{}),
        {Reason, maps:get(cause, ErrorInfo, none)}
    end.
