%% tests/e2e/sessions/session_info.erl — trace:session_info/1 names the sessions that trace a
%% process, new processes or a function (weak handles {Name, Id}); none after session_destroy/1.
-module(session_info).
-export([main/0, f/1]).
f(X) -> X.
main() ->
  T = spawn(fun() -> receive stop -> ok end end),
  S = trace:session_create(info_demo, T, []),
  io:format("~p~n", [trace:session_info(self())]),
  1 = trace:process(S, self(), true, [call]),
  L = trace:session_info(self()),
  io:format("~p~n", [[N || {N, _} <- L]]),
  0 = trace:process(S, new, true, [call]),
  L2 = trace:session_info(new),
  io:format("~p~n", [[N || {N, _} <- L2]]),
  1 = trace:function(S, {session_info, f, 1}, true, [local]),
  L3 = trace:session_info({session_info, f, 1}),
  io:format("~p~n", [[N || {N, _} <- L3]]),
  io:format("~p~n", [trace:session_info(on_load)]),
  true = trace:session_destroy(S),
  io:format("~p~n", [trace:session_info(self())]),
  T ! stop.
