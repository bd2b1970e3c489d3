%% tests/e2e/bif/system_tasks.erl — process_info/1 and system task requests as OTP 25 gives
%% them: process_info/1 of a registered process starts with {registered_name, Name} (left out
%% when it has none), of itself and of another; erts_internal:request_system_task/3 with OTP's
%% test task ({system_task_test, ReqId}: {system_task_test, ReqId, true} once handled, false
%% from a dead process, at every priority) and the requests it refuses (badarg: a collection
%% without its type, an unknown task, a malformed request).
-module(system_tasks).
-export([main/0]).

main() ->
    P = spawn(fun() -> receive _ -> ok end end),
    register(system_tasks_target, P),
    Q = spawn(fun() -> receive _ -> ok end end),
    io:format("named: ~p~n", [[K || {K, _} <- process_info(P)]]),
    io:format("name: ~p~n", [hd(process_info(P))]),
    io:format("unnamed: ~p~n", [[K || {K, _} <- process_info(Q)]]),
    io:format("self: ~p~n", [[K || {K, _} <- process_info(self())]]),
    register(system_tasks_main, self()),
    io:format("self named: ~p~n", [hd(process_info(self()))]),
    Self = self(),
    Prios = [low, normal, high, max, inherit],
    io:format("requests: ~p~n",
              [[erts_internal:request_system_task(T, Pr, {system_task_test, {T =:= Self, Pr}})
                || T <- [Self, P], Pr <- Prios]]),
    io:format("answers: ~p~n", [lists:sort([receive {system_task_test, _, _} = M -> M end
                                            || _ <- lists:seq(1, 2 * length(Prios))])]),
    Dead = spawn(fun() -> ok end),
    Ref = monitor(process, Dead),
    receive {'DOWN', Ref, process, Dead, _} -> ok end,
    ok = erts_internal:request_system_task(Dead, normal, {system_task_test, dead}),
    receive {system_task_test, dead, _} = D -> io:format("dead: ~p~n", [D]) end,
    Bad = [{garbage_collect, r}, {garbage_collect, r, x}, {check_process_code, r, "m"}, {foo, r},
           {system_task_test}, {system_task_test, a, b, c, d}, system_task_test],
    io:format("refused: ~p~n",
              [[error_of(fun() -> erts_internal:request_system_task(Self, normal, R) end) || R <- Bad]]),
    io:format("bad priority: ~p~n",
              [error_of(fun() -> erts_internal:request_system_task(Self, urgent, {system_task_test, r}) end)]),
    io:format("gc: ~p~n", [erts_internal:request_system_task(P, normal, {garbage_collect, gc, minor})]),
    receive {garbage_collect, gc, G} -> io:format("gc answer: ~p~n", [G]) end,
    ok.

error_of(F) ->
    try F() catch error:E -> E end.
