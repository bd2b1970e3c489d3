%% tests/e2e/mspec/ms_invalid.erl — invalid match specs and options given to
%% erlang:trace_pattern/3 raise error:badarg and leave the existing pattern unchanged; some
%% odd-looking specs are accepted (a non-list head such as {a}, a head of the wrong length,
%% unknown flags in enable_trace, which are only checked when the action runs). The guard BIFs
%% is_boolean, is_bitstring, tuple_size, max, floor and the 2-arity is_function are not
%% supported in OTP 25 match specs (badarg).
-module(ms_invalid).
-export([main/0, f/1]).

f(X) -> X.

main() ->
    MFA = {?MODULE, f, 1},
    Good = [{['$1'], [{is_integer, '$1'}], [{message, ok}]}],
    1 = erlang:trace_pattern(MFA, Good, [local]),
    Bad = [42, bad, {a}, "str", [bad], [{'_', []}], [{'_', [], [], x}], [{'_', [], []} | x],
           [{foo, [], []}], [{'_', foo, []}], [{'_', [], foo}],
           [{'_', [], [{foo}]}], [{'_', [{foo, 1}], []}], [{'_', [{erlang, hd, '$1'}], []}],
           [{'$1', [], [{message, '$2'}]}], [{'_', [], ['$1']}], [{'_', [], [{{'$1'}}]}],
           [{'_', [], [{'$1'}]}], [{'_', [{return_trace}], []}], [{'_', [{message, x}], []}],
           [{'_', [{silent, true}], []}], [{'_', [{caller}], []}], [{'_', [{process_dump}], []}],
           [{'_', [], [{message}]}], [{'_', [], [{message, a, b}]}], [{'_', [], [{return_trace, x}]}],
           [{'_', [], [{silent}]}], [{'_', [], [{hd}]}], [{'_', [], [{hd, a, b}]}],
           [{['$1'], [{'+', '$1'}, {'+', '$1', 1, 2}], []}],
           %% Not available in OTP 25 match specs:
           [{['$1'], [{is_boolean, '$1'}], []}], [{['$1'], [{is_bitstring, '$1'}], []}],
           [{['$1'], [{tuple_size, '$1'}], []}], [{['$1'], [{max, '$1', 1}], []}],
           [{['$1'], [{floor, '$1'}], []}], [{['$1'], [{is_function, '$1', 1}], []}]],
    [show(MS, [local], try_tp(MFA, MS, [local])) || MS <- Bad],
    io:format("pattern kept: ~w~n", [erlang:trace_info(MFA, match_spec) =:= {match_spec, Good}]),
    %% Accepted although they can never do anything useful.
    Odd = [[{{a}, [], []}], [{[a, b], [], []}], [{[], [], []}], [{'_', [], [{enable_trace, foo}]}],
           [{'_', [], [{trace, [foo], []}]}], [{'_', [], ['$_']}], [{'_', [], [{{}}]}], []],
    [show(MS, [local], try_tp(MFA, MS, [local])) || MS <- Odd],
    %% Bad options and match specs with counters.
    [show(MS, Opts, try_tp(MFA, MS, Opts))
     || {MS, Opts} <- [{true, [foo]}, {true, foo}, {true, [local | x]}, {true, [{meta, notapid}]},
                       {true, [global, local]}, {true, [global, meta]}, {true, [global, call_count]},
                       {Good, [call_count]}, {Good, [call_time]},
                       {Good, [local, call_count]}]],
    %% Bad MFA patterns.
    [show(M, [], try_tp(M, true, []))
     || M <- [{?MODULE, f}, {?MODULE, f, a}, {"m", f, 1}, {'_', f, 1}, {?MODULE, '_', 1},
              {?MODULE, f, -1}, {no_such_module, f, 1}, {?MODULE, no_such_function, 1}]],
    ok.

try_tp(MFA, MS, Opts) ->
    try erlang:trace_pattern(MFA, MS, Opts) of
        N -> {returned, N}
    catch
        C:R -> {C, R}
    end.

show(MS, Opts, R) -> io:format("~w ~w -> ~w~n", [MS, Opts, R]).
