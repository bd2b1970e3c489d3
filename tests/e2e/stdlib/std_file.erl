-module(std_file).
-export([main/0]).

%% file basics on a uniquely named temporary file under /tmp: write_file/2,3 (append),
%% read_file, read_file_info (type/size only), consult of written terms, open/write/read/
%% position/close, read_line, rename, delete, errors for missing files (enoent) and
%% directories (eisdir), make_dir/del_dir, list_dir of a fresh dir, and get_cwd's shape.
main() ->
    Dir = "/tmp/beamlet_std_file_" ++ os:getpid() ++ "_" ++ integer_to_list(erlang:unique_integer([positive])),
    F = filename:join(Dir, "data.txt"),
    F2 = filename:join(Dir, "renamed.txt"),
    t(make_dir, fun() -> file:make_dir(Dir) end),
    t(make_dir_again, fun() -> file:make_dir(Dir) end),
    t(read_missing, fun() -> file:read_file(F) end),
    t(write_file, fun() -> file:write_file(F, <<"hello\nworld\n">>) end),
    t(read_file, fun() -> file:read_file(F) end),
    t(write_iolist, fun() -> file:write_file(F, ["line one", $\n, [<<"line two">>, "\n"]]) end),
    t(read_back, fun() -> file:read_file(F) end),
    t(append, fun() -> file:write_file(F, "appended\n", [append]) end),
    t(read_appended, fun() -> file:read_file(F) end),
    t(file_info, fun() -> {ok, I} = file:read_file_info(F), {element(2, I), element(3, I)} end),
    t(open_read_lines, fun() ->
        {ok, Fd} = file:open(F, [read]),
        L1 = file:read_line(Fd),
        L2 = file:read_line(Fd),
        L3 = file:read_line(Fd),
        L4 = file:read_line(Fd),
        ok = file:close(Fd),
        [L1, L2, L3, L4] end),
    t(open_binary_position, fun() ->
        {ok, Fd} = file:open(F, [read, binary]),
        A = file:read(Fd, 4),
        P = file:position(Fd, {cur, 1}),
        B = file:read(Fd, 3),
        P2 = file:position(Fd, eof),
        C = file:read(Fd, 10),
        P3 = file:position(Fd, bof),
        D = file:pread(Fd, 9, 4),
        ok = file:close(Fd),
        {A, P, B, P2, C, P3, D} end),
    t(open_write, fun() ->
        {ok, Fd} = file:open(F, [write]),
        ok = file:write(Fd, "first "),
        ok = io:format(Fd, "~p ~s~n", [{a, 1}, "formatted"]),
        ok = file:close(Fd),
        file:read_file(F) end),
    t(consult, fun() ->
        ok = file:write_file(F, "{a, 1}.\n[x, \"y\"].\n#{k => v}.\n"),
        file:consult(F) end),
    t(consult_bad, fun() ->
        ok = file:write_file(F, "{a, 1}.\n{oops\n"),
        file:consult(F) end),
    t(rename, fun() -> file:rename(F, F2) end),
    t(read_old_name, fun() -> file:read_file(F) end),
    t(read_new_name, fun() -> file:read_file(F2) end),
    t(list_dir, fun() -> file:list_dir(Dir) end),
    t(read_dir, fun() -> file:read_file(Dir) end),
    t(delete, fun() -> file:delete(F2) end),
    t(delete_again, fun() -> file:delete(F2) end),
    t(list_dir_empty, fun() -> file:list_dir(Dir) end),
    t(del_dir, fun() -> file:del_dir(Dir) end),
    t(del_dir_again, fun() -> file:del_dir(Dir) end),
    t(open_missing, fun() -> file:open(filename:join(Dir, "nope"), [read]) end),
    t(write_in_missing_dir, fun() -> file:write_file(filename:join(Dir, "nope"), <<"x">>) end),
    t(get_cwd_shape, fun() -> {ok, Cwd} = file:get_cwd(), {is_list(Cwd), io_lib:printable_unicode_list(Cwd), hd(Cwd)} end),
    t(bad_name, fun() -> file:read_file({not_a_name}) end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
