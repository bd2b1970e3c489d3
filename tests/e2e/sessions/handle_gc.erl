%% tests/e2e/sessions/handle_gc.erl — a session is destroyed, as if by session_destroy/1, when
%% the last copy of its strong handle is gone: here when the process holding it exits, and when
%% the process drops it and garbage collects. The weak handle does not keep it alive.
-module(handle_gc).
-export([main/0, f/1]).

f(X) -> X.

main() ->
    Self = self(),
    Tracer = spawn(fun() -> tracer(Self) end),
    scenario(Tracer, exit),
    scenario(Tracer, garbage_collect),
    Tracer ! stop,
    ok.

scenario(Tracer, How) ->
    Self = self(),
    Owner = spawn(fun() -> owner(Self, Tracer) end),
    Weak = receive {ready, W} -> W end,
    f(1),
    io:format("~p: while the handle lives: ~p~n", [How, receive {traced, C} -> C after 500 -> none end]),
    Owner ! How,
    io:format("~p: session: ~p~n", [How, wait_gone(100)]),
    f(2),
    io:format("~p: calls afterwards: ~p~n", [How, receive {traced, C2} -> C2 after 200 -> none end]),
    io:format("~p: weak handle: ~p~n",
              [How, try trace:process(Weak, self(), true, [call]) catch C3:R3 -> {C3, R3} end]),
    Owner ! stop.

owner(Main, Tracer) ->
    S = trace:session_create(owned, Tracer, []),
    1 = trace:process(S, Main, true, [call]),
    1 = trace:function(S, {?MODULE, f, 1}, true, [local]),
    {_, Weak} = S,
    Main ! {ready, Weak},
    receive
        exit -> ok;
        garbage_collect ->
            %% S is no longer used: a major collection finds it dead.
            true = erlang:garbage_collect(),
            receive stop -> ok end
    end.

tracer(Main) ->
    receive
        {trace, _, call, What} -> Main ! {traced, What}, tracer(Main);
        stop -> ok
    end.

wait_gone(0) -> still_there;
wait_gone(N) ->
    case trace:session_info(self()) of
        [] -> destroyed;
        _ -> timer:sleep(10), wait_gone(N - 1)
    end.
