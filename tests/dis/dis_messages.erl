%% beamlet dis golden: spawn_link, send (! and erlang:send), selective receive, after.
-module(dis_messages).
-export([main/0, echo/0]).

main() ->
    Pid = spawn_link(?MODULE, echo, []),
    Ref = make_ref(),
    Pid ! {self(), Ref, hello},
    R = receive {Ref, Reply} -> Reply after 1000 -> timeout end,
    erlang:send(Pid, stop),
    io:format("~p~n", [R]).

echo() ->
    receive
        {From, Ref, Msg} -> From ! {Ref, Msg}, echo();
        stop -> ok
    end.
