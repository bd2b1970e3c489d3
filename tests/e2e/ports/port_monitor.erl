-module(port_monitor).
-export([main/0]).

%% erlang:monitor(port, P): 'DOWN' messages and their reasons, demonitor, monitors by
%% registered name, monitors on closed ports, several monitors, monitors from other
%% processes, and port_info's monitored_by / monitors.
main() ->
    process_flag(trap_exit, true),
    P = open_port({spawn, "cat"}, []),
    M = erlang:monitor(port, P),
    show(monitor_ref, is_reference(M)),
    show(monitored_by, norm(P, erlang:port_info(P, monitored_by))),
    show(monitors, norm(P, erlang:port_info(P, monitors))),
    M2 = erlang:monitor(port, P),
    show(two_monitors, norm(P, erlang:port_info(P, monitored_by))),
    show(two_refs_differ, M =/= M2),
    show(port_close, port_close(P)),
    %% the 'EXIT' (link) comes before the 'DOWN's, which come in monitor order
    show(close_msgs, norm(P, refs([{M, m1}, {M2, m2}], [recv(), recv(), recv()]))),
    show(nothing_else, flush()),

    %% DOWN reasons
    %% {Port, closed} comes after the 'EXIT' and after the 'DOWN'
    P1 = open_port({spawn, "cat"}, []),
    M1 = erlang:monitor(port, P1),
    P1 ! {self(), close},
    show(down_close_msg, norm(P1, refs([{M1, ref}], [recv(), recv(), recv()]))),
    show(down_exit_kill, down(fun(Port) -> exit(Port, kill) end)),
    show(down_exit_normal, down(fun(Port) -> exit(Port, normal) end)),
    show(down_exit_atom, down(fun(Port) -> exit(Port, foo) end)),
    show(down_exit_integer, down(fun(Port) -> exit(Port, 42) end)),
    %% OTP 25: for a reason that is not an immediate term the 'DOWN' says 'process'
    show(down_exit_tuple, down(fun(Port) -> exit(Port, {a, b}) end)),
    show(down_exit_list, down(fun(Port) -> exit(Port, [1, 2]) end)),
    show(down_exit_binary, down(fun(Port) -> exit(Port, <<"bin">>) end)),
    show(down_program_exits, down(fun(Port) -> port_command(Port, "x") end, "head -c 1")),
    show(down_program_status, down(fun(Port) -> port_command(Port, "x") end, "head -c 1", [exit_status])),
    %% the program closes its stdin and says so; our next write fails with epipe
    show(down_epipe, down(fun(Port) -> receive {Port, {data, "ready\n"}} -> port_command(Port, "x") end end,
                          "sh -c 'exec 0<&-; echo ready; sleep 0.3'", [])),

    %% demonitor
    P2 = open_port({spawn, "cat"}, []),
    M3 = erlang:monitor(port, P2),
    show(demonitor, erlang:demonitor(M3)),
    show(monitored_by_after_demonitor, norm(P2, erlang:port_info(P2, monitored_by))),
    show(demonitor_again, erlang:demonitor(M3)),
    M4 = erlang:monitor(port, P2),
    show(demonitor_info, erlang:demonitor(M4, [info])),
    M5 = erlang:monitor(port, P2),
    port_close(P2),
    receive {'EXIT', P2, _} -> ok end,
    show(demonitor_flush_after_close, erlang:demonitor(M5, [flush])),
    show(flushed, flush()),
    M6 = erlang:monitor(port, P2),
    show(monitor_closed_port, norm(P2, refs([{M6, m6}], recv()))),
    show(demonitor_fired, erlang:demonitor(M6, [info])),

    %% monitor by registered name: the 'DOWN' names {Name, Node}
    P3 = open_port({spawn, "cat"}, []),
    true = register(beamlet_mon_port, P3),
    M7 = erlang:monitor(port, beamlet_mon_port),
    show(monitor_by_name_monitored_by, norm(P3, erlang:port_info(P3, monitored_by))),
    port_close(P3),
    show(down_by_name, norm(P3, refs([{M7, m7}], [recv(), recv()]))),
    M8 = erlang:monitor(port, beamlet_mon_port),
    show(monitor_unregistered_name, norm(P3, refs([{M8, m8}], recv()))),
    show(monitor_name_node_tuple, try_(fun() ->
        M9 = erlang:monitor(port, {beamlet_mon_port, node()}),
        norm(P3, refs([{M9, m9}], recv())) end)),

    %% monitors from another process
    P4 = open_port({spawn, "cat"}, []),
    Parent = self(),
    Watcher = spawn(fun() ->
        Ref = erlang:monitor(port, P4),
        Parent ! ready,
        receive {'DOWN', Ref, Type, Obj, Why} -> Parent ! {watcher, Type, Obj =:= P4, Why} end
    end),
    receive ready -> ok end,
    show(other_monitor, erlang:port_info(P4, monitored_by) =:= {monitored_by, [Watcher]}),
    exit(P4, bye),
    show(other_down, receive {watcher, T, IsP, W} -> {T, IsP, W} after 3000 -> timeout end),
    receive {'EXIT', P4, _} -> ok end,

    %% bad arguments
    show(monitor_port_on_pid, try_(fun() -> erlang:monitor(port, self()) end)),
    show(monitor_process_on_port, try_(fun() -> P5 = open_port({spawn, "cat"}, []), R = erlang:monitor(process, P5), port_close(P5), R end)),
    show(monitor_port_on_integer, try_(fun() -> erlang:monitor(port, 42) end)),
    flush(),
    ok.

down(F) -> down(F, "cat").
down(F, Cmd) -> down(F, Cmd, []).
down(F, Cmd, Opts) ->
    P = open_port({spawn, Cmd}, Opts),
    M = erlang:monitor(port, P),
    F(P),
    Msgs = until_down(M),
    norm(P, refs([{M, ref}], Msgs)).

until_down(M) ->
    receive
        {'DOWN', M, _, _, _} = D -> [D];
        Other -> [Other | until_down(M)]
    after 3000 -> [timeout]
    end.

recv() -> receive X -> X after 3000 -> timeout end.

refs(Names, L) when is_list(L) -> [refs(Names, X) || X <- L];
refs(Names, T) when is_tuple(T) -> list_to_tuple([refs(Names, X) || X <- tuple_to_list(T)]);
refs(Names, R) when is_reference(R) ->
    case lists:keyfind(R, 1, Names) of
        {R, N} -> N;
        false -> ref
    end;
refs(_, X) -> X.

flush() -> receive M -> [M | flush()] after 20 -> [] end.

try_(F) -> try F() catch C:R -> {C, R} end.

show(Name, Value) -> io:format("~p ~p~n", [Name, Value]).

norm(P, L) when is_list(L) -> [norm(P, X) || X <- L];
norm(P, T) when is_tuple(T) -> list_to_tuple([norm(P, X) || X <- tuple_to_list(T)]);
norm(P, P) -> port;
norm(_, S) when S =:= self() -> self;
norm(_, X) when is_pid(X) -> pid;
norm(_, X) when is_port(X) -> other_port;
norm(_, X) when is_reference(X) -> ref;
norm(_, N) when N =:= node() -> this_node;
norm(_, X) -> X.
