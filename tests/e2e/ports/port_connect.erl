-module(port_connect).
-export([main/0]).

%% port_connect/2 and Port ! {Owner, {connect, Pid}}: return values, links, the
%% {Port, connected} reply, where data goes afterwards, what the old owner can still do,
%% and what happens when the new owner dies.
main() ->
    process_flag(trap_exit, true),
    %% port_connect/2: returns true, links the new owner, keeps the old owner's link,
    %% sends nothing to either
    New = collector(true),
    P = open_port({spawn, "cat"}, []),
    Names = [{self(), self}, {New, new_owner}],
    show(port_connect, port_connect(P, New)),
    show(connected, names(Names, erlang:port_info(P, connected))),
    show(links, sorted_links(Names, P)),
    show(old_owner_msgs, flush()),
    show(new_owner_msgs, names(Names, norm(P, got(New)))),
    %% port_command/2 still works from the old owner (anyone may call it); the reply goes
    %% to the new owner
    show(old_port_command, port_command(P, "via bif")),
    wait_input(P, 7),
    show(new_owner_gets_data, norm(P, got(New))),
    show(old_owner_gets_nothing, flush()),
    %% but Port ! {OldOwner, {command, D}} is no longer valid: the port sends the exit
    %% signal badsig to its connected process (the new owner) and stays open
    P ! {self(), {command, "bad"}},
    port_command(P, "sync"),
    wait_input(P, 11),
    show(old_owner_cmd_msg, norm(P, got(New))),
    show(old_owner_cmd_msg_self, flush()),
    show(port_still_open, is_list(erlang:port_info(P))),
    %% Port ! {NewOwner, ...} from any process is accepted
    P ! {New, {command, "as new"}},
    wait_input(P, 17),
    show(cmd_in_new_owners_name, norm(P, got(New))),
    %% connecting again to the same process, then back to ourselves
    show(port_connect_same, port_connect(P, New)),
    show(port_connect_back, port_connect(P, self())),
    show(connected_back, names(Names, erlang:port_info(P, connected))),
    show(links_back, sorted_links(Names, P)),
    show(port_close, port_close(P)),
    show(close_self_msgs, norm(P, flush())),
    show(close_new_owner_msgs, norm(P, got(New))),

    %% the message form: {Port, connected} goes to the old owner, no links change
    P2 = open_port({spawn, "cat"}, []),
    New2 = collector(true),
    Names2 = [{self(), self}, {New2, new_owner}],
    P2 ! {self(), {connect, New2}},
    show(connect_msg_reply, norm(P2, receive {P2, _} = M -> M after 3000 -> timeout end)),
    show(connect_msg_connected, names(Names2, erlang:port_info(P2, connected))),
    show(connect_msg_links, sorted_links(Names2, P2)),
    show(connect_msg_new_owner_msgs, got(New2)),
    port_command(P2, "to new"),
    wait_input(P2, 6),
    show(connect_msg_data_to_new, norm(P2, got(New2))),
    %% the new owner is not linked: when it dies the port stays open
    stop(New2),
    timer:sleep(20),
    show(unlinked_new_owner_died_port_open, is_list(erlang:port_info(P2))),
    show(unlinked_new_owner_died_msgs, norm(P2, flush())),
    port_close(P2),
    show(close_p2, norm(P2, until_exit(P2))),

    %% connect message to ourselves (the current owner)
    P3 = open_port({spawn, "cat"}, []),
    P3 ! {self(), {connect, self()}},
    show(connect_msg_to_self, norm(P3, receive {P3, _} = M3 -> M3 after 3000 -> timeout end)),
    show(connect_msg_to_self_links, norm(P3, erlang:port_info(P3, links))),
    %% a process that is not the owner may call port_connect/2 (to itself here)
    Parent = self(),
    Other = spawn(fun() ->
        R = port_connect(P3, self()),
        Parent ! {connected, R},
        receive stop -> ok end
    end),
    show(non_owner_port_connect, receive {connected, R} -> R after 3000 -> timeout end),
    show(non_owner_port_connect_owner, erlang:port_info(P3, connected) =:= {connected, Other}),
    %% the new owner is linked (port_connect): when it exits normally the port closes,
    %% and we (still linked, trapping) get the exit
    Other ! stop,
    show(linked_new_owner_exits, norm(P3, until_exit(P3))),
    show(p3_gone, erlang:port_info(P3)),

    %% a linked new owner that exits with a reason takes the port down with that reason
    P4 = open_port({spawn, "cat"}, []),
    Q = spawn(fun() -> receive die -> exit(boom) end end),
    true = port_connect(P4, Q),
    Q ! die,
    show(linked_new_owner_boom, norm(P4, until_exit(P4))),

    %% bad arguments
    P5 = open_port({spawn, "cat"}, []),
    Dead = spawn(fun() -> ok end),
    Mon = erlang:monitor(process, Dead),
    receive {'DOWN', Mon, process, Dead, _} -> ok end,
    show(connect_dead_pid, try_(fun() -> port_connect(P5, Dead) end)),
    show(connect_atom, try_(fun() -> port_connect(P5, foo) end)),
    show(connect_port_to_port, try_(fun() -> port_connect(P5, P5) end)),
    show(connect_non_port, try_(fun() -> port_connect(self(), self()) end)),
    show(connect_atom_port, try_(fun() -> port_connect(not_a_port, self()) end)),
    show(connect_after_bad, names([{self(), self}], erlang:port_info(P5, connected))),
    %% {connect, NotAPid} as a message: badsig to the owner
    P5 ! {self(), {connect, foo}},
    port_command(P5, "s"),
    show(connect_msg_non_pid, norm(P5, [receive M5 -> M5 after 3000 -> timeout end,
                                         receive M6 -> M6 after 3000 -> timeout end])),
    %% {connect, DeadPid} as a message is accepted: {Port, connected}, then no owner
    P5 ! {self(), {connect, Dead}},
    show(connect_msg_dead_pid, norm(P5, receive {P5, _} = M7 -> M7 after 3000 -> timeout end)),
    show(connect_msg_dead_pid_open, is_list(erlang:port_info(P5))),
    show(connect_msg_dead_pid_close, port_close(P5)),
    show(close_p5, norm(P5, until_exit(P5))),
    show(connect_closed, try_(fun() -> port_connect(P5, self()) end)),
    stop(New),
    ok.

%% A process that stores every message it gets; got/1 returns and clears them.
collector(Trap) ->
    spawn(fun() -> process_flag(trap_exit, Trap), loop([]) end).

loop(Acc) ->
    receive
        {'$get', From} -> From ! {'$got', lists:reverse(Acc)}, loop([]);
        '$stop' -> ok;
        M -> loop([M | Acc])
    end.

got(C) ->
    C ! {'$get', self()},
    receive {'$got', L} -> L after 3000 -> timeout end.

stop(C) ->
    Ref = erlang:monitor(process, C),
    C ! '$stop',
    receive {'DOWN', Ref, process, C, _} -> ok end.

%% Waits until the port has read N bytes (so what cat echoed has been delivered).
wait_input(P, N) -> wait_input(P, N, 300).
wait_input(_P, _N, 0) -> timeout;
wait_input(P, N, K) ->
    case erlang:port_info(P, input) of
        {input, N} -> timer:sleep(5), ok;
        _ -> timer:sleep(10), wait_input(P, N, K - 1)
    end.

sorted_links(Names, P) ->
    {links, L} = erlang:port_info(P, links),
    {links, lists:sort(names(Names, L))}.

names(Names, L) when is_list(L) -> [names(Names, X) || X <- L];
names(Names, T) when is_tuple(T) -> list_to_tuple([names(Names, X) || X <- tuple_to_list(T)]);
names(Names, X) when is_pid(X) ->
    case lists:keyfind(X, 1, Names) of
        {X, N} -> N;
        false -> pid
    end;
names(_, X) -> X.

until_exit(P) ->
    receive
        {'EXIT', P, _} = E -> [E];
        {P, _} = M -> [M | until_exit(P)]
    after 3000 -> [timeout]
    end.

flush() -> receive M -> [M | flush()] after 20 -> [] end.

try_(F) -> try F() catch C:R -> {C, R} end.

show(Name, Value) -> io:format("~p ~p~n", [Name, Value]).

norm(P, L) when is_list(L) -> [norm(P, X) || X <- L];
norm(P, T) when is_tuple(T) -> list_to_tuple([norm(P, X) || X <- tuple_to_list(T)]);
norm(P, P) -> port;
norm(_, S) when S =:= self() -> self;
norm(_, X) when is_port(X) -> other_port;
norm(_, X) when is_reference(X) -> ref;
norm(_, X) -> X.
