-module(port_exit_status).
-export([main/0]).

%% What the owner receives when the external program exits: with and without exit_status,
%% with and without trap_exit, normal and non-zero statuses, programs killed by a signal,
%% and programs that close their stdout before exiting.
main() ->
    process_flag(trap_exit, true),
    Sh = {spawn_executable, "/bin/sh"},
    %% trapping owner: everything up to the {'EXIT', Port, _}
    show(status_0, trapped(Sh, [{args, ["-c", "echo out"]}, exit_status])),
    show(status_5, trapped(Sh, [{args, ["-c", "echo out; exit 5"]}, exit_status])),
    show(status_255, trapped(Sh, [{args, ["-c", "exit 255"]}, exit_status])),
    show(status_256_wraps, trapped(Sh, [{args, ["-c", "exit 256"]}, exit_status])),
    show(status_false, trapped({spawn, "false"}, [exit_status])),
    show(status_binary_mode, trapped(Sh, [{args, ["-c", "echo out; exit 2"]}, exit_status, binary])),
    show(killed_sigkill, trapped(Sh, [{args, ["-c", "kill -9 $$"]}, exit_status])),
    show(killed_sigterm, trapped(Sh, [{args, ["-c", "kill -15 $$"]}, exit_status])),
    show(killed_sigkill_no_status, trapped(Sh, [{args, ["-c", "kill -9 $$"]}])),
    show(no_exit_status_0, trapped(Sh, [{args, ["-c", "echo out"]}])),
    show(no_exit_status_7, trapped(Sh, [{args, ["-c", "echo out; exit 7"]}])),
    show(no_output_no_status, trapped(Sh, [{args, ["-c", "exit 9"]}])),
    %% non-trapping owner (in its own process): same messages minus the 'EXIT'; the owner
    %% survives the port's normal exit. A monitor shows when the port is gone.
    show(untrapped_status_3, untrapped(Sh, [{args, ["-c", "read x; echo out; exit 3"]}, exit_status])),
    show(untrapped_no_status, untrapped(Sh, [{args, ["-c", "read x; echo out; exit 3"]}])),
    show(untrapped_killed, untrapped(Sh, [{args, ["-c", "read x; kill -9 $$"]}, exit_status])),
    %% the program closes its stdout, then waits for a line on stdin, then exits 4.
    %% Without exit_status the port closes at the EOF on the program's stdout.
    P1 = open_port(Sh, [{args, ["-c", "exec 1>&-; read x; exit 4"]}]),
    show(closed_stdout_no_status, norm(P1, receive M1 -> M1 after 3000 -> timeout end)),
    show(closed_stdout_no_status_gone, erlang:port_info(P1)),
    %% With exit_status it stays open until the program exits, then reports the status.
    P2 = open_port(Sh, [{args, ["-c", "exec 1>&-; read x; exit 4"]}, exit_status]),
    timer:sleep(50),
    show(closed_stdout_status_still_open, is_list(erlang:port_info(P2))),
    show(closed_stdout_status_no_msg, flush()),
    port_command(P2, "go\n"),
    show(closed_stdout_status_msgs, norm(P2, until_exit(P2))),
    %% port_close before the program exits: no exit_status message
    P3 = open_port({spawn, "cat"}, [exit_status]),
    show(port_close_with_exit_status, port_close(P3)),
    show(port_close_msgs, norm(P3, until_exit(P3))),
    %% {Port, close} with exit_status: closed, no status
    P4 = open_port({spawn, "cat"}, [exit_status]),
    P4 ! {self(), close},
    show(close_msg_with_exit_status, norm(P4, [receive M4 -> M4 end, receive M5 -> M5 end])),
    show(close_msg_nothing_else, flush()),
    ok.

trapped(Cmd, Opts) ->
    P = open_port(Cmd, Opts),
    norm(P, until_exit(P)).

until_exit(P) ->
    receive
        {'EXIT', P, _} = E -> [E];
        {P, _} = M -> [M | until_exit(P)]
    after 3000 -> [timeout]
    end.

%% A fresh, non-trapping owner opens the port (whose program waits for a line), monitors
%% it, lets the program go and reports every message up to the 'DOWN'.
untrapped(Cmd, Opts) ->
    Parent = self(),
    {Pid, Ref} = spawn_monitor(fun() ->
        P = open_port(Cmd, Opts),
        M = erlang:monitor(port, P),
        port_command(P, "go\n"),
        Msgs = until_down(P, M),
        Parent ! {self(), norm(P, Msgs), erlang:port_info(P)},
        receive stop -> ok end
    end),
    R = receive {Pid, Msgs, Info} -> {Msgs, {info_after, Info}} after 3000 -> timeout end,
    Alive = is_process_alive(Pid),
    Pid ! stop,
    receive {'DOWN', Ref, process, Pid, Why} -> {R, {owner_alive, Alive}, {owner_exit, Why}} end.

until_down(P, M) ->
    receive
        {'DOWN', M, port, P, Reason} -> [{'DOWN', Reason}];
        Msg -> [Msg | until_down(P, M)]
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
