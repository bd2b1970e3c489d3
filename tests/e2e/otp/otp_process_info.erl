-module(otp_process_info).
-export([main/0, blocked/1]).

%% erlang:process_info/2 items with deterministic values: message_queue_len (own and another
%% process's), registered_name (none: []), trap_exit, priority (process_flag changes it),
%% status (running for self, waiting for a process blocked in a receive, exiting/undefined for
%% a dead one), dictionary, links (sorted, counted), monitors/monitored_by counts,
%% current_function of a process blocked in a known receive, initial_call (spawn/3 and a fun),
%% group_leader (inherited from the spawner), the list form, and process_info/1 of a dead
%% process. Pids are never printed.
main() ->
    %% Run in a fresh process: the process running main/0 may have flags of its own (under
    %% erl -eval it traps exits).
    Main = self(),
    {P, M} = spawn_monitor(fun() -> run(), Main ! done end),
    receive done -> ok end,
    receive {'DOWN', M, process, P, _} -> ok end.

run() ->
    Self = self(),
    io:format("own message_queue_len: ~p~n", [process_info(self(), message_queue_len)]),
    self() ! a, self() ! b,
    io:format("after two sends: ~p~n", [process_info(self(), message_queue_len)]),
    io:format("messages: ~p~n", [process_info(self(), messages)]),
    receive a -> ok end, receive b -> ok end,
    io:format("registered_name, none: ~p~n", [process_info(self(), registered_name)]),
    register(pi_main, self()),
    io:format("registered_name: ~p~n", [process_info(self(), registered_name)]),
    unregister(pi_main),
    io:format("trap_exit: ~p~n", [process_info(self(), trap_exit)]),
    Old = process_flag(trap_exit, true),
    io:format("trap_exit after process_flag (old ~p): ~p~n", [Old, process_info(self(), trap_exit)]),
    process_flag(trap_exit, false),
    io:format("priority: ~p~n", [process_info(self(), priority)]),
    OldP = process_flag(priority, high),
    io:format("priority after process_flag (old ~p): ~p~n", [OldP, process_info(self(), priority)]),
    process_flag(priority, normal),
    io:format("own status: ~p~n", [process_info(self(), status)]),
    put(k1, v1), put({k, 2}, [x]),
    {dictionary, D} = process_info(self(), dictionary),
    io:format("dictionary: ~p~n", [lists:sort(D)]),
    erase(k1), erase({k, 2}),

    %% Another process, blocked in blocked/1's receive.
    B = spawn(?MODULE, blocked, [Self]),
    receive {B, ready} -> ok end,
    wait_waiting(B),
    io:format("status of a blocked process: ~p~n", [process_info(B, status)]),
    io:format("current_function: ~p~n", [process_info(B, current_function)]),
    io:format("initial_call (spawn/3): ~p~n", [process_info(B, initial_call)]),
    io:format("its group_leader is ours: ~p~n", [process_info(B, group_leader) =:= {group_leader, group_leader()}]),
    io:format("its registered_name: ~p~n", [process_info(B, registered_name)]),
    io:format("its dictionary: ~p~n", [process_info(B, dictionary)]),
    B ! one, B ! two,
    io:format("its message_queue_len: ~p~n", [process_info(B, message_queue_len)]),
    F = spawn(fun() -> receive stop -> ok end end),
    io:format("initial_call (fun): ~p~n", [process_info(F, initial_call)]),

    %% Links and monitors.
    {links, L0} = process_info(self(), links),
    Ls = [spawn_link(fun() -> receive stop -> ok end end) || _ <- [1, 2, 3]],
    {links, L1} = process_info(self(), links),
    io:format("links: ~p more, all there: ~p~n", [length(L1) - length(L0), lists:sort(Ls) =:= lists:sort(L1 -- L0)]),
    {links, BL} = process_info(hd(Ls), links),
    io:format("a child's links: ~p~n", [BL =:= [Self]]),
    Ms = [monitor(process, P) || P <- Ls],
    {monitors, Mon} = process_info(self(), monitors),
    io:format("monitors: ~p, all process monitors: ~p~n",
              [length(Mon), lists:sort([P || {process, P} <- Mon]) =:= lists:sort(Ls)]),
    {monitored_by, MB} = process_info(hd(Ls), monitored_by),
    io:format("monitored_by: ~p~n", [MB =:= [Self]]),
    [demonitor(M) || M <- Ms],
    io:format("monitors after demonitor: ~p~n", [process_info(self(), monitors)]),
    [unlink(P) || P <- Ls],
    {links, L2} = process_info(self(), links),
    io:format("links after unlink: ~p~n", [lists:sort(L2) =:= lists:sort(L0)]),

    %% The list form (B has looked at its two new messages and waits again).
    wait_waiting(B),
    io:format("list form: ~p~n", [process_info(B, [status, message_queue_len, trap_exit, priority])]),

    %% A dead process.
    Mb = monitor(process, B),
    B ! stop,
    receive {'DOWN', Mb, process, B, Why} -> io:format("blocked process ended: ~p~n", [Why]) end,
    io:format("dead: ~p ~p~n", [process_info(B, status), process_info(B)]),
    [P ! stop || P <- [F | Ls]],
    ok.

blocked(Parent) ->
    Parent ! {self(), ready},
    receive stop -> ok end.

wait_waiting(P) ->
    case process_info(P, status) of
        {status, waiting} -> ok;
        _ -> erlang:yield(), wait_waiting(P)
    end.
