-module(port_os_cmd).
-export([main/0]).

%% os:cmd/1,2 (OTP's os module runs the command through a port to /bin/sh).
main() ->
    process_flag(trap_exit, true),
    Before = erlang:ports(),
    show(echo, os:cmd("echo hello")),
    show(multi_line, os:cmd("printf 'a\\nb\\nc\\n'")),
    show(no_newline, os:cmd("printf abc")),
    show(empty_output, os:cmd("true")),
    show(failing_command, os:cmd("false")),
    show(exit_code_ignored, os:cmd("echo before; exit 3")),
    show(stderr_captured, os:cmd("echo err 1>&2")),
    show(stdout_and_stderr, os:cmd("echo out; echo err 1>&2; echo out2")),
    show(not_found, os:cmd("nonexistent_cmd_beamlet_xyz")),
    show(stdin_is_dev_null, os:cmd("cat")),
    show(pipeline, os:cmd("printf 'x\\ny\\n' | head -n 1")),
    show(shell_vars, os:cmd("A=1; B=2; echo $A$B")),
    show(several_commands, os:cmd("echo one; echo two")),
    show(multi_line_command, os:cmd("echo one\necho two")),
    show(nul_in_output, os:cmd("printf 'a\\000b'")),
    show(eot_char_in_output, os:cmd("printf 'a\\004b'")),
    io:format("~p ~w~n", [binary_output_bytes, os:cmd("printf '\\377\\376'")]),
    io:format("~p ~w~n", [utf8_output_decoded, os:cmd("printf '\\303\\251\\316\\261'")]),
    io:format("~p ~w~n", [unicode_command, os:cmd([$e, $c, $h, $o, $\s, 233, 945])]),
    show(atom_command, os:cmd('echo atom')),
    show(deep_list_command, os:cmd(["echo", [" deep"], " list"])),
    show(trailing_nul_ok, os:cmd("echo trailing" ++ [0])),
    show(cwd_inherited, os:cmd("pwd") =:= element(2, file:get_cwd()) ++ "\n"),
    show(big_output_length, length(os:cmd("i=0; while [ $i -lt 2000 ]; do echo 0123456789; i=$((i+1)); done"))),
    %% os:cmd/2 with max_size
    show(max_size_4, os:cmd("echo 1234567890", #{max_size => 4})),
    show(max_size_0, os:cmd("echo 123", #{max_size => 0})),
    show(max_size_exact, os:cmd("printf 123", #{max_size => 3})),
    show(max_size_larger, os:cmd("echo 123", #{max_size => 100})),
    show(max_size_infinity, os:cmd("echo 123", #{max_size => infinity})),
    show(empty_opts, os:cmd("echo 123", #{})),
    show(unknown_opt_ignored, os:cmd("echo 123", #{foo => 1})),
    %% bad arguments
    show(binary_command, try_(fun() -> os:cmd(<<"echo bin">>) end)),
    show(integer_command, try_(fun() -> os:cmd(42) end)),
    show(nul_in_command, try_(fun() -> os:cmd("echo a" ++ [0] ++ "b") end)),
    show(improper_list_command, try_(fun() -> os:cmd([$e | foo]) end)),
    show(opts_not_map, try_(fun() -> os:cmd("echo 1", [{max_size, 1}]) end)),
    %% os:cmd leaves no port and no message behind, even for a trapping caller
    show(ports_delta, length(erlang:ports() -- Before)),
    show(mailbox, flush()),
    %% os:cmd from several processes at once
    Parent = self(),
    Pids = [spawn(fun() -> Parent ! {self(), os:cmd("echo " ++ integer_to_list(I))} end) || I <- lists:seq(1, 4)],
    show(concurrent, [receive {Pid, Out} -> Out after 5000 -> timeout end || Pid <- Pids]),
    ok.

flush() -> receive M -> [M | flush()] after 20 -> [] end.

try_(F) -> try F() catch C:R -> {C, R} end.

show(Name, Value) -> io:format("~p ~p~n", [Name, Value]).
