-module(otp_plain_crash).
-file("otp_plain_crash.erl", 2). % stack traces name the file alone, wherever erlc ran
-export([main/0, log/2, crash_mfa/1]).

%% Crash reports of plain (non-proc_lib) processes, which the emulator hands to the logger:
%% an uncaught error prints
%%   =ERROR REPORT==== <date> ===
%%   Error in process <pid> with exit value:
%%   {Reason,Stack}
%% followed by an empty line, to stdout; so does an uncaught throw ({nocatch, T}); an exit/1
%% with any reason, a kill, and a normal end print nothing. The process's registered name
%% is not shown. The emulator's report reaches the logger some time after the process has
%% died: a probe handler (this module's log/2) tells main when the logger has it.
%% otp_plain_crash.filter masks dates and pids.
main() ->
    io:format("before~n"),
    crash(fun() -> error(boom) end),
    crash(fun() -> error({badmatch, [1, 2, 3]}) end),
    crash(fun() -> throw(ball) end),
    crash(fun() -> register(crashing_name, self()), error({named, crashing_name}) end),
    crash({?MODULE, crash_mfa, [an_argument]}),
    no_report(fun() -> exit(my_reason) end),
    no_report(fun() -> exit(normal) end),
    no_report(fun() -> receive never -> ok end end, kill),
    no_report(fun() -> ok end),
    io:format("after~n"),
    ok.

crash_mfa(Arg) ->
    erlang:binary_to_atom(Arg).

crash(What) ->
    ok = logger:add_handler(probe, ?MODULE, #{config => self()}),
    {P, M} = case What of
                 {Mod, F, A} -> spawn_monitor(Mod, F, A);
                 Fun -> spawn_monitor(Fun)
             end,
    receive {'DOWN', M, process, P, Why} -> ok end,
    await_report(),
    ok = logger:remove_handler(probe),
    io:format("down: ~p~n~n", [strip(Why)]).

no_report(Fun) -> no_report(Fun, none).

no_report(Fun, Kill) ->
    {P, M} = spawn_monitor(Fun),
    Kill =:= kill andalso exit(P, kill),
    receive {'DOWN', M, process, P, Why} -> ok end,
    io:format("down: ~p, no report~n", [strip(Why)]).

strip({R, Stack}) when is_list(Stack) -> {R, stack};
strip(R) -> R.

%% The probe is called (before the default handler) by the process that dispatches the event
%% to the handlers; once that process has handled its current message (sys:get_state/1
%% answers, or it is gone), the default handler has the event too, and filesync waits until
%% the default handler has printed it.
await_report() ->
    receive {probe, Dispatcher} -> ok
    after 5000 -> Dispatcher = none
    end,
    _ = (catch sys:get_state(Dispatcher, 1000)),
    _ = (catch logger_std_h:filesync(default)),
    ok.

log(_Event, #{config := Main}) ->
    Main ! {probe, self()}.
