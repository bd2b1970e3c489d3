-module(yield_processes).
-export([main/0]).

%% erlang:yield/0 returns true and lets other processes run; processes/0 lists live processes,
%% including self() and a waiting child, and no longer lists a process once it is dead;
%% is_process_alive/1.
main() ->
    Self = self(),
    io:format("yield: ~p~n", [erlang:yield()]),
    Ps = processes(),
    io:format("processes() is a list of pids: ~p~n", [is_list(Ps) andalso lists:all(fun is_pid/1, Ps)]),
    io:format("contains self(): ~p~n", [lists:member(Self, Ps)]),
    C = spawn(fun() -> receive stop -> ok end end),
    io:format("contains a waiting child: ~p~n", [lists:member(C, processes())]),
    io:format("child alive: ~p~n", [is_process_alive(C)]),
    Ref = monitor(process, C),
    C ! stop,
    receive {'DOWN', Ref, process, C, _} -> ok end,
    io:format("child listed after exit: ~p~n", [lists:member(C, processes())]),
    io:format("child alive after exit: ~p~n", [is_process_alive(C)]),
    %% Two processes cooperating through yield: each bumps a shared count via messages.
    Counter = spawn(fun() -> counter(0) end),
    Ws = [spawn_monitor(fun() -> [begin Counter ! inc, erlang:yield() end || _ <- lists:seq(1, 1000)] end)
          || _ <- [1, 2]],
    [receive {'DOWN', R, process, P, normal} -> ok end || {P, R} <- Ws],
    Counter ! {get, Self},
    io:format("count after yields: ~p~n", [receive {count, N} -> N end]),
    wait_dead(Counter),
    %% A busy process that yields does not stop main from running.
    Busy = spawn(fun() -> spin(Self) end),
    Busy ! {main_says, hi},
    io:format("busy answered: ~p~n", [receive {busy, M} -> M end]),
    Busy ! stop,
    wait_dead(Busy),
    ok.

counter(N) ->
    receive
        inc -> counter(N + 1);
        {get, From} -> From ! {count, N}
    end.

spin(Main) ->
    erlang:yield(),
    receive
        {main_says, X} -> Main ! {busy, X}, spin(Main);
        stop -> ok
    after 0 -> spin(Main)
    end.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
