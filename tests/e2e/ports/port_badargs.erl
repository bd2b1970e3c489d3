-module(port_badargs).
-export([main/0, log/2]).

%% Bad arguments: open_port with missing / non-executable programs, bad commands and bad
%% option lists; port_command/port_close/port_connect/port_info/link/exit on closed ports
%% and non-ports; port_command with data that is not an iolist and with bad options.
%% ERTS logs "Bad value on output port '...'" (asynchronously) for bad output data; a logger
%% handler of ours catches it (instead of the default handler, whose output has a
%% timestamp). Checks that are expected to log wait for that many events.
main() ->
    process_flag(trap_exit, true),
    ok = logger:add_handler(beamlet_capture, ?MODULE, #{config => #{to => self()}}),
    ok = logger:remove_handler(default),
    Before = own_ports(),
    %% missing or unusable executables
    show(exe_missing, open(fun() -> open_port({spawn_executable, "/nonexistent"}, []) end)),
    show(exe_missing_dir, open(fun() -> open_port({spawn_executable, "/nonexistent/prog"}, []) end)),
    show(exe_not_executable, open(fun() -> open_port({spawn_executable, "/etc/passwd"}, []) end)),
    show(exe_not_a_dir, open(fun() -> open_port({spawn_executable, "/etc/passwd/prog"}, []) end)),
    show(exe_relative_missing, open(fun() -> open_port({spawn_executable, "no_such_prog_beamlet"}, []) end)),
    show(exe_atom_missing, open(fun() -> open_port({spawn_executable, no_such_prog_beamlet}, []) end)),
    show(exe_big_char, open(fun() -> open_port({spawn_executable, [256]}, []) end)),
    %% a directory passes the check; the exec fails in the child: exit status 13 (EACCES)
    show(exe_directory, open(fun() -> open_port({spawn_executable, "/"}, [exit_status]) end)),
    %% bad command terms
    show(spawn_integer, open(fun() -> open_port({spawn, 42}, []) end)),
    show(spawn_tuple, open(fun() -> open_port({spawn, {"cat"}}, []) end)),
    show(spawn_improper, open(fun() -> open_port({spawn, [$c | at]}, []) end)),
    show(spawn_empty, open(fun() -> open_port({spawn, ""}, []) end)),
    show(spawn_empty_binary, open(fun() -> open_port({spawn, <<>>}, []) end)),
    show(spawn_nul, open(fun() -> open_port({spawn, "cat" ++ [0]}, []) end)),
    show(exe_empty, open(fun() -> open_port({spawn_executable, ""}, []) end)),
    show(exe_integer, open(fun() -> open_port({spawn_executable, 42}, []) end)),
    show(exe_nul, open(fun() -> open_port({spawn_executable, "/bin/c" ++ [0] ++ "at"}, []) end)),
    show(unknown_tuple, open(fun() -> open_port({foo, "cat"}, []) end)),
    show(short_tuple, open(fun() -> open_port({spawn}, []) end)),
    show(long_tuple, open(fun() -> open_port({spawn, "cat", x}, []) end)),
    show(integer_name, open(fun() -> open_port(42, []) end)),
    show(unknown_driver, open(fun() -> open_port({spawn_driver, "no_such_driver_beamlet"}, []) end)),
    show(fd_atom, open(fun() -> open_port({fd, a, 1}, []) end)),
    %% bad option lists
    Cat = {spawn, "cat"},
    [show({opts, Opts}, open(fun() -> open_port(Cat, Opts) end)) ||
        Opts <- [foo, {binary}, #{}, "binary", [binary | foo], [bogus], [42], [{}],
                 [{packet, 3}], [{packet, 0}], [{packet, -1}], [{packet, foo}], [{packet}],
                 [{line, 0}], [{line, -1}], [{line, foo}], [{line, 1 bsl 64}],
                 [{args, ["x"]}], [{arg0, "x"}], [{cd, 42}], [{cd, "/" ++ [0]}],
                 [{env, foo}], [{env, [foo]}], [{env, [{"A=B", "x"}]}], [{env, [{"A", foo}]}],
                 [{env, [{"A", 1}]}], [{env, [{"A", true}]}], [{env, [{<<"A">>, "x"}]}],
                 [{parallelism, foo}], [{busy_limits_port, foo}], [{busy_limits_msgq, foo}],
                 [nouse_stdio, stderr_to_stdout], [stderr_to_stdout, nouse_stdio],
                 [{line, 2}, {packet, 2}], [{packet, 2}, {line, 2}], [{spawn, "cat"}]]],
    Exe = {spawn_executable, "/bin/echo"},
    [show({exe_opts, Opts}, open(fun() -> open_port(Exe, Opts) end)) ||
        Opts <- [[{args, foo}], [{args, ["a" | b]}], [{args, [42]}], [{args, ["a" ++ [0]]}],
                 [{arg0, 42}], [{arg0, "a" ++ [0]}]]],
    show(ports_leaked, length(own_ports() -- Before)),

    %% operations on a closed port
    C = open_port({spawn, "cat"}, []),
    true = port_close(C),
    receive {'EXIT', C, normal} -> ok end,
    show(closed_port_command, try_(fun() -> port_command(C, "x") end)),
    show(closed_port_command3, try_(fun() -> port_command(C, "x", []) end)),
    show(closed_port_command3_nosuspend, try_(fun() -> port_command(C, "x", [nosuspend]) end)),
    show(closed_port_close, try_(fun() -> port_close(C) end)),
    show(closed_port_connect, try_(fun() -> port_connect(C, self()) end)),
    show(closed_port_info, try_(fun() -> erlang:port_info(C) end)),
    show(closed_port_info_name, try_(fun() -> erlang:port_info(C, name) end)),
    show(closed_unlink, try_(fun() -> unlink(C) end)),
    show(closed_exit, try_(fun() -> exit(C, kill) end)),
    show(closed_link, try_(fun() -> link(C) end)),
    show(closed_link_msg, norm(C, recv())),
    show(closed_send_close, norm(C, C ! {self(), close})),
    show(closed_send_command, norm(C, C ! {self(), {command, "x"}})),
    show(closed_send_garbage, norm(C, C ! garbage)),
    show(closed_register, try_(fun() -> register(beamlet_closed_port, C) end)),
    show(closed_nothing_received, flush()),
    %% operations on things that are not ports
    show(pid_port_command, try_(fun() -> port_command(self(), "x") end)),
    show(atom_port_command, try_(fun() -> port_command(not_registered_beamlet, "x") end)),
    show(ref_port_command, try_(fun() -> port_command(make_ref(), "x") end)),
    show(pid_port_close, try_(fun() -> port_close(self()) end)),
    show(atom_port_close, try_(fun() -> port_close(not_registered_beamlet) end)),
    show(pid_port_connect, try_(fun() -> port_connect(self(), self()) end)),
    show(pid_port_info, try_(fun() -> erlang:port_info(self()) end)),
    show(pid_port_info_name, try_(fun() -> erlang:port_info(self(), name) end)),
    show(atom_port_info, try_(fun() -> erlang:port_info(not_registered_beamlet) end)),
    show(list_port_info, try_(fun() -> erlang:port_info("#Port<0.1>") end)),

    %% bad data and options for port_command on an open port
    P = open_port({spawn, "cat"}, []),
    [show({port_command, norm(P, D)}, cmd(fun() -> port_command(P, D) end, 1)) ||
        D <- [foo, 42, [256], [-1], [1 | 2], [[a]], {<<"x">>}, <<"ab", 1:1>>, self()]],
    [show({port_command3, O}, cmd(fun() -> port_command(P, "x", O) end, 0)) ||
        O <- [[bogus], foo, [force | x], [{force, true}], [force], [force, nosuspend]]],
    show(port_command3_bad_data_and_opts, cmd(fun() -> port_command(P, foo, [bogus]) end, 0)),
    show(port_command3_bad_data_nosuspend, cmd(fun() -> port_command(P, foo, [nosuspend]) end, 1)),
    show(port_command3_bad_data_force, cmd(fun() -> port_command(P, foo, [force]) end, 0)),
    show(port_still_works, cmd(fun() -> port_command(P, "ok") end, 0)),
    show(port_still_works_reply, norm(P, recv())),
    show(port_info_bad_item, try_(fun() -> erlang:port_info(P, no_such_item) end)),
    show(port_connect_bad_pid, try_(fun() -> port_connect(P, not_a_pid) end)),
    port_close(P),
    show(final, norm(P, recv())),
    show(final_nothing_else, flush()),
    timer:sleep(100),
    show(no_more_logs, logs_received()),
    ok = logger:remove_handler(beamlet_capture),
    ok.

%% A logger handler that forwards log events to a process.
log(#{level := Level, msg := Msg}, #{config := #{to := Pid}}) ->
    Text = case Msg of
               {report, R} -> {report, R};
               {string, S} -> lists:flatten(io_lib:format("~ts", [S]));
               {F, A} -> lists:flatten(io_lib:format(F, A))
           end,
    Pid ! {'$log', Level, Text}.

%% The next N log events (each waited for up to 2 s).
logs(0) -> [];
logs(N) ->
    receive {'$log', Level, Text} -> [{Level, Text} | logs(N - 1)] after 2000 -> [no_log] end.

logs_received() ->
    receive {'$log', Level, Text} -> [{Level, Text} | logs_received()] after 0 -> [] end.

open(F) ->
    try
        P = F(),
        {opened, norm(P, until_exit(P))}
    catch C:E -> {C, E}
    end.

cmd(F, NLogs) ->
    R = try_(F),
    case logs(NLogs) of [] -> R; L -> {R, {logged, L}} end.

until_exit(P) ->
    receive
        {'EXIT', P, _} = E -> [E];
        {P, _} = M -> [M | until_exit(P)]
    after 3000 -> [timeout]
    end.

recv() -> receive X -> X after 3000 -> timeout end.

flush() -> receive M -> [M | flush()] after 20 -> [] end.

try_(F) -> try F() catch C:R -> {C, R} end.

show(Name, Value) -> io:format("~p ~p~n", [Name, Value]).

norm(P, [H | T]) -> [norm(P, H) | norm(P, T)];
norm(P, T) when is_tuple(T) -> list_to_tuple([norm(P, X) || X <- tuple_to_list(T)]);
norm(P, P) -> port;
norm(_, S) when S =:= self() -> self;
norm(_, X) when is_pid(X) -> pid;
norm(_, X) when is_port(X) -> other_port;
norm(_, X) when is_reference(X) -> ref;
norm(_, X) -> X.

%% The ports this process opened: kernel's standard_error opens its port from a process of its
%% own that may run after main/0 has started (OTP's standard_error:start_port/1 spawns it).
own_ports() ->
    Self = self(),
    [P || P <- erlang:ports(), erlang:port_info(P, connected) =:= {connected, Self}].
