-module(std_file_open).
-export([main/0]).

%% Files opened with file:open/2: io server files (list and binary modes, utf8 encoding,
%% io:format/get_line/read on them, consult/path_consult), raw files (read_line, pread/pwrite
%% lists, position forms), append/exclusive/read_write modes, the owner rules (a raw file is its
%% opener's; an io server file closes when its owner exits), and OTP's errors.
t(Name, F) ->
    R = try F() catch C:E -> {C, E} end,
    io:format("~p: ~p~n", [Name, R]).

main() ->
    Dir = "/tmp/beamlet_std_file_open_" ++ os:getpid() ++ "_" ++ integer_to_list(erlang:unique_integer([positive])),
    ok = file:make_dir(Dir),
    F = filename:join(Dir, "a.txt"),
    ok = file:write_file(F, <<"one\ntwo\r\nthree">>),
    t(io_list_lines, fun() ->
        {ok, Fd} = file:open(F, [read]),
        Ls = [io:get_line(Fd, '') || _ <- [1, 2, 3, 4]],
        ok = file:close(Fd), Ls end),
    t(io_binary_read, fun() ->
        {ok, Fd} = file:open(F, [read, binary]),
        R = [file:read(Fd, 5), file:read_line(Fd), file:read(Fd, 100), file:read(Fd, 1)],
        ok = file:close(Fd), R end),
    t(raw_lines, fun() ->
        {ok, Fd} = file:open(F, [read, raw]),
        R = [file:read_line(Fd), file:read_line(Fd), file:read_line(Fd), file:read_line(Fd)],
        ok = file:close(Fd), R end),
    t(raw_binary, fun() ->
        {ok, Fd} = file:open(F, [read, raw, binary]),
        R = [file:read(Fd, 3), file:position(Fd, cur), file:position(Fd, {eof, -5}), file:read(Fd, 10),
             file:pread(Fd, [{0, 3}, {4, 3}, {100, 2}]), file:position(Fd, {bof, -1})],
        ok = file:close(Fd), R end),
    t(read_write, fun() ->
        {ok, Fd} = file:open(F, [read, write, binary]),
        ok = file:pwrite(Fd, 0, <<"ONE">>),
        ok = file:pwrite(Fd, [{4, <<"TWO">>}]),
        {ok, _} = file:position(Fd, eof),
        ok = file:write(Fd, <<"\nfour">>),
        R = file:pread(Fd, 0, 100),
        ok = file:close(Fd), R end),
    t(append, fun() ->
        {ok, Fd} = file:open(F, [append]),
        ok = io:format(Fd, "~nfive ~p~n", [5]),
        ok = file:close(Fd), file:read_file(F) end),
    t(truncate, fun() ->
        {ok, Fd} = file:open(F, [read, write]),
        {ok, 3} = file:position(Fd, 3),
        ok = file:truncate(Fd),
        ok = file:close(Fd), file:read_file(F) end),
    G = filename:join(Dir, "u.txt"),
    t(utf8, fun() ->
        {ok, Fd} = file:open(G, [write, {encoding, utf8}]),
        ok = io:put_chars(Fd, "h\x{e9}llo \x{20ac}\n"),
        ok = io:format(Fd, "~ts~n", ["\x{3bb}"]),
        ok = file:close(Fd),
        {ok, Fd2} = file:open(G, [read, {encoding, utf8}]),
        R = [io:get_line(Fd2, ''), io:get_line(Fd2, ''), io:get_line(Fd2, '')],
        ok = file:close(Fd2),
        {R, file:read_file(G)} end),
    t(io_read_terms, fun() ->
        ok = file:write_file(G, "{a, 1}.\n[b].\n"),
        {ok, Fd} = file:open(G, [read]),
        R = [io:read(Fd, ''), io:read(Fd, ''), io:read(Fd, '')],
        ok = file:close(Fd), R end),
    t(consult, fun() -> file:consult(G) end),
    t(path_consult, fun() -> {ok, Ts, Full} = file:path_consult([Dir], "u.txt"), {Ts, Full =:= G} end),
    t(exclusive, fun() -> file:open(G, [write, exclusive]) end),
    t(missing, fun() -> file:open(filename:join(Dir, "nope"), [read]) end),
    t(missing_raw, fun() -> file:open(filename:join(Dir, "nope"), [read, raw]) end),
    t(directory, fun() -> file:open(Dir, [read]) end),
    t(bad_mode, fun() -> {ok, P} = file:open(G, [bogus]), ok = file:close(P), is_pid(P) end),
    t(closed, fun() ->
        {ok, Fd} = file:open(G, [read]),
        ok = file:close(Fd),
        [file:read(Fd, 1), file:close(Fd)] end),
    t(raw_other_process, fun() ->
        {ok, Fd} = file:open(G, [read, raw]),
        Self = self(),
        spawn(fun() -> Self ! {other, try file:read(Fd, 2) catch error:E -> {raised, E} end} end),
        R = receive {other, X} -> X end,
        ok = file:close(Fd), R end),
    t(owner_exit_closes, fun() ->
        Self = self(),
        {Pid, M} = spawn_monitor(fun() -> {ok, Fd} = file:open(G, [read]), Self ! {fd, Fd} end),
        Fd = receive {fd, X} -> X end,
        receive {'DOWN', M, process, Pid, _} -> ok end,
        timer:sleep(20),
        {is_process_alive(Fd), file:read(Fd, 1)} end),
    t(write_read_only, fun() ->
        {ok, Fd} = file:open(G, [read]),
        R = file:write(Fd, "x"),
        ok = file:close(Fd), R end),
    t(copy, fun() -> {file:copy(G, F), file:read_file(F)} end),
    [file:delete(X) || X <- [F, G]],
    ok = file:del_dir(Dir),
    ok.
