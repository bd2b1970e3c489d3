%% bif/lib/init.erl — beamlet's init: the first process. It starts the system processes (the
%% io servers `user` and `standard_error`, OTP's logger, ...) and then the main process, and
%% serves the parts of OTP's init API that programs and OTP's libraries use: stop/0,1,
%% get_argument/1, get_arguments/0, get_plain_arguments/0, get_status/0, script_id/0.
%% beamlet runs as `erl -noshell` does: there is no shell and no boot script.
-module(init).
-export([boot/1, stop/0, stop/1, restart/0, reboot/0,
         get_argument/1, get_arguments/0, get_plain_arguments/0, get_status/0, script_id/0,
         notify_when_started/1, wait_until_started/0, objfile_extension/0, archive_extension/0,
         code_path_choice/0, fetch_loaded/0]).

boot(Module) ->
    register(init, self()),
    process_flag(trap_exit, true),
    User = beamlet_io_server:start(user, 1),
    group_leader(User, self()),
    _ = beamlet_io_server:start(standard_error, 2),
    _ = beamlet:start_main(Module),
    loop().

loop() ->
    receive
        {stop, Status} -> do_stop(Status);
        {From, Ref, get_status} when is_pid(From) ->
            From ! {Ref, {started, started}},
            loop();
        _ -> loop()
    end.

%% Everything written before the stop request goes out, then the VM halts.
do_stop(Status) ->
    _ = catch io:request(user, getopts),
    erlang:halt(Status).

stop() -> stop(0).

stop(Status) when is_integer(Status), Status >= 0 -> request_stop(Status);
stop(Status) when is_list(Status) ->
    case is_bytelist(Status) of
        true -> request_stop(Status);
        false -> erlang:error(badarg, [Status])
    end;
stop(Status) -> erlang:error(badarg, [Status]).

request_stop(Status) ->
    init ! {stop, Status},
    ok.

is_bytelist([C | Cs]) when is_integer(C), C >= 0, C =< 255 -> is_bytelist(Cs);
is_bytelist([]) -> true;
is_bytelist(_) -> false.

restart() -> stop(0).
reboot() -> stop(0).

get_status() ->
    Ref = make_ref(),
    init ! {self(), Ref, get_status},
    receive {Ref, Status} -> Status end.

script_id() -> {"beamlet", "1"}.

notify_when_started(_Pid) -> started.
wait_until_started() -> ok.

objfile_extension() -> ".beam".
archive_extension() -> ".ez".
code_path_choice() -> relaxed.
fetch_loaded() -> [{M, F} || {M, F} <- code:all_loaded(), is_list(F)].

%% The command-line flags erl would have for `erl -noshell`.
get_argument(Flag) ->
    case lists:keyfind(Flag, 1, get_arguments()) of
        {Flag, Values} -> {ok, [Values]};
        false -> error
    end.

get_arguments() ->
    Home = case os:getenv("HOME") of
               false -> "/";
               H -> H
           end,
    [{root, [code:root_dir()]}, {progname, ["erl"]}, {home, [Home]}, {noshell, []}].

get_plain_arguments() -> [].
