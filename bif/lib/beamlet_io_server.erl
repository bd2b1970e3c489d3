%% bif/lib/beamlet_io_server.erl — the io servers over the VM's standard file descriptors:
%% `user` (writes fd 1, reads fd 0; every process's group leader) and `standard_error`
%% (writes fd 2). They speak the Erlang I/O protocol as OTP's `user` does in `erl -noshell`:
%% latin-1 by default (characters above 255 are written as \x{...}), list or binary mode,
%% prompts written before reads, get_chars/get_line/get_until through io_lib's collectors.
%% Bytes go out through beamlet:write/2 (vm/stdio.hpp buffers them); input comes from
%% beamlet:read_input/0, and the VM sends 'beamlet_stdin' when more arrives.
-module(beamlet_io_server).
-export([start/2, init/2]).

-record(state, {fd,                 % 1 or 2
                encoding = latin1,  % latin1 | unicode
                mode = list,        % what reads return: list | binary
                chunks = [],        % input not consumed yet: binaries, leftover lists, eof
                eof = false}).      % fd 0 is at end of file

%% Starts the server for [Fd] registered as [Name]; returns its pid.
start(Name, Fd) ->
    Pid = spawn(?MODULE, init, [self(), Fd]),
    register(Name, Pid),
    Pid ! {self(), registered},
    Pid.

init(Parent, Fd) ->
    receive {Parent, registered} -> ok end,
    loop(#state{fd = Fd}).

loop(S) ->
    receive
        {io_request, From, ReplyAs, Request} when is_pid(From) ->
            {Reply, S1} = request(Request, S),
            From ! {io_reply, ReplyAs, Reply},
            loop(S1);
        _Other ->
            loop(S)
    end.

%% ---- requests: {Reply, State} ----

request({put_chars, Enc, Chars}, S) when Enc =:= unicode; Enc =:= latin1 ->
    put_chars(Enc, Chars, S);
request({put_chars, Enc, M, F, A}, S) when Enc =:= unicode; Enc =:= latin1 ->
    case catch apply(M, F, A) of
        Data when is_list(Data); is_binary(Data) -> put_chars(Enc, Data, S);
        _ -> {{error, put_chars}, S}
    end;
request({put_chars, Chars}, S) -> request({put_chars, latin1, Chars}, S);
request({put_chars, M, F, A}, S) -> request({put_chars, latin1, M, F, A}, S);
request({get_chars, Enc, Prompt, N}, S) -> read(Prompt, io_lib, collect_chars, N, Enc, S);
request({get_line, Enc, Prompt}, S) -> read(Prompt, io_lib, collect_line, [], Enc, S);
request({get_until, Enc, Prompt, M, F, A}, S) -> read(Prompt, io_lib, get_until, {M, F, A}, Enc, S);
request({get_chars, Prompt, N}, S) -> request({get_chars, latin1, Prompt, N}, S);
request({get_line, Prompt}, S) -> request({get_line, latin1, Prompt}, S);
request({get_until, Prompt, M, F, A}, S) -> request({get_until, latin1, Prompt, M, F, A}, S);
request({setopts, Opts}, S) when is_list(Opts) -> setopts(Opts, S);
%% standard_error has no input side: only its encoding (OTP's standard_error answers so).
request(getopts, #state{fd = 2} = S) ->
    {[{encoding, S#state.encoding}], S};
request(getopts, S) ->
    {[{binary, S#state.mode =:= binary}, {encoding, S#state.encoding}], S};
request({get_geometry, _}, S) -> {{error, enotsup}, S};
request({requests, Reqs}, S) -> requests(Reqs, {ok, S});
request(R, S) -> {{error, {request, R}}, S}.

requests([R | Rs], {ok, S}) -> requests(Rs, request(R, S));
requests([R | Rs], {Reply, S}) when not is_tuple(Reply) -> requests(Rs, request(R, S));
requests(_, Result) -> Result.

%% ---- output ----

put_chars(Enc, Chars, S) ->
    case to_device(Chars, Enc, S#state.encoding) of
        error -> {{error, put_chars}, S};
        Bin ->
            beamlet:write(S#state.fd, Bin),
            {ok, S}
    end.

%% [Chars] in encoding [From] as bytes in the device's encoding [To]; a latin-1 device shows
%% characters above 255 as \x{H}, as OTP's user does.
to_device(Chars, unicode, latin1) ->
    case catch unicode:characters_to_binary(Chars, unicode, latin1) of
        Bin when is_binary(Bin) -> Bin;
        _ ->
            case catch unicode:characters_to_list(Chars, unicode) of
                L when is_list(L) ->
                    list_to_binary([escape(C) || C <- L]);
                _ -> error
            end
    end;
to_device(Bin, Enc, Enc) when is_binary(Bin) -> Bin;
to_device(Chars, From, To) ->
    case catch unicode:characters_to_binary(Chars, From, To) of
        Bin when is_binary(Bin) -> Bin;
        _ -> error
    end.

escape(C) when C > 255 -> ["\\x{", integer_to_list(C, 16), $}];
escape(C) -> C.

%% ---- input ----

read(_Prompt, _M, _F, _Xa, _Enc, #state{fd = 2} = S) ->
    {{error, enotsup}, S};
read(Prompt, M, F, Xa, Enc, S) ->
    case prompt(Prompt, S) of
        error -> {{error, F}, S};
        ok ->
            S1 = fill(S),
            case S1 of
                #state{chunks = [], eof = true} -> {eof, S1};
                _ -> collect(start, M, F, Xa, Enc, S1)
            end
    end.

%% Feeds input to the collector M:F until it stops.
collect(State, M, F, Xa, Enc, S) ->
    case S#state.chunks of
        [] when S#state.eof ->
            apply_collector(State, M, F, Xa, Enc, eof, [], S);
        [] ->
            collect(State, M, F, Xa, Enc, fill(wait_input(S)));
        [Chunk | Rest] ->
            apply_collector(State, M, F, Xa, Enc, Chunk, Rest, S)
    end.

apply_collector(State, M, F, Xa, Enc, Chunk, Rest, S) ->
    case catch M:F(State, cast(Chunk, Enc, S), Enc, Xa) of
        {stop, Result, Left} when Left =:= <<>>; Left =:= []; Left =:= eof ->
            {Result, S#state{chunks = Rest}};
        {stop, Result, Left} ->
            {Result, S#state{chunks = [Left | Rest]}};
        {'EXIT', _} ->
            {{error, error_name(M, F, Xa)}, S#state{chunks = []}};
        State1 when Chunk =:= eof ->
            %% A collector that wants more after end of file: it has what there is.
            {State1, S#state{chunks = Rest}};
        State1 ->
            collect(State1, M, F, Xa, Enc, S#state{chunks = Rest})
    end.

error_name(io_lib, get_until, {_, F, _}) -> F;
error_name(_, F, _) -> F.

%% Takes what the VM has read from fd 0 into the chunks.
fill(#state{eof = true} = S) -> S;
fill(S) ->
    case beamlet:read_input() of
        {data, Bin} -> S#state{chunks = S#state.chunks ++ [Bin]};
        eof -> S#state{eof = true};
        empty -> S
    end.

%% Waits until input arrives, serving output requests meanwhile (reads wait their turn in
%% the mailbox).
wait_input(S) ->
    receive
        beamlet_stdin -> S;
        {io_request, From, ReplyAs, Request}
          when is_pid(From),
               not is_tuple(Request) orelse
                   (element(1, Request) =/= get_chars andalso element(1, Request) =/= get_line andalso
                    element(1, Request) =/= get_until) ->
            {Reply, S1} = request(Request, S),
            From ! {io_reply, ReplyAs, Reply},
            wait_input(S1)
    end.

prompt('', _S) -> ok;
prompt(Prompt, S) ->
    case to_device(io_lib:format_prompt(Prompt, S#state.encoding), unicode, S#state.encoding) of
        error -> error;
        Bin ->
            beamlet:write(S#state.fd, Bin),
            ok
    end.

%% Input bytes as the reader asked: list or binary, in encoding [Enc].
cast(eof, _Enc, _S) -> eof;
cast(Data, Enc, #state{mode = Mode, encoding = DevEnc}) ->
    cast(Data, Mode, DevEnc, Enc).

cast(B, binary, Enc, Enc) when is_binary(B), Enc =:= latin1 -> B;
cast(B, binary, unicode, unicode) when is_binary(B) -> B;
cast(Data, binary, From, To) ->
    case catch unicode:characters_to_binary(Data, From, To) of
        Bin when is_binary(Bin) -> Bin;
        _ -> exit({no_translation, From, To})
    end;
cast(B, list, latin1, latin1) when is_binary(B) -> binary_to_list(B);
cast(Data, list, unicode, latin1) ->
    case catch unicode:characters_to_list(Data, unicode) of
        Chars when is_list(Chars) ->
            [if C > 255 -> exit({no_translation, unicode, latin1}); true -> C end || C <- Chars];
        _ -> exit({no_translation, unicode, latin1})
    end;
cast(Data, list, From, _To) ->
    case catch unicode:characters_to_list(Data, From) of
        Chars when is_list(Chars) -> Chars;
        _ -> exit({no_translation, From, unicode})
    end.

%% ---- options ----

setopts(Opts0, S) ->
    Opts = proplists:unfold(proplists:substitute_negations([{list, binary}], expand_encoding(Opts0))),
    case lists:all(fun valid_opt/1, Opts) of
        false -> {{error, enotsup}, S};
        true ->
            S1 = case proplists:get_value(encoding, Opts) of
                     latin1 -> S#state{encoding = latin1};
                     undefined -> S;
                     _ -> S#state{encoding = unicode}
                 end,
            S2 = case proplists:get_value(binary, Opts) of
                     true -> S1#state{mode = binary};
                     false -> S1#state{mode = list};
                     undefined -> S1
                 end,
            {ok, S2}
    end.

expand_encoding(Opts) ->
    [case O of
         latin1 -> {encoding, latin1};
         unicode -> {encoding, unicode};
         _ -> O
     end || O <- Opts].

valid_opt({binary, _}) -> true;
valid_opt({encoding, E}) -> E =:= latin1 orelse E =:= utf8 orelse E =:= unicode;
valid_opt(_) -> false.
