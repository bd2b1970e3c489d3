%% tests/e2e/boot/boot_apps.erl — OTP's application controller, as the real boot starts it
%% (BEAMLET_BOOT=otp): which_applications/0, load/start/stop of OTP's applications and of a
%% user application whose .app file is on the code path, with a supervision tree,
%% ensure_all_started/1, get_key/2, get_application/1, get_env/2 and bad input.
-module(boot_apps).
-behaviour(application).
-behaviour(supervisor).
-export([main/0, start/2, stop/1, init/1, worker/0]).

main() ->
    io:format("running: ~p~n", [names(application:which_applications())]),
    io:format("sasl: ~p~n", [application:ensure_all_started(sasl)]),
    io:format("running: ~p~n", [names(application:which_applications())]),
    io:format("sasl again: ~p~n", [application:start(sasl)]),
    %% The "exited: stopped" report goes through logger's handler process: wait for it to be
    %% written so that it comes before the next line on erl and on beamlet alike (the handler
    %% and this process write to the terminal concurrently).
    StopSasl = application:stop(sasl),
    ok = logger_std_h:filesync(default),
    io:format("stop sasl: ~p~n", [StopSasl]),
    io:format("stop sasl again: ~p~n", [application:stop(sasl)]),
    io:format("no such app: ~p~n", [application:load(no_such_app_here)]),
    io:format("start no such app: ~p~n", [application:start(no_such_app_here)]),
    {ok, Vsn} = application:get_key(kernel, vsn),
    io:format("kernel vsn is a string: ~p~n", [io_lib:printable_list(Vsn)]),
    io:format("stdlib mod: ~p~n", [application:get_key(stdlib, mod)]),
    io:format("get_application(lists): ~p~n", [application:get_application(lists)]),
    io:format("kernel logger_level: ~p~n", [application:get_env(kernel, logger_level)]),
    %% A user application: its .app file in a directory added to the code path.
    Dir = filename:join("/tmp", "boot_apps_" ++ os:getpid()),
    ok = filelib:ensure_dir(filename:join(Dir, "x")),
    App = {application, bootdemo,
           [{description, "a demo"}, {vsn, "1.2.3"}, {modules, [boot_apps]},
            {registered, [bootdemo_sup]}, {applications, [kernel, stdlib]},
            {mod, {boot_apps, [arg]}}, {env, [{colour, blue}]}]},
    ok = file:write_file(filename:join(Dir, "bootdemo.app"), io_lib:format("~p.~n", [App])),
    true = code:add_patha(Dir),
    io:format("load: ~p~n", [application:load(bootdemo)]),
    io:format("env: ~p~n", [application:get_env(bootdemo, colour)]),
    io:format("start: ~p~n", [application:start(bootdemo)]),
    io:format("running: ~p~n", [names(application:which_applications())]),
    io:format("children: ~p~n", [[Id || {Id, _, _, _} <- supervisor:which_children(bootdemo_sup)]]),
    io:format("get_application(sup): ~p~n", [application:get_application(whereis(bootdemo_sup))]),
    io:format("vsn: ~p~n", [application:get_key(bootdemo, vsn)]),
    Stop = application:stop(bootdemo),
    ok = logger_std_h:filesync(default),
    io:format("stop: ~p~n", [Stop]),
    io:format("sup gone: ~p~n", [whereis(bootdemo_sup)]),
    io:format("unload: ~p~n", [application:unload(bootdemo)]),
    %% A malformed .app file.
    ok = file:write_file(filename:join(Dir, "badapp.app"), "{application, badapp, [{vsn, \"1\"}"),
    io:format("bad .app: ~p~n", [element(1, application:load(badapp))]),
    _ = [file:delete(filename:join(Dir, F)) || F <- ["bootdemo.app", "badapp.app"]],
    ok = file:del_dir(Dir),
    ok.

names(Apps) -> lists:sort([A || {A, _, _} <- Apps]).

start(normal, [arg]) ->
    io:format("bootdemo starting, colour ~p~n", [application:get_env(colour)]),
    supervisor:start_link({local, bootdemo_sup}, ?MODULE, []).

stop(_State) ->
    io:format("bootdemo stopped~n"),
    ok.

init([]) ->
    {ok, {#{strategy => one_for_one},
          [#{id => w1, start => {proc_lib, start_link, [?MODULE, worker, []]}},
           #{id => w2, start => {proc_lib, start_link, [?MODULE, worker, []]}}]}}.

worker() ->
    proc_lib:init_ack({ok, self()}),
    receive stop -> ok end.
