%% bif/lib/beamlet_shell.erl — how `beamlet shell` has kernel's user_sup start the shell: as
%% erl's default, OTP's user_drv (`-user beamlet_shell` on init's command line names this
%% module for user_sup). One difference: it returns once `user` is registered. user_sup looks
%% for `user` right after the start function returns and, when the new process has not run
%% yet (one scheduler's queue holds it behind user_sup), polls every 100 ms: on erl that is a
%% tenth of a second of every shell's start-up; here the prompt comes without it.
-module(beamlet_shell).
-export([start/0]).

start() ->
    Pid = user_drv:start(),
    registered(user, 1000),
    Pid.

%% Once [Name] is registered, or after [Tries] looks (1 ms apart: user_sup's own wait takes
%% over after that, and reports nouser as on erl).
registered(_Name, 0) ->
    ok;
registered(Name, Tries) ->
    case whereis(Name) of
        undefined ->
            receive after 1 -> ok end,
            registered(Name, Tries - 1);
        _ ->
            ok
    end.
