%% tests/e2e/sessions/isolation.erl — two sessions trace the same process and function: each
%% tracer gets its own messages; destroying one session leaves the other's settings in place;
%% the legacy API is a session of its own.
-module(isolation).
-export([main/0, f/1]).

main() ->
    Self = self(),
    T1 = spawn(fun() -> collector(Self, t1, []) end),
    T2 = spawn(fun() -> collector(Self, t2, []) end),
    S1 = trace:session_create(one, T1, []),
    S2 = trace:session_create(two, T2, []),
    1 = trace:process(S1, self(), true, [call]),
    1 = trace:process(S2, self(), true, [call, arity]),
    io:format("function one: ~p~n", [trace:function(S1, {?MODULE, f, 1}, true, [global])]),
    io:format("function two: ~p~n", [trace:function(S2, {?MODULE, f, 1}, [], [local])]),
    io:format("info one: ~p~n", [trace:info(S1, {?MODULE, f, 1}, traced)]),
    io:format("info two: ~p~n", [trace:info(S2, {?MODULE, f, 1}, traced)]),
    io:format("legacy: ~p~n", [erlang:trace_info({?MODULE, f, 1}, traced)]),
    ?MODULE:f(1),
    f(2),
    io:format("destroy one: ~p~n", [trace:session_destroy(S1)]),
    ?MODULE:f(3),
    io:format("t1 got ~p~n", [result(T1)]),
    io:format("t2 got ~p~n", [result(T2)]),
    io:format("destroy two: ~p~n", [trace:session_destroy(S2)]),
    io:format("process/4 on a destroyed session: ~p~n",
              [try trace:process(S2, self(), true, [call]) catch C:R -> {C, R} end]),
    ok.

f(X) -> X.

collector(Main, Name, Acc) ->
    receive
        {result, Main} -> Main ! {Name, lists:reverse(Acc)};
        {trace, _Pid, call, What} -> collector(Main, Name, [What | Acc])
    end.

result(T) ->
    timer:sleep(50),
    T ! {result, self()},
    receive {_, L} -> L end.
