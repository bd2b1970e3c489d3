-module(trace_pattern_mix).
-export([main/0, f/1, g/1]).

%% How global and local settings of the same functions interact (traced status per function
%% after each trace_pattern/3 call, plus its return value):
%%  - setting global (true) replaces local on the matched functions; this also clears local
%%    tracing of matched non-exported functions ({M,'_','_'}, or {M,h,'_'} / {M,h,1}
%%    which return 0),
%%    although only exported functions are counted;
%%  - setting local replaces global;
%%  - setting global to false leaves a local setting alone, and local false leaves global alone;
%%  - a global pattern never matches a non-exported function (returns 0);
%%  - the return value counts matched functions whether or not their state changed
%%    (local counts every function in the module, here 9 including module_info/0,1).
f(X) -> h(X).
g(X) -> X.
h(X) -> X.

main() ->
    state(),
    step({?MODULE, h, 1}, true, [local]),
    step({?MODULE, f, 1}, true, [global]),
    step({?MODULE, '_', '_'}, true, [global]),
    step({?MODULE, f, 1}, true, [local]),
    step({?MODULE, f, 1}, true, [global]),
    step({?MODULE, '_', '_'}, true, [local]),
    step({?MODULE, f, 1}, false, [global]),
    step({?MODULE, '_', '_'}, false, [global]),
    step({?MODULE, f, 1}, false, [local]),
    step({?MODULE, g, '_'}, true, []),
    step({?MODULE, g, 1}, false, [local]),
    step({?MODULE, h, '_'}, true, [global]),
    step({?MODULE, h, '_'}, false, [local]),
    step({?MODULE, h, 1}, true, [local]),
    step({?MODULE, h, 1}, true, [global]),
    step({?MODULE, '_', '_'}, false, [local]),
    step({?MODULE, g, 1}, [], [global]),
    step({?MODULE, '_', '_'}, false, []),
    ok.

step(MFA, MS, Flags) ->
    R = erlang:trace_pattern(MFA, MS, Flags),
    io:format("trace_pattern(~p, ~p, ~p) -> ~p~n", [MFA, MS, Flags, R]),
    state().

state() ->
    io:format("  f/1 ~p, g/1 ~p, h/1 ~p, main/0 ~p~n",
              [traced(f, 1), traced(g, 1), traced(h, 1), traced(main, 0)]).

traced(F, A) ->
    {traced, T} = erlang:trace_info({?MODULE, F, A}, traced),
    T.
