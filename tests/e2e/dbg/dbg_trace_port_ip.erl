%% dbg's IP trace port: dbg:trace_port(ip, {0, QueueSize}) as the tracer, its listening port
%% from dbg:trace_port_control/2, and dbg:trace_client(ip, Port, {Fun, State}) reading the
%% traces over TCP: those made before the client came wait in the port's queue, those past
%% its size are dropped and counted ({drop, N}); the client sees the end when dbg stops.
-module(dbg_trace_port_ip).
-export([main/0, work/1]).

main() ->
    {ok, _} = dbg:tracer(port, dbg:trace_port(ip, {0, 5})),
    {ok, IpPort} = dbg:trace_port_control(node(), get_listen_port),
    io:format("listening: ~p~n", [is_integer(IpPort) andalso IpPort > 0]),
    io:format("flush: ~p~n", [dbg:flush_trace_port()]),
    {ok, _} = dbg:p(self(), [call]),
    {ok, _} = dbg:tp(?MODULE, work, 1, []),
    %% Before any client: five wait, the others are dropped.
    [?MODULE:work(N) || N <- lists:seq(1, 8)],
    Self = self(),
    Handler = fun({trace, _Pid, call, MFA}, Acc) -> Self ! {traced, {call, MFA}}, Acc;
                 (Other, Acc) -> Self ! {traced, Other}, Acc
              end,
    Client = dbg:trace_client(ip, IpPort, {Handler, []}),
    timer:sleep(500),
    %% With the client there: every one arrives.
    [?MODULE:work(N) || N <- lists:seq(9, 12)],
    io:format("read by the client:~n"),
    [io:format("  ~p~n", [T]) || T <- traced()],
    dbg:stop_trace_client(Client),
    dbg:stop(),
    ok.

%% What the client has read so far (until it has been quiet for a second).
traced() ->
    receive {traced, T} -> [T | traced()] after 1000 -> [] end.

work(N) -> N.
