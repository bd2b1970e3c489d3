%% tests/e2e/dbg/dbg_messages.erl — dbg tracing the messages and process events of a small
%% server: dbg:p(Pid, [m, p]) after the server started, sends and receives with their
%% arrows, a spawn, an exit, then dbg:stop_clear/0.
-module(dbg_messages).
-export([main/0]).

main() ->
    {ok, _} = dbg:tracer(),
    Server = spawn(fun loop/0),
    {ok, [{matched, nonode@nohost, 1}]} = dbg:p(Server, [m, p]),
    Server ! {self(), ping},
    receive pong -> ok end,
    Server ! stop,
    timer:sleep(100),
    dbg:stop_clear(),
    io:format("done~n").

loop() ->
    receive
        {From, ping} ->
            From ! pong,
            loop();
        stop ->
            ok
    end.
