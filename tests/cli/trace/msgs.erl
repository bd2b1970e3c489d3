%% tests/cli/trace/msgs.erl — messages for `beamlet trace -e ...`: a registered echo server,
%% a client process, a monitor, exits.
-module(msgs).
-export([main/0, echo/0, client/2]).

main() ->
    Echo = spawn(?MODULE, echo, []),
    register(echo, Echo),
    Client = spawn(?MODULE, client, [self(), 3]),
    Ref = monitor(process, Client),
    receive {done, Client, Replies} -> io:format("replies: ~p~n", [Replies]) end,
    receive {'DOWN', Ref, process, Client, normal} -> ok end,
    echo ! stop,
    io:format("done~n").

echo() ->
    receive
        {From, N} -> From ! {echo, N}, echo();
        stop -> ok
    end.

client(Parent, N) ->
    Replies = [begin echo ! {self(), I}, receive {echo, R} -> R end end || I <- lists:seq(1, N)],
    Parent ! {done, self(), Replies}.
