%% tests/e2e/trace/trace_call_count.erl — call_count patterns: counting every call (local and
%% remote, any process), pause, restart, true again, coexisting with local call tracing, cleared
%% by a global pattern, removed by false.
-module(trace_call_count).
-export([main/0, f/1, g/1]).
f(X) -> g(X).
g(X) -> X.
main() ->
  io:format("~p~n", [erlang:trace_pattern({trace_call_count, f, 1}, true, [call_count])]),
  io:format("~p~n", [erlang:trace_info({trace_call_count, f, 1}, call_count)]),
  [trace_call_count:f(I) || I <- lists:seq(1, 5)],
  [f(I) || I <- lists:seq(1, 3)],
  io:format("~p~n", [erlang:trace_info({trace_call_count, f, 1}, call_count)]),
  io:format("~p~n", [erlang:trace_info({trace_call_count, f, 1}, all)]),
  io:format("~p~n", [erlang:trace_info({trace_call_count, f, 1}, traced)]),
  io:format("~p~n", [erlang:trace_pattern({trace_call_count, f, 1}, pause, [call_count])]),
  [f(I) || I <- lists:seq(1, 3)],
  io:format("~p~n", [erlang:trace_info({trace_call_count, f, 1}, call_count)]),
  io:format("~p~n", [erlang:trace_pattern({trace_call_count, f, 1}, restart, [call_count])]),
  io:format("~p~n", [erlang:trace_info({trace_call_count, f, 1}, call_count)]),
  [f(I) || I <- lists:seq(1, 2)],
  io:format("~p~n", [erlang:trace_info({trace_call_count, f, 1}, call_count)]),
  io:format("~p~n", [erlang:trace_pattern({trace_call_count, f, 1}, true, [call_count])]),
  io:format("~p~n", [erlang:trace_info({trace_call_count, f, 1}, call_count)]),
  io:format("~p~n", [erlang:trace_pattern({trace_call_count, '_', '_'}, true, [local])]),
  io:format("~p~n", [erlang:trace_info({trace_call_count, f, 1}, all)]),
  io:format("~p~n", [erlang:trace_pattern({trace_call_count, f, 1}, true, [global])]),
  io:format("~p~n", [erlang:trace_info({trace_call_count, f, 1}, all)]),
  io:format("~p~n", [erlang:trace_pattern({trace_call_count, f, 1}, false, [call_count])]),
  io:format("~p~n", [erlang:trace_info({trace_call_count, f, 1}, call_count)]).
