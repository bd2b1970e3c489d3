%% tests/e2e/mspec/ms_trace_info_spec.erl — trace_info(MFA, match_spec) returns the match spec
%% exactly as given to trace_pattern (true gives [], a later pattern replaces it, false gives
%% false, an unknown function undefined), for local and global patterns, for all functions
%% matched by a wildcard pattern, and together with traced / all; a global pattern with a spec
%% is reported under 'global'.
-module(ms_trace_info_spec).
-export([main/0, f/1, g/2, h/0]).

f(X) -> X.
g(X, Y) -> {X, Y}.
h() -> ok.

main() ->
    F = {?MODULE, f, 1},
    Specs = [true, [],
             [{'_', [], []}],
             [{['$1'], [{is_integer, '$1'}, {'>', '$1', {const, 3}}], [{message, {{'$1', '$_', '$$'}}}, {return_trace}]}],
             [{[{a, '$1'}], [], [{message, #{k => '$1'}}]}, {[[x | '_']], [], [{message, "str"}]}],
             [{['$1'], [{'orelse', {is_binary, '$1'}, {'==', '$1', <<"bin">>}}], [{exception_trace}, {caller}]}],
             [{'$1', [], [{silent, false}, {enable_trace, send}, {trace, [], [call]}]}, {'_', [], [{message, false}]}]],
    [begin
         1 = erlang:trace_pattern(F, MS, [local]),
         {match_spec, Got} = erlang:trace_info(F, match_spec),
         io:format("~w -> ~w same=~w ~w~n", [MS, Got, Got =:= MS, erlang:trace_info(F, traced)])
     end || MS <- Specs],
    GS = [{['$1', '$2'], [{'=:=', '$1', '$2'}], [{message, same}]}],
    1 = erlang:trace_pattern({?MODULE, g, 2}, GS, [global]),
    io:format("global g: ~w ~w~n", [erlang:trace_info({?MODULE, g, 2}, match_spec),
                                     erlang:trace_info({?MODULE, g, 2}, traced)]),
    io:format("global g all: ~w~n", [erlang:trace_info({?MODULE, g, 2}, all)]),
    1 = erlang:trace_pattern({?MODULE, g, 2}, false, [global]),
    io:format("g off: ~w ~w ~w~n", [erlang:trace_info({?MODULE, g, 2}, match_spec),
                                    erlang:trace_info({?MODULE, g, 2}, traced),
                                    erlang:trace_info({?MODULE, g, 2}, all)]),
    %% A wildcard pattern gives every function the same spec.
    WS = [{'_', [], [{return_trace}]}],
    N = erlang:trace_pattern({?MODULE, '_', '_'}, WS, [local]),
    io:format("wildcard count ok: ~w~n", [N =:= length(?MODULE:module_info(functions))]),
    io:format("wildcard: ~w~n", [[erlang:trace_info({?MODULE, Fn, A}, match_spec) =:= {match_spec, WS}
                                  || {Fn, A} <- [{f, 1}, {g, 2}, {h, 0}, {main, 0}]]]),
    1 = erlang:trace_pattern({?MODULE, h, 0}, [{[], [], [{message, only_h}]}], [local]),
    io:format("h: ~w f: ~w~n", [erlang:trace_info({?MODULE, h, 0}, match_spec),
                                erlang:trace_info(F, match_spec)]),
    _ = erlang:trace_pattern({?MODULE, '_', '_'}, false, [local]),
    io:format("off: ~w ~w~n", [erlang:trace_info(F, match_spec), erlang:trace_info(F, traced)]),
    io:format("unknown function: ~w ~w ~w~n", [erlang:trace_info({?MODULE, nope, 7}, match_spec),
                                               erlang:trace_info({?MODULE, nope, 7}, traced),
                                               erlang:trace_info({?MODULE, nope, 7}, all)]),
    io:format("unknown module: ~w~n", [erlang:trace_info({no_such_mod, f, 1}, match_spec)]),
    ok.
