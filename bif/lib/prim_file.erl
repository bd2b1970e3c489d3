%% bif/lib/prim_file.erl — beamlet's prim_file: the raw file layer under OTP's file module,
%% file_io_server (the io server of a file opened with file:open/2) and raw_file_io. OTP's
%% prim_file is a preloaded module over NIFs; this one keeps its interface (what kernel's
%% modules call) over beamlet:file_open/2 and beamlet:file_op/2 (bif/file_bifs.cpp). A file
%% belongs to the process that opened it: only that process may use it, and it is closed
%% when that process exits. Data is read as binaries (raw_file_io_list makes lists of them).
-module(prim_file).

-export([open/2, close/1, read/2, write/2, pread/2, pread/3, pwrite/2, pwrite/3,
         position/2, read_line/1, sync/1, datasync/1, truncate/1, advise/4, allocate/3,
         read_handle_info/1, read_handle_info/2, copy/3]).
-export([read_file/1, write_file/2, get_cwd/0, get_cwd/1, make_dir/1, del_dir/1, delete/1,
         rename/2, list_dir/1, read_file_info/1, read_file_info/2, read_file_info/3,
         read_link_info/1, read_link_info/2, read_link_info/3]).

-record(file_descriptor, {module, data}).

%% How much read_line reads at a time.
-define(LINE_CHUNK, 256).

open(Name, Modes) when is_list(Modes) ->
    case valid_name(Name) of
        true ->
            case beamlet:file_open(Name, Modes) of
                {ok, Fd} -> {ok, #file_descriptor{module = prim_file, data = #{fd => Fd, owner => self()}}};
                Error -> Error
            end;
        false ->
            {error, badarg}
    end;
open(_, _) ->
    {error, badarg}.

valid_name(Name) when is_binary(Name) -> true;
valid_name(Name) when is_list(Name) -> io_lib:deep_char_list(Name);
valid_name(Name) when is_atom(Name) -> true;
valid_name(_) -> false.

op(#file_descriptor{module = prim_file, data = #{fd := Fd}}, Request) ->
    beamlet:file_op(Fd, Request);
op(_, _) ->
    {error, badarg}.

close(Fd) -> op(Fd, close).
sync(Fd) -> op(Fd, sync).
datasync(Fd) -> op(Fd, datasync).
truncate(Fd) -> op(Fd, truncate).

read(Fd, Size) when is_integer(Size), Size >= 0 -> op(Fd, {read, Size});
read(_, _) -> {error, badarg}.

write(Fd, Data) ->
    try op(Fd, {write, Data})
    catch error:badarg -> {error, badarg}
    end.

pread(Fd, Pos, Size) when is_integer(Pos), Pos >= 0, is_integer(Size), Size >= 0 ->
    op(Fd, {pread, Pos, Size});
pread(_, _, _) ->
    {error, einval}.

%% pread(Fd, [{Pos, Size}]) -> {ok, [Data | eof]}
pread(Fd, LocNums) when is_list(LocNums) ->
    pread_list(Fd, LocNums, []);
pread(_, _) ->
    {error, badarg}.

pread_list(_Fd, [], Acc) ->
    {ok, lists:reverse(Acc)};
pread_list(Fd, [{Pos, Size} | Rest], Acc) ->
    case pread(Fd, Pos, Size) of
        {ok, Data} -> pread_list(Fd, Rest, [Data | Acc]);
        eof -> pread_list(Fd, Rest, [eof | Acc]);
        Error -> Error
    end;
pread_list(_, _, _) ->
    {error, badarg}.

pwrite(Fd, Pos, Data) when is_integer(Pos), Pos >= 0 ->
    try op(Fd, {pwrite, Pos, Data})
    catch error:badarg -> {error, badarg}
    end;
pwrite(_, _, _) ->
    {error, einval}.

%% pwrite(Fd, [{Pos, Data}]): ok, or {error, {NumberWritten, Reason}}
pwrite(Fd, LocBytes) when is_list(LocBytes) ->
    pwrite_list(Fd, LocBytes, 0);
pwrite(_, _) ->
    {error, badarg}.

pwrite_list(_Fd, [], _N) ->
    ok;
pwrite_list(Fd, [{Pos, Data} | Rest], N) ->
    case pwrite(Fd, Pos, Data) of
        ok -> pwrite_list(Fd, Rest, N + 1);
        {error, Reason} -> {error, {N, Reason}}
    end;
pwrite_list(_, _, N) ->
    {error, {N, badarg}}.

position(Fd, Pos) when is_integer(Pos) -> position(Fd, {bof, Pos});
position(Fd, bof) -> position(Fd, {bof, 0});
position(Fd, cur) -> position(Fd, {cur, 0});
position(Fd, eof) -> position(Fd, {eof, 0});
position(Fd, {Whence, Offset}) when (Whence =:= bof orelse Whence =:= cur orelse Whence =:= eof),
                                    is_integer(Offset) ->
    op(Fd, {position, Whence, Offset});
position(_, _) ->
    {error, einval}.

%% A line with its "\n" ("\r\n" becomes "\n", as OTP's), or the last bytes before the end.
read_line(Fd) ->
    read_line(Fd, <<>>).

read_line(Fd, Acc) ->
    case read(Fd, ?LINE_CHUNK) of
        {ok, Chunk} ->
            case binary:match(Chunk, <<"\n">>) of
                {At, 1} ->
                    <<Line:At/binary, $\n, Rest/binary>> = Chunk,
                    case byte_size(Rest) of
                        0 -> ok;
                        Back -> {ok, _} = position(Fd, {cur, -Back})
                    end,
                    {ok, crlf(<<Acc/binary, Line/binary>>)};
                nomatch ->
                    read_line(Fd, <<Acc/binary, Chunk/binary>>)
            end;
        eof when Acc =:= <<>> ->
            eof;
        eof ->
            {ok, Acc};
        Error ->
            Error
    end.

crlf(Line) ->
    case byte_size(Line) of
        N when N > 0, binary_part(Line, N - 1, 1) =:= <<"\r">> ->
            <<(binary_part(Line, 0, N - 1))/binary, "\n">>;
        _ ->
            <<Line/binary, "\n">>
    end.

%% file:copy/3 between two raw files: {ok, BytesCopied}.
copy(Source, Dest, Length) ->
    copy(Source, Dest, Length, 0).

copy(_Source, _Dest, 0, Copied) ->
    {ok, Copied};
copy(Source, Dest, Length, Copied) ->
    Chunk = case Length of
                infinity -> 65536;
                _ -> min(Length, 65536)
            end,
    case read(Source, Chunk) of
        {ok, Data} ->
            case write(Dest, Data) of
                ok ->
                    Left = case Length of
                               infinity -> infinity;
                               _ -> Length - byte_size(Data)
                           end,
                    copy(Source, Dest, Left, Copied + byte_size(Data));
                Error ->
                    Error
            end;
        eof ->
            {ok, Copied};
        Error ->
            Error
    end.

advise(_Fd, _Offset, _Length, _Advice) -> ok.
allocate(_Fd, _Offset, _Length) -> ok.

read_handle_info(Fd) -> read_handle_info(Fd, []).
read_handle_info(_Fd, _Opts) -> {error, enotsup}.

%% ---- operations on names (file:F(..., [raw]) and code that calls prim_file directly) ----

read_file(Name) -> request({read_file, Name}).
write_file(Name, Data) -> request({write_file, Name, Data}).
get_cwd() -> request({get_cwd}).
get_cwd(_Drive) -> {error, enotsup}.
make_dir(Name) -> request({make_dir, Name}).
del_dir(Name) -> request({del_dir, Name}).
delete(Name) -> request({delete, Name}).
rename(From, To) -> request({rename, From, To}).
list_dir(Name) -> request({list_dir, Name}).
read_file_info(Name) -> request({read_file_info, Name}).
read_file_info(Name, _Opts) -> request({read_file_info, Name}).
read_file_info(Name, _Opts, _Follow) -> request({read_file_info, Name}).
read_link_info(Name) -> request({read_link_info, Name}).
read_link_info(Name, _Opts) -> request({read_link_info, Name}).
read_link_info(Name, _Opts, _Follow) -> request({read_link_info, Name}).

request(Request) ->
    try beamlet:file_request(Request)
    catch error:badarg -> {error, badarg}
    end.
