-module(port_stdio).
-export([main/0]).

%% How the program's file descriptors are set up: use_stdio (default), nouse_stdio (fds 3
%% and 4), stderr_to_stdout, in-only and out-only ports.
main() ->
    process_flag(trap_exit, true),
    Sh = {spawn_executable, "/bin/sh"},
    %% default: stdin/stdout are the port's pipes, stderr is inherited (not captured)
    show(use_stdio_roundtrip, roundtrip({spawn, "cat"}, [use_stdio])),
    show(stderr_to_stdout, run(Sh, [{args, ["-c", "echo out; echo err 1>&2; echo out2"]}, stderr_to_stdout, exit_status])),
    show(stderr_to_stdout_only_err, run(Sh, [{args, ["-c", "echo err 1>&2"]}, stderr_to_stdout, exit_status])),
    %% nouse_stdio: the program reads the port's data from fd 3 and writes to fd 4;
    %% its stdin is /dev/null
    show(nouse_stdio_roundtrip, roundtrip(Sh, [{args, ["-c", "cat <&3 >&4"]}, nouse_stdio])),
    show(nouse_stdio_output, run(Sh, [{args, ["-c", "echo to fd4 >&4; exit 7"]}, nouse_stdio, exit_status])),
    show(nouse_stdio_stdin, run(Sh, [{args, ["-c", "read x; echo \"read=$?\" >&4"]}, nouse_stdio, exit_status])),
    show(nouse_stdio_line, begin
        PL = open_port(Sh, [{args, ["-c", "printf 'a\\nbc' >&4"]}, nouse_stdio, {line, 10}, exit_status]),
        norm(PL, until_exit(PL))
    end),
    %% in only: output from the program is received; its stdin is /dev/null
    show(in_only, run(Sh, [{args, ["-c", "read x; echo \"read=$?\""]}, in, exit_status])),
    show(in_only_info, begin
        P = open_port({spawn, "cat"}, [in, exit_status]),
        %% cat reads /dev/null and exits at once
        norm(P, until_exit(P))
    end),
    %% in only: writing to it is accepted, then the port exits with ebadf
    P1 = open_port({spawn, "sleep 0.5"}, [in]),
    show(in_only_port_command, port_command(P1, "x")),
    show(in_only_port_command_exit, norm(P1, until_exit(P1))),
    P2 = open_port({spawn, "sleep 0.5"}, [in]),
    P2 ! {self(), {command, "x"}},
    show(in_only_command_msg_exit, norm(P2, until_exit(P2))),
    %% out only: the port writes, never reads (no data, no eof, no exit_status); it stays
    %% open until closed
    P3 = open_port({spawn, "cat >/dev/null"}, [out, exit_status]),
    show(out_only_port_command, port_command(P3, "abc")),
    show(out_only_counters, wait_output(P3, 3)),
    show(out_only_input, erlang:port_info(P3, input)),
    show(out_only_no_msgs, flush()),
    show(out_only_close, port_close(P3)),
    show(out_only_closed, norm(P3, until_exit(P3))),
    %% both in and out is the default
    show(in_and_out, roundtrip({spawn, "cat"}, [in, out])),
    show(out_and_in, roundtrip({spawn, "cat"}, [out, in])),
    %% hide is accepted and does nothing here
    show(hide, roundtrip({spawn, "cat"}, [hide])),
    %% a program that redirects its own stdout away: the port sees EOF at once
    show(stdout_redirected_away, run({spawn, "cat >/dev/null"}, [])),
    ok.

roundtrip(Cmd, Opts) ->
    P = open_port(Cmd, Opts),
    port_command(P, "round trip"),
    D = recv_data(P, 10),
    C = port_close(P),
    {D, C, norm(P, until_exit(P))}.

run(Cmd, Opts) ->
    P = open_port(Cmd, Opts),
    collect(P, []).

collect(P, Acc) ->
    receive
        {P, {data, D}} -> collect(P, [D | Acc]);
        {P, {exit_status, S}} ->
            receive {'EXIT', P, normal} -> ok after 3000 -> ok end,
            case Acc of
                [{_, _} | _] -> {lists:reverse(Acc), S};
                _ -> {lists:append(lists:reverse(Acc)), S}
            end;
        {'EXIT', P, R} -> {lists:reverse(Acc), {exit, R}}
    after 3000 -> {timeout, lists:reverse(Acc)}
    end.

recv_data(_P, N) when N =< 0 -> [];
recv_data(P, N) ->
    receive {P, {data, D}} -> D ++ recv_data(P, N - length(D)) after 3000 -> timeout end.

wait_output(P, N) -> wait_output(P, N, 300).
wait_output(P, _N, 0) -> erlang:port_info(P, output);
wait_output(P, N, K) ->
    case erlang:port_info(P, output) of
        {output, N} = O -> O;
        _ -> timer:sleep(10), wait_output(P, N, K - 1)
    end.

until_exit(P) ->
    receive
        {'EXIT', P, _} = E -> [E];
        {P, _} = M -> [M | until_exit(P)]
    after 3000 -> [timeout]
    end.

flush() -> receive M -> [M | flush()] after 20 -> [] end.

show(Name, Value) -> io:format("~p ~p~n", [Name, Value]).

norm(P, [H | T]) -> [norm(P, H) | norm(P, T)];
norm(P, T) when is_tuple(T) -> list_to_tuple([norm(P, X) || X <- tuple_to_list(T)]);
norm(P, P) -> port;
norm(_, S) when S =:= self() -> self;
norm(_, X) when is_pid(X) -> pid;
norm(_, X) when is_port(X) -> other_port;
norm(_, X) when is_reference(X) -> ref;
norm(_, X) -> X.
