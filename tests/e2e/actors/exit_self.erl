-module(exit_self).
-export([main/0]).

%% exit/1 with normal and abnormal reasons, as seen by a monitor; exit/1 can be caught inside the
%% process; code after a caught exit keeps running; a function returning is a normal exit.
main() ->
    Reasons = [normal, shutdown, {shutdown, restart}, boom, {custom, [1, 2, 3]}, 42, "text", <<"bin">>],
    lists:foreach(fun(R) ->
                          io:format("exit(~p) -> DOWN ~p~n", [R, down_reason(fun() -> exit(R) end)])
                  end, Reasons),
    io:format("function returns -> DOWN ~p~n", [down_reason(fun() -> done end)]),
    io:format("exit in nested call -> DOWN ~p~n", [down_reason(fun() -> deep(5) end)]),
    io:format("caught exit, then exit(later) -> DOWN ~p~n",
              [down_reason(fun() ->
                                   caught = try exit(first) catch exit:first -> caught end,
                                   exit(later)
                           end)]),
    io:format("catch exit(x) in main: ~p~n", [catch exit(x)]),
    io:format("try exit(normal) in main: ~p~n", [try exit(normal) catch exit:W -> {caught, W} end]),
    %% exit/1 does not send anything to unrelated processes.
    Self = self(),
    {P, Ref} = spawn_monitor(fun() -> Self ! before_exit, exit(abnormal), Self ! after_exit end),
    receive {'DOWN', Ref, process, P, _} -> ok end,
    io:format("messages: ~p~n", [flush()]),
    ok.

deep(0) -> exit({deep, bottom});
deep(N) -> deep(N - 1), never.

down_reason(F) ->
    {P, Ref} = spawn_monitor(F),
    receive {'DOWN', Ref, process, P, Why} -> Why end.

flush() ->
    receive M -> [M | flush()] after 0 -> [] end.
