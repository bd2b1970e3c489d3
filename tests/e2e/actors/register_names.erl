-module(register_names).
-export([main/0]).

%% register/2, unregister/1, whereis/1, registered/0 (filtered to our own names), the badarg
%% cases, is_process_alive/1, and a name being freed when its process dies.
-define(MINE, [rn_alpha, rn_beta, rn_gamma, rn_main]).

main() ->
    Self = self(),
    io:format("initially: ~p~n", [mine()]),
    P1 = spawn(fun loop/0),
    P2 = spawn(fun loop/0),
    io:format("register alpha: ~p~n", [register(rn_alpha, P1)]),
    io:format("register beta: ~p~n", [register(rn_beta, P2)]),
    io:format("register main: ~p~n", [register(rn_main, Self)]),
    io:format("registered: ~p~n", [mine()]),
    io:format("whereis alpha is P1: ~p~n", [whereis(rn_alpha) =:= P1]),
    io:format("whereis main is self: ~p~n", [whereis(rn_main) =:= Self]),
    io:format("whereis unknown: ~p~n", [whereis(rn_unknown)]),
    io:format("same name twice: ~p~n", [catch_err(fun() -> register(rn_alpha, P2) end)]),
    io:format("second name for a pid: ~p~n", [catch_err(fun() -> register(rn_gamma, P1) end)]),
    io:format("register undefined: ~p~n", [catch_err(fun() -> register(undefined, P2) end)]),
    io:format("register non-atom: ~p~n", [catch_err(fun() -> register("str", P1) end)]),
    io:format("unregister beta: ~p~n", [unregister(rn_beta)]),
    io:format("whereis beta: ~p~n", [whereis(rn_beta)]),
    io:format("unregister again: ~p~n", [catch_err(fun() -> unregister(rn_beta) end)]),
    io:format("register P2 under a new name: ~p~n", [register(rn_gamma, P2)]),
    io:format("registered: ~p~n", [mine()]),
    io:format("alive: ~p ~p~n", [is_process_alive(P1), is_process_alive(Self)]),
    P1 ! stop,
    wait_dead(P1),
    io:format("alive after stop: ~p~n", [is_process_alive(P1)]),
    io:format("name freed on exit: ~p ~p~n", [whereis(rn_alpha), mine()]),
    io:format("register dead pid: ~p~n", [catch_err(fun() -> register(rn_alpha, P1) end)]),
    io:format("reuse freed name: ~p~n", [register(rn_alpha, spawn_loop())]),
    rn_alpha ! {Self, ping},
    io:format("reply via new name: ~p~n", [receive pong -> pong end]),
    unregister(rn_main),
    io:format("is_process_alive non-pid: ~p~n", [catch_err(fun() -> is_process_alive(rn_gamma) end)]),
    stop(rn_alpha),
    stop(rn_gamma),
    io:format("finally: ~p~n", [mine()]),
    ok.

spawn_loop() -> spawn(fun loop/0).

loop() ->
    receive
        {From, ping} -> From ! pong, loop();
        stop -> ok
    end.

stop(Name) ->
    P = whereis(Name),
    P ! stop,
    wait_dead(P).

mine() -> lists:sort([N || N <- registered(), lists:member(N, ?MINE)]).

catch_err(F) -> try F() catch C:R -> {C, R} end.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
