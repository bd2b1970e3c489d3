%% The main process traps exits, as erl's -eval process does (init starts it so): the exits of
%% linked processes and ports arrive as messages, whatever their reason.
-module(main_traps_exits).
-export([main/0]).

main() ->
    io:format("~p~n", [process_info(self(), trap_exit)]),
    Crash = spawn_link(fun() -> exit(boom) end),
    receive {'EXIT', Crash, R1} -> io:format("exit ~p~n", [R1]) end,
    Done = spawn_link(fun() -> ok end),
    receive {'EXIT', Done, R2} -> io:format("exit ~p~n", [R2]) end,
    Port = open_port({spawn, "echo hi"}, []),
    receive {Port, {data, D}} -> io:format("data ~p~n", [D]) end,
    receive {'EXIT', Port, R3} -> io:format("port exit ~p~n", [R3]) end,
    Killed = spawn_link(fun() -> receive after infinity -> ok end end),
    exit(Killed, kill),
    receive {'EXIT', Killed, R4} -> io:format("exit ~p~n", [R4]) end,
    process_flag(trap_exit, false),
    io:format("~p~n", [process_info(self(), trap_exit)]).
