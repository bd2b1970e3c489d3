%% Process priorities as OTP's: process_flag(priority, _), spawn_opt's {priority, _} and
%% process_info(P, priority); max processes run before normal ones (a normal process waits
%% while a max process loops on every scheduler); a system task asked for at max priority runs
%% in a low process that cannot otherwise run (no priority inversion); a process's system tasks
%% run max first, then normal ones with a low one after every eight (process_SUITE:otp_16642);
%% a low process runs about once for every eight runs of a normal one (process_SUITE:low_prio).
-module(priorities).
-export([main/0]).

main() ->
    flags(),
    starved_normal(),
    no_inversion(),
    task_order(),
    low_share(),
    blocking(),
    ok.

flags() ->
    normal = process_flag(priority, high),
    high = process_flag(priority, low),
    io:format("own: ~p~n", [process_info(self(), priority)]),
    low = process_flag(priority, normal),
    io:format("bad: ~p~n", [error_of(fun() -> process_flag(priority, urgent) end)]),
    io:format("spawn_opt bad: ~p~n", [error_of(fun() -> spawn_opt(fun() -> ok end, [{priority, 1}]) end)]),
    [begin
         P = spawn_opt(fun() -> receive stop -> ok end end, [{priority, Prio}]),
         io:format("~p: ~p~n", [Prio, process_info(P, priority)]),
         P ! stop
     end || Prio <- [max, high, normal, low]],
    P = spawn(fun() -> receive stop -> ok end end),
    io:format("default: ~p~n", [process_info(P, priority)]),
    P ! stop.

error_of(F) ->
    try F() catch error:R -> {error, R} end.

%% Loops at max priority on every scheduler: nothing of lower priority runs until they stop.
hogs(Prio) ->
    Self = self(),
    Hogs = [spawn_opt(fun() -> Self ! {hogging, self()}, spin() end, [{priority, Prio}, link])
            || _ <- lists:seq(1, erlang:system_info(schedulers_online))],
    [receive {hogging, H} -> ok end || H <- Hogs],
    Hogs.

spin() -> spin().

stop_hogs(Hogs) ->
    [begin unlink(H), exit(H, kill) end || H <- Hogs],
    ok.

starved_normal() ->
    process_flag(priority, max),
    Hogs = hogs(max),
    Self = self(),
    spawn(fun() -> Self ! normal_ran end),
    Ran = receive normal_ran -> true after 500 -> false end,
    stop_hogs(Hogs),
    Later = receive normal_ran -> true after 5000 -> false end,
    process_flag(priority, normal),
    io:format("normal process ran beside max hogs: ~p, after them: ~p~n", [Ran, Later]).

no_inversion() ->
    process_flag(priority, max),
    Hogs = hogs(max),
    Low = spawn_opt(fun spin/0, [{priority, low}]),
    Reqs = [{Prio, request(Low, Prio)} || Prio <- [low, normal, high]],
    Early = receive {system_task_test, _, _} = M -> M after 500 -> none end,
    Max = request(Low, max),
    MaxDone = receive {system_task_test, Max, R} -> R after 5000 -> timeout end,
    %% garbage_collect/1 of another process asks at the caller's priority.
    Gc = erlang:garbage_collect(Low),
    stop_hogs(Hogs),
    Rest = [{Prio, receive {system_task_test, Ref, R2} -> R2 after 5000 -> timeout end}
            || {Prio, Ref} <- Reqs],
    exit(Low, kill),
    process_flag(priority, normal),
    io:format("while hogged: ~p; max task: ~p; gc: ~p; then ~p~n", [Early, MaxDone, Gc, Rest]).

request(Pid, Prio) ->
    Ref = make_ref(),
    erts_internal:request_system_task(Pid, Prio, {system_task_test, Ref}),
    Ref.

%% The target waits at normal priority behind max hogs while the requests arrive, so that it
%% takes them all at once when the hogs stop. (Nothing is printed while they run: the I/O
%% server is a normal process.)
task_order() ->
    process_flag(priority, max),
    Target = spawn(fun() -> receive stop -> ok end end),
    Hogs = hogs(max),
    Ask = fun(Prio, From, To) ->
                  [erts_internal:request_system_task(Target, Prio, {system_task_test, {Prio, N}})
                   || N <- lists:seq(From, To)]
          end,
    Ask(low, 0, 1),
    Ask(normal, 0, 10),
    Ask(low, 2, 4),
    Ask(normal, 11, 19),
    Bad = error_of(fun() -> erts_internal:request_system_task(Target, urgent, {system_task_test, x}) end),
    stop_hogs(Hogs),
    io:format("bad priority: ~p~n", [Bad]),
    process_flag(priority, normal),
    Order = [receive {system_task_test, Id, true} -> Id after 5000 -> timeout end
             || _ <- lists:seq(1, 25)],
    io:format("task order: ~p~n", [Order]),
    %% Low tasks behind normal ones only: the normal ones first, then the low ones.
    task_batch(fun() -> Ask(normal, 0, 2), Ask(low, 0, 1), Ask(normal, 3, 3) end, 6),
    %% High and low ones, no normal one.
    task_batch(fun() -> Ask(high, 0, 0), Ask(low, 0, 1) end, 3),
    Target ! stop.

%% Asks for a batch of tasks while max hogs keep the target from running, then prints the
%% order of the Count answers.
task_batch(Ask, Count) ->
    process_flag(priority, max),
    Hogs = hogs(max),
    Ask(),
    stop_hogs(Hogs),
    process_flag(priority, normal),
    Order = [receive {system_task_test, Id, true} -> Id after 5000 -> timeout end
             || _ <- lists:seq(1, Count)],
    io:format("task order: ~p~n", [Order]).

%% As process_SUITE:low_prio: one normal and one low client per scheduler send to a high
%% server; the low ones get about an eighth of the normal ones' turns.
low_share() ->
    %% Normal and low processes on one scheduler, as OTP's test has them.
    blocked_normal = erlang:system_flag(multi_scheduling, block_normal),
    Self = self(),
    Server = spawn_opt(fun() -> count(0, 0, Self) end, [{priority, high}, link]),
    Clients = lists:append(
                [[spawn_opt(fun() -> client(Server, normal) end, [{priority, normal}]),
                  spawn_opt(fun() -> client(Server, low) end, [{priority, low}])]
                 || _ <- lists:seq(1, erlang:system_info(schedulers_online))]),
    timer:sleep(1000),
    [exit(C, kill) || C <- Clients],
    enabled = erlang:system_flag(multi_scheduling, unblock_normal),
    Server ! stop,
    receive
        {counted, Low, Normal} ->
            Share = Low / Normal,
            io:format("low share between 1/16 and 1/4: ~p~n", [Share > 1/16 andalso Share < 1/4])
    end.

count(Low, Normal, Parent) ->
    receive
        low -> count(Low + 1, Normal, Parent);
        normal -> count(Low, Normal + 1, Parent);
        stop -> Parent ! {counted, Low, Normal}
    end.

client(Server, Prio) ->
    Server ! Prio,
    client(Server, Prio).

%% system_flag(multi_scheduling, _) answers the state after the change; blocks count per
%% block and end with their process.
blocking() ->
    Self = self(),
    B = spawn(fun() ->
                      Self ! {blocked, erlang:system_flag(multi_scheduling, block),
                              erlang:system_flag(multi_scheduling, block_normal),
                              erlang:system_info(multi_scheduling)},
                      receive unblock -> ok end
              end),
    receive {blocked, _, _, _} = Blocked -> io:format("~p~n", [Blocked]) end,
    io:format("foreign unblock: ~p~n", [erlang:system_flag(multi_scheduling, unblock)]),
    Ref = monitor(process, B),
    B ! unblock,
    receive {'DOWN', Ref, _, _, _} -> ok end,
    io:format("after its exit: ~p~n", [erlang:system_info(multi_scheduling)]),
    io:format("bad: ~p~n", [error_of(fun() -> erlang:system_flag(multi_scheduling, maybe) end)]).
