%% erlang:system_flag(system_logger, _): the runtime's own log events (here a crashed
%% process's error report) go to the process it names, nowhere with undefined, and to logger
%% once that process is gone (the setting with them).
-module(system_logger).
-export([main/0]).

main() ->
    ok = logger:remove_handler(default),  % (events that reach logger are not printed)
    Initial = erlang:system_info(system_logger),
    io:format("initial is a pid: ~p~n", [is_pid(Initial)]),
    Me = self(),
    {Logger, LoggerRef} = spawn_monitor(fun F() -> receive M -> Me ! {got, M}, F() end end),
    io:format("set returns the initial: ~p~n", [erlang:system_flag(system_logger, Logger) =:= Initial]),
    io:format("now the logger: ~p~n", [erlang:system_info(system_logger) =:= Logger]),
    crash(),
    receive
        {got, {log, Level, Format, [Pid, {{badmatch, nok}, _}], #{pid := Pid, error_logger := EL}}} ->
            io:format("event: ~p ~s ~w~n", [Level, Format, EL])
    after 2000 -> io:format("no event~n")
    end,
    io:format("bad setting: ~p~n", [catch_badarg(fun() -> erlang:system_flag(system_logger, "x") end)]),
    io:format("to undefined: ~p~n", [erlang:system_flag(system_logger, undefined) =:= Logger]),
    crash(),
    receive {got, _} -> io:format("unexpected event~n") after 300 -> io:format("dropped~n") end,
    io:format("back to the logger pid: ~p~n", [erlang:system_flag(system_logger, Logger)]),
    exit(Logger, die),
    receive {'DOWN', LoggerRef, process, Logger, die} -> ok end,
    io:format("after its exit: ~p~n", [erlang:system_info(system_logger) =:= Logger]),
    crash(),  % (the event goes to logger: the setting with it)
    timer:sleep(200),
    io:format("after an event: ~p~n", [erlang:system_info(system_logger)]),
    io:format("restored: ~p~n", [erlang:system_flag(system_logger, Initial)]),
    io:format("initial again: ~p~n", [erlang:system_info(system_logger) =:= Initial]).

crash() ->
    {_, Ref} = spawn_monitor(fun() -> ok = nok() end),
    receive {'DOWN', Ref, _, _, _} -> ok end.

nok() -> nok.

catch_badarg(F) ->
    try F() catch error:badarg -> badarg end.
