%% erlang:process_flag/3 sets save_calls on another process and returns the old value;
%% anything else, or a dead process, is badarg (process_SUITE:process_flag_badarg).
-module(process_flag_3).
-export([main/0]).

main() ->
    {P, Mref} = spawn_monitor(fun() -> receive stop -> ok end end),
    io:format("~p ~p~n", [process_flag(P, save_calls, 10), process_flag(P, save_calls, 0)]),
    io:format("~p~n", [process_flag(self(), save_calls, 5)]),
    Bad = [{P, save_calls, hmmm}, {P, trap_exit, true}, {gurka, save_calls, 1}, {P, save_calls, 10001}],
    io:format("~p~n", [[try process_flag(Pid, F, V) catch error:R -> R end || {Pid, F, V} <- Bad]]),
    P ! stop,
    receive {'DOWN', Mref, process, P, normal} -> ok end,
    io:format("~p~n", [try process_flag(P, save_calls, 0) catch error:R -> R end]),
    ok.
