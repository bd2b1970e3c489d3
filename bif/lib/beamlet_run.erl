%% bif/lib/beamlet_run.erl — `beamlet run MOD [ARGS]` on OTP's boot: init runs it
%% as erl runs `-s beamlet_run start MOD`, once the system has started. It starts the main
%% process (beamlet:start_main/2: MOD:main(ARGS) when MOD exports main/1, ARGS being init's
%% plain arguments, else MOD:main()), traced from its start when `beamlet trace` or `beamlet
%% profile` asks, and waits for it in the boot process: when main exits (the VM tells the process registered as
%% beamlet_run), the trace ends and the system stops as init:stop/0 stops it; tools/boot.cpp
%% reports how main ended and exits with its status.
-module(beamlet_run).
-export([start/1]).

start([Module]) ->
    %% This is init's boot process, which runs the -s functions: it stays, as it does on erl
    %% while `-s MOD main` runs (a program that counts processes sees the same ones).
    register(beamlet_run, self()),
    %% kernel's user and standard_error open their ports from processes of their own, which
    %% may not have run yet (on erl the rest of the boot gives them the time): a request to
    %% each returns once its port is open, so that main sees the ports erl's sees.
    opened(user),
    opened(standard_error),
    %% OTP's code server loads the program's module here, not in main: a program traced from
    %% its start does not see its own loading. If it does not load (its on_load function
    %% failed, and OTP's warning says why), main fails with undef, as its call would.
    _ = code:ensure_loaded(Module),
    Args = init:get_plain_arguments(),
    case beamlet:cli_trace_spec() of
        undefined -> _ = beamlet:start_main(Module, Args);
        Spec -> beamlet_cli_trace:start(Spec#{module => Module}, fun() -> beamlet:start_main(Module, Args) end)
    end,
    receive
        '$beamlet_main_exited' ->
            beamlet_cli_trace:main_exited(),
            %% As beamlet's contract has it: the run ends as main does, once what it wrote is
            %% out (the default logger handler's file and the user io server's queue). Not
            %% init:stop/0: OTP's user_sup waits a second before it lets `user` go.
            _ = catch logger_std_h:filesync(default),
            _ = catch io:request(user, getopts),
            _ = catch io:request(standard_error, getopts),
            erlang:halt()
    end.

%% Once io server [Name] has answered a request (raw: the io module is not loaded yet on erl
%% when -s functions start, and a program traced from its start sees it load).
opened(Name) ->
    case whereis(Name) of
        undefined ->
            ok;
        Pid ->
            Ref = monitor(process, Pid),
            Pid ! {io_request, self(), Ref, getopts},
            receive
                {io_reply, Ref, _} -> demonitor(Ref, [flush]);
                {'DOWN', Ref, _, _, _} -> ok
            end
    end.
