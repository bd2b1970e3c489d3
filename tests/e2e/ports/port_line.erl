-module(port_line).
-export([main/0]).

%% {line, N}: {eol, Line} / {noeol, Part} messages, lines longer than N, the last line
%% without a newline, CR LF, empty lines, list vs binary, and the order against exit_status
%% and eof.
main() ->
    process_flag(trap_exit, true),
    show(basic, sh("printf 'ab\\ncd\\nef'", [{line, 10}])),
    show(longer_than_n, sh("printf 'abcdefghij\\nklm\\n'", [{line, 4}])),
    show(exactly_n, sh("printf 'abcd\\nabcde\\n'", [{line, 4}])),
    show(multiple_of_n, sh("printf 'abcdefgh\\n'", [{line, 4}])),
    show(n_is_1, sh("printf 'ab\\n\\n'", [{line, 1}])),
    show(binary, sh("printf 'abcdefghij\\nklm'", [{line, 4}, binary])),
    show(empty_lines, sh("printf '\\n\\nx\\n\\n'", [{line, 10}])),
    show(crlf, sh("printf 'ab\\r\\ncd\\n'", [{line, 10}])),
    show(cr_only_line, sh("printf '\\r\\n'", [{line, 10}])),
    show(cr_in_middle, sh("printf 'a\\rb\\n'", [{line, 10}])),
    show(cr_cr_lf, sh("printf 'a\\r\\r\\n'", [{line, 10}])),
    show(cr_at_end_no_lf, sh("printf 'ab\\r'", [{line, 10}])),
    show(crlf_after_n_bytes, sh("printf 'abc\\r\\n'", [{line, 3}])),
    show(no_trailing_newline, sh("printf 'abc'", [{line, 10}])),
    show(no_output, sh("true", [{line, 10}])),
    show(line_wins_over_stream, sh("printf 'abcdef\\n'", [stream, {line, 4}])),
    show(line_before_stream, sh("printf 'abcdef\\n'", [{line, 4}, stream])),
    show(last_line_option_wins, sh("printf 'abcdef\\n'", [{line, 4}, {line, 2}])),
    show(stderr_to_stdout, sh("echo err 1>&2; echo out", [{line, 10}, stderr_to_stdout])),
    %% with exit_status the remainder of an unterminated line comes after the status
    show(exit_status_complete_lines, sh("printf 'ab\\ncd\\n'; exit 2", [{line, 10}, exit_status])),
    show(exit_status_partial_last, sh("printf 'ab\\ncd\\nef'; exit 2", [{line, 10}, exit_status])),
    show(exit_status_long_partial, sh("printf 'abcdefghij'", [{line, 4}, exit_status])),
    %% with eof
    show(eof_partial_last, eof_sh("printf 'ab\\ncd'", [{line, 10}, eof])),
    show(eof_long_partial, eof_sh("printf 'abcde'", [{line, 4}, eof])),
    show(eof_and_status_partial, eof_sh("printf 'ab\\ncd'; exit 1", [{line, 10}, eof, exit_status])),
    %% lines sent in by the owner come back line by line through cat
    P = open_port({spawn, "cat"}, [{line, 8}]),
    port_command(P, "one\ntwo\nthree is long\n"),
    show(cat_lines, norm(P, [recv(P) || _ <- lists:seq(1, 4)])),
    port_command(P, "par"),
    port_command(P, "tial\n"),
    show(cat_line_joined, norm(P, recv(P))),
    port_close(P),
    show(cat_close, norm(P, until_exit(P))),
    ok.

sh(Script, Opts) ->
    P = open_port({spawn_executable, "/bin/sh"}, [{args, ["-c", Script]} | Opts]),
    norm(P, until_exit(P)).

eof_sh(Script, Opts) ->
    P = open_port({spawn_executable, "/bin/sh"}, [{args, ["-c", Script]} | Opts]),
    Msgs = until_eof(P),
    Closed = port_close(P),
    norm(P, Msgs ++ [{port_close, Closed} | until_exit(P)]).

recv(P) -> receive {P, _} = M -> M after 3000 -> timeout end.

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

show(Name, Value) -> io:format("~p ~p~n", [Name, Value]).

norm(P, L) when is_list(L) -> [norm(P, X) || X <- L];
norm(P, T) when is_tuple(T) -> list_to_tuple([norm(P, X) || X <- tuple_to_list(T)]);
norm(P, P) -> port;
norm(_, S) when S =:= self() -> self;
norm(_, X) when is_pid(X) -> pid;
norm(_, X) when is_port(X) -> other_port;
norm(_, X) when is_reference(X) -> ref;
norm(_, X) -> X.
