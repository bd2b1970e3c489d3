-module(start_timer).
-export([main/0]).

%% erlang:start_timer/3 delivers {timeout, TimerRef, Msg}; the ref in the message is the one that
%% start_timer returned, so several timers with the same Msg are told apart by ref.
main() ->
    Self = self(),
    T1 = erlang:start_timer(20, Self, ding),
    io:format("returns a ref: ~p~n", [is_reference(T1)]),
    receive
        {timeout, R1, M1} = Full ->
            io:format("shape: size ~p, tag ~p, ref matches ~p, msg ~p~n",
                      [tuple_size(Full), element(1, Full), R1 =:= T1, M1])
    end,
    Ta = erlang:start_timer(90, Self, same),
    Tb = erlang:start_timer(10, Self, same),
    Tc = erlang:start_timer(50, Self, same),
    Names = #{Ta => a, Tb => b, Tc => c},
    Order = [receive {timeout, R, same} -> maps:get(R, Names) end || _ <- [1, 2, 3]],
    io:format("fired in order: ~p~n", [Order]),
    T2 = erlang:start_timer(30, Self, wanted),
    erlang:start_timer(10, Self, decoy),
    io:format("selective on ref: ~p~n", [receive {timeout, T2, W} -> W end]),
    io:format("decoy still queued: ~p~n", [receive {timeout, _, decoy} -> yes after 0 -> no end]),
    Srv = spawn(fun() -> receive {timeout, Tr, Msg} -> Self ! {srv, is_reference(Tr), Msg} end end),
    register(st_server, Srv),
    erlang:start_timer(10, st_server, to_name),
    io:format("to registered name: ~p~n", [receive {srv, _, _} = S -> S end]),
    wait_dead(Srv),
    %% A process that creates a timer for itself and then dies: the timer is cancelled with it,
    %% no crash anywhere.
    {P, Ref} = spawn_monitor(fun() -> erlang:start_timer(10, self(), never_seen) end),
    receive {'DOWN', Ref, process, P, Why} -> io:format("owner exit: ~p~n", [Why]) end,
    timer:sleep(20),
    Tz = erlang:start_timer(0, Self, zero),
    io:format("0 ms: ~p~n", [receive {timeout, Tz, Z} -> Z after 1000 -> timeout end]),
    io:format("bad time: ~p~n", [try erlang:start_timer(list_to_atom("soon"), Self, x) catch C:E -> {C, E} end]),
    io:format("mailbox: ~p~n", [receive X -> X after 0 -> empty end]),
    ok.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
