-module(spawn_basic).
-export([main/0, worker/2, echo/0]).

%% spawn/1, spawn/3 and self(): pids are distinct, a child sees its own pid as self(),
%% closures carry their environment, spawn/3 calls an exported function with the arguments.
main() ->
    Self = self(),
    io:format("self() is a pid: ~p~n", [is_pid(Self)]),
    io:format("self() =:= self(): ~p~n", [Self =:= self()]),
    P1 = spawn(fun() -> Self ! {self(), closure, 6 * 7} end),
    io:format("spawn/1 returns a pid: ~p, not self: ~p~n", [is_pid(P1), P1 =/= Self]),
    receive {P1, closure, V1} -> io:format("spawn/1 result: ~p~n", [V1]) end,
    wait_dead(P1),
    P2 = spawn(?MODULE, worker, [Self, [1, 2, 3, 4]]),
    receive {P2, worker, V2} -> io:format("spawn/3 result: ~p~n", [V2]) end,
    wait_dead(P2),
    P3 = spawn(fun() -> Self ! {self_check, self()} end),
    receive {self_check, S3} -> io:format("child self() =:= spawn result: ~p~n", [S3 =:= P3]) end,
    wait_dead(P3),
    Ps = [spawn(fun() -> Self ! {res, N, N * N} end) || N <- lists:seq(1, 5)],
    io:format("5 distinct pids: ~p~n", [length(lists:usort([Self | Ps])) =:= 6]),
    Rs = [receive {res, N, Sq} -> Sq end || N <- lists:seq(1, 5)],
    io:format("closure results: ~p~n", [Rs]),
    lists:foreach(fun wait_dead/1, Ps),
    P4 = spawn(?MODULE, echo, []),
    P4 ! {Self, hello},
    P4 ! {Self, {nested, [1, 2], <<"bin">>}},
    R1 = receive {P4, E1} -> E1 end,
    R2 = receive {P4, E2} -> E2 end,
    io:format("echo: ~p ~p~n", [R1, R2]),
    io:format("echo alive: ~p~n", [is_process_alive(P4)]),
    P4 ! stop,
    wait_dead(P4),
    io:format("echo alive after stop: ~p~n", [is_process_alive(P4)]),
    P5 = spawn(erlang, length, [[a, b, c]]),
    wait_dead(P5),
    io:format("spawn of a BIF finished: ~p~n", [not is_process_alive(P5)]),
    ok.

worker(Parent, L) ->
    Parent ! {self(), worker, lists:sum(L) * length(L)}.

echo() ->
    receive
        {From, Msg} -> From ! {self(), Msg}, echo();
        stop -> ok
    end.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
