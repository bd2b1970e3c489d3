%% open_port(FileName, Options) with an atom or a string: OTP 25's vanilla driver, the file
%% itself as the port (fun_SUITE opens its scratch ports this way): written and truncated with
%% `out`, its name as the port's name, einval when the file cannot be opened, badarg for a
%% command with a fun in it.
-module(port_vanilla).
-export([main/0]).

main() ->
    Dir = filename:join(os:getenv("TMPDIR", "/tmp"), "beamlet_vanilla_" ++ os:getpid()),
    ok = file:make_dir(Dir),
    File = filename:join(Dir, "vanilla_file"),
    P = open_port(File, [out]),
    {name, Name} = erlang:port_info(P, name),
    io:format("named after the file: ~p~n", [Name =:= File]),
    io:format("~p~n", [[erlang:port_info(P, I) || I <- [input, output, os_pid]]]),
    true = port_command(P, "hello\n"),
    true = port_command(P, [<<"wor">>, $l, "d\n"]),
    port_close(P),
    io:format("~p~n", [file:read_file(File)]),
    Q = open_port(File, [out]),
    true = port_command(Q, "again\n"),
    port_close(Q),
    io:format("truncated: ~p~n", [file:read_file(File)]),
    io:format("~p~n", [reason(catch open_port(filename:join(Dir, "no/such/dir"), [out]))]),
    io:format("~p~n", [reason(catch port_command(open_port(File, [out]), [1 | fun() -> 45 end]))]),
    io:format("~p~n", [reason(catch open_port([], [out]))]),
    ok = file:delete(File),
    ok = file:del_dir(Dir).

reason({'EXIT', {Reason, _}}) -> Reason;
reason(Other) -> Other.
