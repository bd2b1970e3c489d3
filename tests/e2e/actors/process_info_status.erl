-module(process_info_status).
-export([main/0, blocked_here/1]).

%% process_info/2 for status, current_function and heap_size: a process blocked in a receive is
%% 'waiting' and its current function is the one containing the receive; process_info/1 returns a
%% list with the usual keys.
main() ->
    Self = self(),
    P = spawn(?MODULE, blocked_here, [Self]),
    receive {ready, P} -> ok end,
    wait_until_waiting(P, 200),
    io:format("status: ~p~n", [process_info(P, status)]),
    io:format("current_function: ~p~n", [process_info(P, current_function)]),
    {heap_size, H} = process_info(P, heap_size),
    io:format("heap_size is a positive integer: ~p~n", [is_integer(H) andalso H > 0]),
    {reductions, Red} = process_info(P, reductions),
    io:format("reductions is an integer: ~p~n", [is_integer(Red)]),
    io:format("priority: ~p~n", [process_info(P, priority)]),
    {initial_call, IC} = process_info(P, initial_call),
    io:format("initial_call: ~p~n", [IC]),
    All = process_info(P),
    Keys = [K || {K, _} <- All],
    io:format("process_info/1 keys include: ~w~n",
              [[K || K <- [current_function, initial_call, status, message_queue_len, links,
                           dictionary, trap_exit, priority, heap_size, reductions],
                     lists:member(K, Keys)]]),
    io:format("own status: ~p~n", [process_info(self(), status)]),
    io:format("own current_function: ~p~n", [process_info(self(), current_function)]),
    P ! {go, deeper},
    receive {moved, P} -> ok end,
    wait_until_waiting(P, 200),
    io:format("after moving on, current_function: ~w~n", [process_info(P, current_function)]),
    Ref = monitor(process, P),
    P ! stop,
    receive {'DOWN', Ref, process, P, Why} -> io:format("exit: ~p~n", [Why]) end,
    io:format("status of dead: ~p~n", [process_info(P, status)]),
    ok.

blocked_here(Parent) ->
    Parent ! {ready, self()},
    receive
        {go, deeper} -> second_wait(Parent)
    end.

second_wait(Parent) ->
    Parent ! {moved, self()},
    receive stop -> ok end.

%% The child may still be running just after it sent 'ready'; poll (bounded) until it waits.
wait_until_waiting(_P, 0) -> gave_up;
wait_until_waiting(P, N) ->
    case process_info(P, status) of
        {status, waiting} -> ok;
        _ -> timer:sleep(1), wait_until_waiting(P, N - 1)
    end.
