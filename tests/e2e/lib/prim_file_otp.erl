-module(prim_file_otp).
-export([main/0]).

%% OTP's prim_file and prim_buffer over beamlet's NIFs: raw files (binary and list modes,
%% read_line, read_ahead and delayed_write, pread/pwrite, position, truncate, ipread), the file
%% server's operations on names (file info with each time format, list_dir, links, rename,
%% del_dir_r), whole-file reads and writes, the owner rules (a raw file is its opener's and
%% closes when the opener exits) and OTP's errors for bad arguments.
-include_lib("kernel/include/file.hrl").

t(Name, F) ->
    R = try F() catch C:E -> {C, E} end,
    io:format("~p: ~p~n", [Name, R]).

main() ->
    Dir = "/tmp/beamlet_prim_file_otp_" ++ os:getpid() ++ "_" ++ integer_to_list(erlang:unique_integer([positive])),
    ok = file:make_dir(Dir),
    try run(Dir)
    after
        _ = file:set_cwd("/"),
        _ = file:del_dir_r(Dir)
    end,
    io:format("cleaned: ~p~n", [file:read_file_info(Dir)]).

run(Dir) ->
    P = fun(Name) -> filename:join(Dir, Name) end,
    A = P("a.txt"),
    ok = file:write_file(A, <<"one\ntwo\r\nthree\n\nlast">>),
    t(raw_read_line, fun() ->
        {ok, Fd} = file:open(A, [read, raw, binary]),
        R = [file:read_line(Fd) || _ <- lists:seq(1, 6)],
        ok = file:close(Fd), R end),
    t(raw_read_line_list, fun() ->
        {ok, Fd} = file:open(A, [read, raw]),
        R = [file:read_line(Fd), file:read(Fd, 3), file:read_line(Fd)],
        ok = file:close(Fd), R end),
    t(read_ahead, fun() ->
        {ok, Fd} = file:open(A, [read, raw, binary, {read_ahead, 8}]),
        R1 = [file:read(Fd, 2), file:read_line(Fd), file:position(Fd, cur), file:read(Fd, 4)],
        R2 = [file:position(Fd, {cur, -2}), file:read(Fd, 5), file:position(Fd, bof), file:read(Fd, 3)],
        ok = file:close(Fd), {R1, R2} end),
    t(read_ahead_default, fun() ->
        {ok, Fd} = file:open(A, [read, read_ahead, binary]),
        R = [file:read_line(Fd), file:read_line(Fd), file:pread(Fd, 4, 3), file:read_line(Fd)],
        ok = file:close(Fd), R end),
    B = P("b.bin"),
    t(delayed_write, fun() ->
        {ok, Fd} = file:open(B, [write, raw, binary, {delayed_write, 16, 60000}]),
        ok = file:write(Fd, <<"abc">>),
        Early = file:read_file(B),
        ok = file:write(Fd, [<<"defghijklmnopqrstuvwxyz">>, "0123"]),
        ok = file:close(Fd),
        {Early, file:read_file(B)} end),
    t(delayed_write_default, fun() ->
        {ok, Fd} = file:open(B, [append, delayed_write]),
        ok = file:write(Fd, "!"),
        ok = file:close(Fd),
        file:read_file(B) end),
    t(pread_pwrite, fun() ->
        {ok, Fd} = file:open(B, [read, write, raw, binary]),
        ok = file:pwrite(Fd, 1, <<"BC">>),
        ok = file:pwrite(Fd, [{5, "FG"}, {40, <<"far">>}]),
        R = [file:pread(Fd, 0, 8), file:pread(Fd, [{0, 2}, {38, 10}, {100, 1}]), file:pread(Fd, 1000, 4),
             file:position(Fd, cur), file:read(Fd, 3)],
        ok = file:close(Fd), R end),
    t(position_truncate, fun() ->
        {ok, Fd} = file:open(B, [read, write, raw, binary]),
        R = [file:position(Fd, 10), file:position(Fd, {cur, 5}), file:position(Fd, {eof, -3}),
             file:position(Fd, eof), file:position(Fd, {bof, -1}), file:position(Fd, 4),
             file:truncate(Fd), file:position(Fd, cur), file:read(Fd, 10), file:pread(Fd, 0, 100)],
        ok = file:close(Fd), R end),
    t(sync_advise_allocate, fun() ->
        {ok, Fd} = file:open(B, [read, write, raw]),
        R = [file:sync(Fd), file:datasync(Fd), file:advise(Fd, 0, 10, sequential),
             file:advise(Fd, 0, 10, bogus), file:allocate(Fd, 0, 100), file:read_file_info(Fd)],
        ok = file:close(Fd),
        [case X of {ok, #file_info{size = S, type = T}} -> {S, T}; _ -> X end || X <- R] end),
    t(ipread, fun() ->
        ok = file:write_file(B, <<16:32, 5:32, 0:32, 0:32, "hello">>),
        {ok, Fd} = file:open(B, [read, raw, binary]),
        R = [file:ipread_s32bu_p32bu(Fd, 0, 100), file:ipread_s32bu_p32bu(Fd, 0, 2),
             file:ipread_s32bu_p32bu(Fd, 18, infinity), file:ipread_s32bu_p32bu(Fd, 4, infinity)],
        ok = file:close(Fd), R end),
    t(closed_raw, fun() ->
        {ok, Fd} = file:open(B, [read, raw]),
        ok = file:close(Fd),
        [file:read(Fd, 1), file:close(Fd), file:position(Fd, 0)] end),
    t(write_read_only, fun() ->
        {ok, Fd} = file:open(B, [read, raw]),
        R = file:write(Fd, "x"),
        ok = file:close(Fd), R end),
    t(raw_other_process, fun() ->
        {ok, Fd} = file:open(A, [read, raw, binary]),
        Self = self(),
        spawn(fun() -> Self ! {other, [try Op() catch C:E -> {C, E} end
                                       || Op <- [fun() -> file:read(Fd, 2) end,
                                                 fun() -> file:close(Fd) end]]} end),
        R = receive {other, X} -> X end,
        {R, file:read(Fd, 3), file:close(Fd)} end),
    t(owner_exit_closes, fun() ->
        Self = self(),
        {Pid, M} = spawn_monitor(fun() ->
            {ok, Fd} = file:open(A, [read, raw, binary]),
            Self ! {fd, Fd, prim_file:get_handle(Fd)} end),
        {Fd, <<N:32/native>>} = receive {fd, F, H} -> {F, H} end,
        receive {'DOWN', M, process, Pid, _} -> ok end,
        Link = "/proc/" ++ os:getpid() ++ "/fd/" ++ integer_to_list(N),
        {wait_until(fun() -> file:read_link(Link) =/= {ok, A} end, 100),
         try file:read(Fd, 1) catch C:E -> {C, E} end} end),
    t(io_server_file, fun() ->
        {ok, Fd} = file:open(A, [read]),
        R = [io:get_line(Fd, ''), file:read(Fd, 3), file:position(Fd, {cur, 1}), io:get_line(Fd, '')],
        ok = file:close(Fd), R end),
    Big = P("big.bin"),
    t(big_file, fun() ->
        Data = list_to_binary([X rem 251 || X <- lists:seq(1, 300000)]),
        ok = file:write_file(Big, [Data, "tail"]),
        {ok, Back} = file:read_file(Big),
        {ok, Fd} = file:open(Big, [read, raw, binary, read_ahead]),
        Chunks = read_all(Fd, 7000, []),
        ok = file:close(Fd),
        {byte_size(Back), Back =:= <<Data/binary, "tail">>, length(Chunks), iolist_to_binary(Chunks) =:= Back,
         erlang:md5(Back)} end),
    t(copy, fun() ->
        C = P("c.bin"),
        R = file:copy(Big, C),
        {R, file:read_file(C) =:= file:read_file(Big), file:delete(C)} end),
    t(file_info, fun() ->
        ok = file:change_mode(A, 8#640),
        ok = file:write_file_info(A, #file_info{atime = 1600000000, mtime = 1600000100}, [{time, posix}]),
        {ok, I1} = file:read_file_info(A, [{time, posix}]),
        {ok, I2} = file:read_file_info(A, [{time, universal}]),
        {ok, I3} = file:read_file_info(A),
        [I1#file_info.size, I1#file_info.type, I1#file_info.access, I1#file_info.mode band 8#7777,
         I1#file_info.mtime, I1#file_info.atime, I2#file_info.mtime, is_integer(I1#file_info.ctime),
         I3#file_info.mtime =:= erlang:universaltime_to_localtime(I2#file_info.mtime), I1#file_info.links] end),
    t(dir_info, fun() ->
        {ok, I} = file:read_file_info(Dir),
        {I#file_info.type, I#file_info.access} end),
    t(missing_info, fun() -> [file:read_file_info(P("nope")), file:read_link_info(P("nope"))] end),
    Sub = P("sub"),
    t(make_dirs, fun() ->
        [file:make_dir(Sub), file:make_dir(Sub), file:make_dir(P("no/such")),
         file:write_file(filename:join(Sub, "x"), "x"), file:make_dir(filename:join(Sub, "deeper")),
         file:write_file(filename:join([Sub, "deeper", "y"]), "y")] end),
    t(list_dir, fun() ->
        {ok, L} = file:list_dir(Dir),
        {ok, L2} = file:list_dir_all(Sub),
        [lists:sort(L), lists:sort(L2), file:list_dir(A), file:list_dir(P("nope"))] end),
    t(symlink, fun() ->
        L = P("link"),
        R = [file:make_symlink("a.txt", L), file:read_link(L), file:read_link_all(L), file:read_link(A),
             file:make_symlink("a.txt", L)],
        {ok, I} = file:read_link_info(L),
        {ok, J} = file:read_file_info(L),
        {R, I#file_info.type, J#file_info.type, file:read_file(L)} end),
    t(hard_link, fun() ->
        H = P("hard"),
        R = [file:make_link(A, H), file:make_link(A, H)],
        {ok, I} = file:read_file_info(A),
        {R, I#file_info.links, file:delete(H)} end),
    t(rename, fun() ->
        R1 = P("r1"), R2 = P("r2"),
        ok = file:write_file(R1, "r"),
        [file:rename(R1, R2), file:read_file(R2), file:rename(R1, R2), file:rename(R2, Sub),
         file:rename(Sub, P("sub2")), file:rename(P("sub2"), Sub), file:delete(R2)] end),
    t(delete_errors, fun() ->
        [file:delete(P("nope")), file:delete(Sub), file:del_dir(Sub), file:del_dir(A), file:del_dir(P("nope"))] end),
    t(read_file_errors, fun() -> [file:read_file(P("nope")), file:read_file(Dir)] end),
    t(open_errors, fun() ->
        [file:open(P("nope"), [read, raw]), file:open(Dir, [read, raw]), file:open(A, [write, exclusive, raw]),
         file:open(P("no/such"), [write, raw]), file:open(P("nope"), [read])] end),
    t(cwd, fun() ->
        {ok, Old} = file:get_cwd(),
        R = [file:set_cwd(Sub), file:get_cwd() =:= {ok, Sub}, file:read_file("x"), file:set_cwd(P("nope")),
             file:get_cwd("c:"), file:set_cwd(Old)],
        {R, file:get_cwd() =:= {ok, Old}} end),
    t(del_dir_r, fun() ->
        ok = file:make_symlink(Sub, filename:join(Sub, "self")),
        [file:del_dir(Sub), file:del_dir_r(Sub), file:read_file_info(Sub), file:del_dir_r(Sub), file:del_dir_r(A)] end),
    t(bad_args, fun() ->
        [file:open(A, bad), file:open(123, [read, raw]), file:read_file(123), file:read_file_info({x}),
         file:write_file(P("w"), [a]), file:list_dir(123), file:make_dir(<<"bad", 0>>)] end),
    t(bad_args_raw, fun() ->
        {ok, Fd} = file:open(B, [read, write, raw, binary]),
        R = [file:read(Fd, -1), file:read(Fd, x), file:pread(Fd, -1, 2), file:pread(Fd, 0, -2),
             file:pread(Fd, x, 1), file:position(Fd, foo), file:position(Fd, {bof, x}), file:write(Fd, [a]),
             file:pwrite(Fd, -1, "x"), file:pwrite(Fd, 0, [a]), file:pwrite(Fd, [{x, "a"}])],
        ok = file:close(Fd), R end),
    t(names, fun() ->
        [prim_file:internal_name2native("ab"), prim_file:internal_name2native(<<"ab">>),
         prim_file:internal_name2native(["a", ["b"], $c]), prim_file:internal_native2name(<<"abc">>),
         prim_file:internal_native2name(<<"a", 255>>), prim_file:is_translatable(<<"a", 255>>),
         prim_file:internal_native2name(<<"a", 16#cc, 16#81>>)]
        ++ [try F() catch C:E -> {C, E} end
            || F <- [fun() -> prim_file:internal_name2native(abc) end,
                     fun() -> prim_file:internal_name2native("a\0b") end,
                     fun() -> prim_file:internal_name2native(<<"a", 0>>) end,
                     fun() -> prim_file:internal_name2native([-1]) end,
                     fun() -> prim_file:internal_native2name("abc") end,
                     fun() -> prim_file:is_translatable("abc") end]] end),
    t(buffer, fun() ->
        Buf = prim_buffer:new(),
        ok = prim_buffer:write(Buf, [<<"hello ">>, <<"world\n">>]),
        Small = [prim_buffer:size(Buf), prim_buffer:find_byte_index(Buf, $\n), prim_buffer:find_byte_index(Buf, $z),
                 prim_buffer:read(Buf, 3), prim_buffer:size(Buf), prim_buffer:try_lock(Buf), prim_buffer:try_lock(Buf),
                 prim_buffer:unlock(Buf)],
        X = binary:copy(<<"x">>, 3000),
        ok = prim_buffer:write(Buf, [X, X]),
        Large = [prim_buffer:size(Buf), [byte_size(V) || V <- prim_buffer:read_iovec(Buf, 4000)],
                 prim_buffer:size(Buf), prim_buffer:wipe(Buf), prim_buffer:size(Buf)],
        Errors = [try F() catch C:E -> {C, E} end
                  || F <- [fun() -> prim_buffer:unlock(Buf) end, fun() -> prim_buffer:read(Buf, 1) end,
                           fun() -> prim_buffer:skip(Buf, 1) end, fun() -> prim_buffer:write(Buf, <<"x">>) end,
                           fun() -> prim_buffer:write(Buf, ["x"]) end, fun() -> prim_buffer:size(make_ref()) end,
                           fun() -> prim_buffer:find_byte_index(Buf, 256) end]],
        {Small, Large, Errors} end),
    ok.

read_all(Fd, N, Acc) ->
    case file:read(Fd, N) of
        {ok, Data} -> read_all(Fd, N, [Data | Acc]);
        eof -> lists:reverse(Acc)
    end.

wait_until(F, 0) -> F();
wait_until(F, N) ->
    case F() of
        true -> true;
        false -> timer:sleep(10), wait_until(F, N - 1)
    end.
