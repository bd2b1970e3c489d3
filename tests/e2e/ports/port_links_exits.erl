-module(port_links_exits).
-export([main/0]).

%% Links and exit signals between processes and ports: link/unlink, exit/2 on a port
%% (normal, kill, other reasons; from the owner, from a linked or unlinked process),
%% linked non-owners exiting, and what a non-trapping owner does when its port dies.
main() ->
    process_flag(trap_exit, true),
    %% link / unlink
    P = open_port({spawn, "cat"}, []),
    show(initial_links, links(P)),
    show(unlink_port, unlink(P)),
    show(links_after_unlink, links(P)),
    show(unlink_again, unlink(P)),
    show(link_port, link(P)),
    show(link_again, link(P)),
    show(links_after_link, links(P)),
    Other = spawn(fun() -> receive {link, From} -> link(P), From ! linked, receive stop -> ok end end end),
    Other ! {link, self()},
    receive linked -> ok end,
    show(links_with_other, links(P)),
    %% a linked non-owner that exits normally does not close the port
    exit_and_wait(Other, stop),
    timer:sleep(20),
    show(linked_other_normal_exit_port_open, is_list(erlang:port_info(P))),
    show(links_after_other_exit, links(P)),
    show(no_msgs, flush()),
    %% a linked non-owner that exits with a reason closes the port with that reason
    Other2 = spawn(fun() -> receive {link, From} -> link(P), From ! linked, receive stop -> exit(boom) end end end),
    Other2 ! {link, self()},
    receive linked -> ok end,
    Other2 ! stop,
    show(linked_other_boom, norm(P, until_exit(P))),
    show(port_gone, erlang:port_info(P)),

    %% exit/2 on a port from its (trapping) owner
    show(exit_normal, exit_port(normal)),
    show(exit_kill, exit_port(kill)),
    show(exit_killed, exit_port(killed)),
    show(exit_foo, exit_port(foo)),
    show(exit_tuple, exit_port({shutdown, x})),
    %% exit/2 on a port from an unlinked process: even normal closes it
    show(exit_normal_from_other, exit_from_other(normal)),
    show(exit_kill_from_other, exit_from_other(kill)),
    show(exit_foo_from_other, exit_from_other(foo)),
    %% exit/2 after unlink: the port dies, we get nothing
    P2 = open_port({spawn, "cat"}, []),
    unlink(P2),
    Mon = erlang:monitor(port, P2),
    show(exit_unlinked, exit(P2, foo)),
    show(exit_unlinked_down, receive {'DOWN', Mon, port, P2, R} -> R after 3000 -> timeout end),
    show(exit_unlinked_msgs, flush()),
    %% exit/2 and link/1 on a closed port
    show(exit_closed_port, exit(P2, foo)),
    show(link_closed_port, link(P2)),
    show(link_closed_port_msg, norm(P2, receive M -> M after 3000 -> timeout end)),
    show(unlink_closed_port, unlink(P2)),
    %% link/1 to a closed port from a process that does not trap exits raises noproc
    {LPid, LRef} = spawn_monitor(fun() ->
        LR = try link(P2) catch LC:LE -> {LC, LE} end,
        exit({returned, LR})
    end),
    show(link_closed_port_untrapped, receive {'DOWN', LRef, process, LPid, LWhy} -> LWhy after 3000 -> timeout end),

    %% non-trapping owners
    show(untrapped_exit_normal, untrapped(fun(Port) -> exit(Port, normal) end)),
    show(untrapped_exit_foo, untrapped(fun(Port) -> exit(Port, foo) end)),
    show(untrapped_exit_kill, untrapped(fun(Port) -> exit(Port, kill) end)),
    show(untrapped_port_close, untrapped(fun(Port) -> port_close(Port) end)),
    show(untrapped_close_msg, untrapped(fun(Port) -> Port ! {self(), close} end)),
    show(untrapped_program_exits, untrapped(fun(Port) -> port_command(Port, "x") end, "head -c 1")),
    show(untrapped_unlinked_exit_foo, untrapped(fun(Port) -> unlink(Port), exit(Port, foo) end)),
    ok.

links(P) ->
    {links, L} = erlang:port_info(P, links),
    {links, lists:sort([if X =:= self() -> self; true -> other end || X <- L])}.

exit_and_wait(Pid, Msg) ->
    Ref = erlang:monitor(process, Pid),
    Pid ! Msg,
    receive {'DOWN', Ref, process, Pid, _} -> ok end.

exit_port(Reason) ->
    P = open_port({spawn, "cat"}, []),
    R = exit(P, Reason),
    {R, norm(P, until_exit(P)), erlang:port_info(P)}.

exit_from_other(Reason) ->
    P = open_port({spawn, "cat"}, []),
    spawn(fun() -> exit(P, Reason) end),
    {norm(P, until_exit(P)), erlang:port_info(P)}.

%% A non-trapping owner opens a port, runs Fun on it, and reports its messages;
%% we watch the owner and the port with monitors.
untrapped(Fun) -> untrapped(Fun, "cat").
untrapped(Fun, Cmd) ->
    Parent = self(),
    {Pid, Ref} = spawn_monitor(fun() ->
        P = open_port({spawn, Cmd}, []),
        Parent ! {port, P},
        receive go -> ok end,
        R = Fun(P),
        receive never -> ok after 200 -> ok end,
        Parent ! {self(), norm(P, {R, flush()})}
    end),
    P = receive {port, Port} -> Port end,
    M = erlang:monitor(port, P),
    Pid ! go,
    Down = receive {'DOWN', M, port, P, R1} -> {port_down, R1} after 3000 -> no_port_down end,
    Owner = receive
                {Pid, V} ->
                    receive {'DOWN', Ref, process, Pid, _} -> ok after 3000 -> ok end,
                    {owner_survived, V};
                {'DOWN', Ref, process, Pid, Why} -> {owner_died, Why}
            after 3000 -> timeout
            end,
    {Down, Owner}.

until_exit(P) ->
    receive
        {'EXIT', P, _} = E -> [E];
        {P, _} = M -> [M | until_exit(P)]
    after 3000 -> [timeout]
    end.

flush() -> receive M -> [M | flush()] after 20 -> [] end.

show(Name, Value) -> io:format("~p ~p~n", [Name, Value]).

norm(P, L) when is_list(L) -> [norm(P, X) || X <- L];
norm(P, T) when is_tuple(T) -> list_to_tuple([norm(P, X) || X <- tuple_to_list(T)]);
norm(P, P) -> port;
norm(_, S) when S =:= self() -> self;
norm(_, X) when is_pid(X) -> pid;
norm(_, X) when is_port(X) -> other_port;
norm(_, X) when is_reference(X) -> ref;
norm(_, X) -> X.
