%% bif/lib/beamlet_file_server.erl — the file server: registered as file_server_2, it answers
%% the requests of OTP's file module (file:read_file/1, write_file/2, get_cwd/0, make_dir/1,
%% del_dir/1, delete/1, rename/2, list_dir/1, read_file_info/1) with beamlet:file_request/1.
%% It stands in for OTP's file_server over prim_file, which are built on NIFs. Opening files
%% (file:open/2 and the io server per open file) is not served yet: {error, enotsup}.
-module(beamlet_file_server).
-export([start/0]).

start() ->
    Parent = self(),
    Pid = spawn_link(fun() -> init(Parent) end),
    receive {Pid, started} -> Pid end.

init(Parent) ->
    register(file_server_2, self()),
    Parent ! {self(), started},
    loop().

loop() ->
    receive
        {'$gen_call', {From, Tag}, Request} when is_tuple(Request) ->
            Reply = try beamlet:file_request(Request)
                    catch error:badarg -> {error, badarg}
                    end,
            From ! {Tag, Reply},
            loop();
        _ ->
            loop()
    end.
