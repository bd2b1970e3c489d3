%% bif/lib/beamlet_file_server.erl — the file server: registered as file_server_2, it answers
%% the requests of OTP's file module (file:read_file/1, write_file/2, get_cwd/0, make_dir/1,
%% del_dir/1, delete/1, rename/2, list_dir/1, read_file_info/1) with beamlet:file_request/1.
%% It stands in for OTP's file_server over prim_file, which are built on NIFs. file:open/2
%% starts OTP's file_io_server for the caller (over beamlet's prim_file), linked to this
%% server as in OTP.
-module(beamlet_file_server).
-export([start/0]).

start() ->
    Parent = self(),
    Pid = spawn_link(fun() -> init(Parent) end),
    receive {Pid, started} -> Pid end.

init(Parent) ->
    process_flag(trap_exit, true),
    register(file_server_2, self()),
    Parent ! {self(), started},
    loop().

loop() ->
    receive
        {'$gen_call', {From, Tag}, {open, Name, Modes}} ->
            From ! {Tag, file_io_server:start_link(From, Name, Modes)},
            loop();
        {'$gen_call', {From, Tag}, {copy, Source, SourceOpts, Dest, DestOpts, Length}} ->
            From ! {Tag, copy(Source, SourceOpts, Dest, DestOpts, Length)},
            loop();
        {'$gen_call', {From, Tag}, Request} when is_tuple(Request) ->
            Reply = try beamlet:file_request(Request)
                    catch error:badarg -> {error, badarg}
                    end,
            From ! {Tag, Reply},
            loop();
        _ ->
            loop()
    end.

%% file:copy/3 between two named files: both opened raw here, as OTP's file server does.
copy(Source, SourceOpts, Dest, DestOpts, Length) ->
    case file:open(Source, [read, binary, raw | SourceOpts]) of
        {ok, S} ->
            Result = case file:open(Dest, [write, binary, raw | DestOpts]) of
                         {ok, D} ->
                             R = file:copy(S, D, Length),
                             ok = file:close(D),
                             R;
                         Error ->
                             Error
                     end,
            ok = file:close(S),
            Result;
        Error ->
            Error
    end.
