-module(port_spawn_opts).
-export([main/0]).

%% {spawn, Command} and {spawn_executable, Path} with the options args, arg0, cd and env.
%% Each run collects all the output, the exit status and the exit signal of the port.
main() ->
    process_flag(trap_exit, true),
    Sh = {spawn_executable, "/bin/sh"},
    %% {spawn, Cmd}: run by /bin/sh as "exec Cmd", so shell syntax works but what follows
    %% a first simple command separated by ';' never runs (the shell was replaced)
    show(spawn_echo, run({spawn, "echo hello world"}, [])),
    show(spawn_shell_syntax, run({spawn, "echo $((6 * 7)) 'a  b'"}, [])),
    show(spawn_exec_semantics, run({spawn, "echo hi; exit 3"}, [])),
    show(spawn_false_then_true, run({spawn, "false; true"}, [])),
    show(spawn_subshell_exit, run({spawn, "sh -c 'exit 3'"}, [])),
    show(spawn_not_found, run({spawn, "nonexistent_cmd_beamlet 2>/dev/null"}, [])),
    show(spawn_binary_cmd, run({spawn, <<"echo from binary">>}, [])),
    show(spawn_atom_cmd, run({spawn, echo}, [])),
    show(spawn_deep_list_cmd, run({spawn, ["echo", [" deep"], " list"]}, [])),
    io:format("~p ~w~n", [spawn_unicode_cmd, run({spawn, [$e, $c, $h, $o, $\s, 233, 945]}, [])]),
    show(spawn_name, port_name({spawn, "cat"}, [])),
    show(spawn_name_args, port_name({spawn, "cat -"}, [])),
    %% {spawn_executable, Path}: no shell, args passed as they are
    show(exe_no_args, run({spawn_executable, "/bin/echo"}, [])),
    show(exe_args, run({spawn_executable, "/bin/echo"}, [{args, ["a", "b c", "", "*", "$HOME"]}])),
    show(exe_args_each, run(Sh, [{args, ["-c", "for a in \"$@\"; do echo \"[$a]\"; done", "zero", "a b", "", "c*"]}])),
    show(exe_args_binaries, run(Sh, [{args, [<<"-c">>, <<"echo $1">>, "zero", <<"bin">>]}])),
    show(exe_args_deep, run({spawn_executable, "/bin/echo"}, [{args, [["a", "b"], ["c", [$d]]]}])),
    show(exe_args_atom, run({spawn_executable, "/bin/echo"}, [{args, [foo, bar]}])),
    show(exe_args_empty_list, run({spawn_executable, "/bin/echo"}, [{args, []}])),
    show(exe_binary_path, run({spawn_executable, <<"/bin/echo">>}, [{args, ["binpath"]}])),
    show(exe_path_from_find, run({spawn_executable, os:find_executable("echo")}, [{args, ["found"]}])),
    show(exe_name, port_name({spawn_executable, "/bin/cat"}, [])),
    show(exe_name_binary, port_name({spawn_executable, <<"/bin/cat">>}, [])),
    show(exe_name_args, port_name({spawn_executable, "/bin/cat"}, [{args, ["-"]}, {arg0, "kitty"}])),
    %% arg0 (argv[0]); the default is the path as given
    show(arg0_default, run(Sh, [{args, ["-c", "echo $0"]}])),
    show(arg0_default_dotted, run({spawn_executable, "/bin/../bin/sh"}, [{args, ["-c", "echo $0"]}])),
    show(arg0_set, run(Sh, [{args, ["-c", "echo $0"]}, {arg0, "my name"}])),
    show(arg0_binary, run(Sh, [{args, ["-c", "echo $0"]}, {arg0, <<"binzero">>}])),
    show(arg0_atom, run(Sh, [{args, ["-c", "echo $0"]}, {arg0, zero}])),
    %% cd
    show(cd_root, run(Sh, [{args, ["-c", "pwd"]}, {cd, "/"}])),
    show(cd_spawn, run({spawn, "pwd"}, [{cd, "/usr"}])),
    show(cd_binary, run({spawn, "pwd"}, [{cd, <<"/">>}])),
    show(cd_inherited, begin {ok, Cwd} = file:get_cwd(), run({spawn, "pwd"}, []) =:= {Cwd ++ "\n", 0, normal} end),
    %% env: set, override, unset with false, unset with "", repeated names, repeated options
    os:putenv("BEAMLET_PT_INHERITED", "inherited"),
    Show = "echo \"${BEAMLET_PT_INHERITED-unset} ${BEAMLET_PT_NEW-unset}\"",
    show(env_inherited, run({spawn, Show}, [])),
    show(env_new, run({spawn, Show}, [{env, [{"BEAMLET_PT_NEW", "new value"}]}])),
    show(env_override, run({spawn, Show}, [{env, [{"BEAMLET_PT_INHERITED", "over"}]}])),
    show(env_unset_false, run({spawn, Show}, [{env, [{"BEAMLET_PT_INHERITED", false}]}])),
    show(env_unset_empty, run({spawn, Show}, [{env, [{"BEAMLET_PT_INHERITED", ""}]}])),
    show(env_unset_missing, run({spawn, Show}, [{env, [{"BEAMLET_PT_NEW", false}]}])),
    show(env_same_name_twice, run({spawn, Show}, [{env, [{"BEAMLET_PT_NEW", "a"}, {"BEAMLET_PT_NEW", "b"}]}])),
    show(env_option_twice, run({spawn, Show}, [{env, [{"BEAMLET_PT_NEW", "a"}]}, {env, [{"BEAMLET_PT_INHERITED", false}]}])),
    show(env_empty_list, run({spawn, Show}, [{env, []}])),
    show(env_exe, run(Sh, [{args, ["-c", Show]}, {env, [{"BEAMLET_PT_NEW", "exe"}]}])),
    show(env_value_with_equals, run({spawn, Show}, [{env, [{"BEAMLET_PT_NEW", "a=b c"}]}])),
    show(env_parent_unchanged, os:getenv("BEAMLET_PT_NEW")),
    ok.

%% Runs a command to its end; returns {Output, ExitStatus, ExitReason}.
run(Cmd, Opts) ->
    P = open_port(Cmd, [exit_status | Opts]),
    collect(P, []).

collect(P, Acc) ->
    receive
        {P, {data, D}} -> collect(P, [D | Acc]);
        {P, {exit_status, S}} ->
            receive
                {'EXIT', P, R} -> {lists:append(lists:reverse(Acc)), S, R}
            after 3000 -> {lists:append(lists:reverse(Acc)), S, no_exit}
            end
    after 3000 -> {timeout, lists:reverse(Acc)}
    end.

port_name(Cmd, Opts) ->
    P = open_port(Cmd, Opts),
    {name, N} = erlang:port_info(P, name),
    true = port_close(P),
    receive {'EXIT', P, _} -> ok end,
    N.

show(Name, Value) -> io:format("~p ~p~n", [Name, Value]).
