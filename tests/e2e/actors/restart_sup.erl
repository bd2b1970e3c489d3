-module(restart_sup).
-export([main/0]).

%% A hand-written supervisor: it traps exits, starts a linked worker, restarts it when it crashes,
%% and gives up after 3 restarts. A worker that exits normally is not restarted. The supervisor
%% sends its log to main, which prints it.
-define(MAX_RESTARTS, 3).

main() ->
    Self = self(),
    %% Worker that always crashes: started once + 3 restarts, then the supervisor gives up.
    {S1, R1} = spawn_monitor(fun() -> sup(Self, fun() -> crashing_worker() end) end),
    print_log(S1),
    io:format("supervisor 1 exit: ~p~n", [receive {'DOWN', R1, process, S1, W1} -> W1 end]),
    %% Worker that crashes twice, then finishes normally: no give-up.
    Counter = spawn(fun() -> counter(0) end),
    {S2, R2} = spawn_monitor(fun() -> sup(Self, fun() -> flaky_worker(Counter) end) end),
    print_log(S2),
    io:format("supervisor 2 exit: ~p~n", [receive {'DOWN', R2, process, S2, W2} -> W2 end]),
    Counter ! stop,
    wait_dead(Counter),
    %% Killing the supervisor takes its worker down too (the link), with reason killed.
    {S3, R3} = spawn_monitor(fun() -> sup(Self, fun() -> receive never -> ok end end) end),
    W3 = receive {S3, log, {started, 1, Pid}} -> Pid end,
    RW3 = monitor(process, W3),
    exit(S3, kill),
    io:format("supervisor 3 exit: ~p~n", [receive {'DOWN', R3, process, S3, X3} -> X3 end]),
    io:format("its worker: ~p~n", [receive {'DOWN', RW3, process, W3, Y3} -> Y3 end]),
    ok.

sup(Main, WorkerFun) ->
    process_flag(trap_exit, true),
    supervise(Main, WorkerFun, 1, 0).

supervise(Main, WorkerFun, Start, Restarts) ->
    W = spawn_link(WorkerFun),
    Main ! {self(), log, {started, Start, W}},
    receive
        {'EXIT', W, normal} ->
            Main ! {self(), log, {worker_finished, Start}},
            Main ! {self(), done},
            exit(normal);
        {'EXIT', W, Reason} when Restarts < ?MAX_RESTARTS ->
            Main ! {self(), log, {worker_crashed, Start, Reason}},
            Main ! {self(), log, {restarting, Restarts + 1}},
            supervise(Main, WorkerFun, Start + 1, Restarts + 1);
        {'EXIT', W, Reason} ->
            Main ! {self(), log, {worker_crashed, Start, Reason}},
            Main ! {self(), log, {giving_up, Restarts}},
            Main ! {self(), done},
            exit(shutdown)
    end.

crashing_worker() ->
    exit(worker_crash).

flaky_worker(Counter) ->
    Counter ! {bump, self()},
    N = receive {count, C} -> C end,
    case N =< 2 of
        true -> exit({flaky, N});
        false -> ok
    end.

counter(N) ->
    receive
        {bump, From} -> From ! {count, N + 1}, counter(N + 1);
        stop -> ok
    end.

print_log(S) ->
    receive
        {S, log, {started, N, Pid}} ->
            io:format("  started worker #~p (is_pid ~p)~n", [N, is_pid(Pid)]),
            print_log(S);
        {S, log, Entry} ->
            io:format("  ~p~n", [Entry]),
            print_log(S);
        {S, done} -> ok
    end.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
