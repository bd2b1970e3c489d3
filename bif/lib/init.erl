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
    {ok, _} = file_server:start_link(),
    start_logger(),
    load_boot_modules(),
    case beamlet:cli_trace_spec() of
        undefined -> _ = beamlet:start_main(Module);
        % beamlet trace / beamlet profile: the trace is set up around the main process's start.
        Spec -> beamlet_cli_trace:start(Spec#{module => Module}, fun() -> beamlet:start_main(Module) end)
    end,
    loop().

%% OTP's logger, as the kernel application starts it: the logger process, the primary
%% configuration, the supervisor of handler processes and the default handler (logger_std_h on
%% standard_io). application:get_env/2,3 reads the ac_tab table, which application_controller
%% owns on OTP; beamlet has no applications, so the table stays empty (every key at its default).
start_logger() ->
    Self = self(),
    AC = spawn_link(fun() -> application_controller(Self) end),
    receive {AC, started} -> ok end,
    {ok, _} = logger_server:start_link(),
    ok = logger:internal_init_logger(),
    {ok, _} = logger_sup:start_link(),
    ok = logger:add_handlers(kernel).

loop() ->
    receive
        {stop, Status} -> do_stop(Status);
        '$beamlet_main_exited' ->
            beamlet_cli_trace:main_exited(),
            flush_logger(),
            beamlet:shutdown(),
            loop();
        {From, Ref, get_status} when is_pid(From) ->
            From ! {Ref, {started, started}},
            loop();
        _ -> loop()
    end.

%% Everything written before the stop request goes out, then the VM halts.
do_stop(Status) ->
    flush_logger(),
    _ = catch io:request(user, getopts),
    erlang:halt(Status).

%% A stand-in for OTP's application_controller: beamlet loads no applications, but OTP's
%% libraries read and write application environments (application:get_env/2,3 read ac_tab
%% directly; set_env/unset_env call the controller). Other requests get {error, Reason}.
application_controller(Init) ->
    register(application_controller, self()),
    ac_tab = ets:new(ac_tab, [set, public, named_table, {read_concurrency, true}]),
    load_app_env(kernel),
    Init ! {self(), started},
    application_controller_loop().

%% The env of App's .app file (kernel's sets logger_level to notice, for one).
load_app_env(App) ->
    case code:where_is_file(atom_to_list(App) ++ ".app") of
        non_existing -> ok;
        File ->
            {ok, Bin} = beamlet:read_file(File),
            {ok, Tokens, _} = erl_scan:string(binary_to_list(Bin)),
            {ok, {application, App, Props}} = erl_parse:parse_term(Tokens),
            _ = [ets:insert(ac_tab, {{env, App, K}, V}) || {K, V} <- proplists:get_value(env, Props, [])],
            ok
    end.

application_controller_loop() ->
    receive
        {'$gen_call', From, Request} ->
            gen_reply(From, application_request(Request)),
            application_controller_loop();
        _ ->
            application_controller_loop()
    end.

application_request({set_env, App, Key, Val, _Opts}) ->
    true = ets:insert(ac_tab, {{env, App, Key}, Val}),
    ok;
application_request({set_env, Config, _Opts}) when is_list(Config) ->
    _ = [ets:insert(ac_tab, {{env, App, K}, V}) || {App, Env} <- Config, {K, V} <- Env],
    ok;
application_request({unset_env, App, Key, _Opts}) ->
    true = ets:delete(ac_tab, {env, App, Key}),
    ok;
application_request(which_applications) -> [];
application_request({which_applications, _}) -> [];
application_request(loaded_applications) -> [];
application_request(info) -> [{loaded, []}, {loading, []}, {started, []}, {start_p_false, []},
                              {running, []}, {starting, []}];
application_request(Other) -> {error, {not_supported, Other}}.

gen_reply({To, Tag}, Reply) when is_pid(To) ->
    To ! {Tag, Reply},
    ok;
gen_reply(_, _) -> ok.

%% The library modules erl -noshell has loaded once it has booted (OTP 25), so that trace
%% patterns on them match from the start as on erl. Modules of erl's boot that are about
%% distribution, sockets, ports and the shell are left out: beamlet has none of these.
load_boot_modules() ->
    _ = [code:ensure_loaded(M) || M <- boot_modules()],
    ok.

boot_modules() ->
    [application, application_controller, application_master, atomics, binary, counters,
     erl_anno, erl_eval, erl_features, erl_internal, erl_lint, erl_parse, erl_scan,
     erl_tracer, error_handler, error_logger, ets, file, filename, gb_sets, gb_trees, gen,
     gen_event, gen_server, io_lib, lists, logger, logger_backend, logger_config,
     logger_filters, logger_formatter, logger_h_common, logger_handler_watcher, logger_olp,
     logger_proxy, logger_server, logger_simple_h, logger_std_h, logger_sup, maps, orddict,
     ordsets, os, otp_internal, persistent_term, proc_lib, proplists, queue, rand, string,
     supervisor, supervisor_bridge, unicode, unicode_util].

%% The default handler writes from its own process: wait for what it holds.
flush_logger() ->
    _ = catch logger_std_h:filesync(default),
    ok.

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
