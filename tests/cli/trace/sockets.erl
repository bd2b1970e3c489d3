%% A server and a client over loopback, for `beamlet trace -e ports`: sockets are ports.
-module(sockets).
-export([main/0]).

main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, P} = inet:port(L),
    Client = spawn(fun() ->
                           {ok, C} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]),
                           ok = gen_tcp:send(C, <<"hi">>),
                           receive done -> gen_tcp:close(C) end
                   end),
    {ok, S} = gen_tcp:accept(L),
    io:format("~p~n", [gen_tcp:recv(S, 0)]),
    ok = gen_tcp:close(S),
    ok = gen_tcp:close(L),
    Ref = monitor(process, Client),
    Client ! done,
    receive {'DOWN', Ref, _, _, _} -> ok end.
