%% tests/e2e/trace/trace_on_load.erl — trace_pattern(on_load, ...): the pattern is applied to
%% every function of modules loaded afterwards (local: all calls, global: calls through
%% exports); the call returns 0; trace_info(on_load, ...) reports it.
-module(trace_on_load).
-export([main/0]).

main() ->
    Self = self(),
    Tracer = spawn(fun() -> collect(Self, []) end),
    1 = erlang:trace(self(), true, [call, {tracer, Tracer}]),
    io:format("on_load local: ~p~n", [erlang:trace_pattern(on_load, true, [local])]),
    io:format("info: ~p ~p~n", [erlang:trace_info(on_load, traced), erlang:trace_info(on_load, match_spec)]),
    false = erlang:module_loaded(trace_on_load_mod),
    io:format("result: ~p~n", [trace_on_load_mod:g(5)]),
    io:format("g/1: ~p~n", [erlang:trace_info({trace_on_load_mod, g, 1}, traced)]),
    io:format("calls: ~p~n", [calls(Tracer)]),
    io:format("on_load off: ~p~n", [erlang:trace_pattern(on_load, false, [local])]),
    io:format("info: ~p~n", [erlang:trace_info(on_load, all)]),
    Tracer ! stop,
    ok.

calls(Tracer) ->
    timer:sleep(50),
    Tracer ! {get, self()},
    receive {calls, L} -> L end.

collect(Main, Acc) ->
    receive
        %% Only the module loaded here: erl also loads (and so traces) io and timer lazily.
        {trace, _, call, {trace_on_load_mod, F, A}} -> collect(Main, [{F, A} | Acc]);
        {trace, _, call, _} -> collect(Main, Acc);
        {get, From} -> From ! {calls, lists:reverse(Acc)}, collect(Main, []);
        stop -> ok
    end.
