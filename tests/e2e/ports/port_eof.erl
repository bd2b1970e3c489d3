-module(port_eof).
-export([main/0]).

%% The eof option: {Port, eof} instead of closing, the port stays open (and linked) until
%% the owner closes it; writing after eof; eof together with exit_status.
main() ->
    process_flag(trap_exit, true),
    P1 = open_port({spawn, "echo hi"}, [eof]),
    show(eof_msgs, norm(P1, until_eof(P1))),
    show(eof_port_still_open, is_list(erlang:port_info(P1))),
    show(eof_info_items, [K || {K, _} <- erlang:port_info(P1)]),
    show(eof_info_input, erlang:port_info(P1, input)),
    show(eof_info_links, norm(P1, erlang:port_info(P1, links))),
    show(eof_in_ports, lists:member(P1, erlang:ports())),
    show(eof_no_more_msgs, flush()),
    show(eof_port_close, port_close(P1)),
    show(eof_after_close, norm(P1, until_exit(P1))),
    show(eof_gone, erlang:port_info(P1)),
    %% closing with {Port, close} after eof
    P2 = open_port({spawn, "echo hi"}, [eof]),
    _ = until_eof(P2),
    P2 ! {self(), close},
    show(eof_close_msg, norm(P2, [recv_any(), recv_any()])),
    %% writing after eof once the program has exited (exit_status seen): the write fails
    %% with epipe and the port exits with that reason
    P3 = open_port({spawn, "echo hi"}, [eof, exit_status]),
    show(eof_write_before, norm(P3, until_eof(P3))),
    show(eof_write_return, port_command(P3, "more")),
    show(eof_write_msgs, norm(P3, until_exit(P3))),
    %% eof with exit_status: the status first, then eof
    P4 = open_port({spawn_executable, "/bin/sh"}, [{args, ["-c", "echo out; exit 6"]}, eof, exit_status]),
    show(eof_status_msgs, norm(P4, until_eof(P4))),
    show(eof_status_open, is_list(erlang:port_info(P4))),
    show(eof_status_close, port_close(P4)),
    show(eof_status_after_close, norm(P4, until_exit(P4))),
    %% stdout closed early, program exits later: with exit_status the eof waits for the status
    P5 = open_port({spawn_executable, "/bin/sh"}, [{args, ["-c", "exec 1>&-; read x; exit 4"]}, eof, exit_status]),
    timer:sleep(50),
    show(early_close_no_msg_yet, flush()),
    port_command(P5, "go\n"),
    show(early_close_msgs, norm(P5, until_eof(P5))),
    port_close(P5),
    show(early_close_exit, norm(P5, until_exit(P5))),
    %% without exit_status the eof comes as soon as stdout is closed
    P6 = open_port({spawn_executable, "/bin/sh"}, [{args, ["-c", "exec 1>&-; read x; exit 4"]}, eof]),
    show(early_close_eof_only, norm(P6, until_eof(P6))),
    show(early_close_still_open, is_list(erlang:port_info(P6))),
    port_close(P6),
    show(early_close_eof_only_exit, norm(P6, until_exit(P6))),
    %% a non-trapping owner with eof: nothing else happens until it closes the port
    Parent = self(),
    {Pid, Ref} = spawn_monitor(fun() ->
        P = open_port({spawn, "echo hi"}, [eof, binary]),
        M = until_eof(P),
        timer:sleep(20),
        Open = is_list(erlang:port_info(P)),
        Mon = erlang:monitor(port, P),
        C = port_close(P),
        D = receive {'DOWN', Mon, port, P, R} -> {'DOWN', R} after 3000 -> timeout end,
        Parent ! {self(), norm(P, {M, Open, C, D, flush()})}
    end),
    show(untrapped_eof, receive {Pid, V} -> V after 3000 -> timeout end),
    show(untrapped_owner_exit, receive {'DOWN', Ref, process, Pid, Why} -> Why end),
    ok.

recv_any() -> receive M -> M after 3000 -> timeout end.

until_exit(P) ->
    receive
        {'EXIT', P, _} = E -> [E];
        {P, _} = M -> [M | until_exit(P)]
    after 3000 -> [timeout]
    end.

until_eof(P) ->
    receive
        {P, eof} = E -> [E];
        {P, _} = M -> [M | until_eof(P)]
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
