%% A thousand connections at once: one acceptor, a handler process per connection, every
%% client sending its number and reading it back in active once mode; then everything closes
%% and the VM's ports and file descriptors are as before.
-module(tcp_many).
-export([main/0]).

-define(N, 1000).

main() ->
    Ports0 = length(erlang:ports()),
    Fds0 = fds(),
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {backlog, 1024}, {ip, {127,0,0,1}}]),
    {ok, Port} = inet:port(L),
    Acceptor = spawn_link(fun() -> accept(L, ?N) end),
    Clients = [connect(Port, I) || I <- lists:seq(1, ?N)],
    io:format("connected: ~p~n", [length(Clients)]),
    [ok = gen_tcp:send(C, <<I:32>>) || {I, C} <- Clients],
    Answers = [receive {tcp, C, <<I:32>>} -> ok after 10000 -> {timeout, I} end || {I, C} <- Clients],
    io:format("all answered: ~p~n", [lists:all(fun(A) -> A =:= ok end, Answers)]),
    %% (Every connection answered, so every one was accepted: both ends are ports now.)
    io:format("ports open: ~p~n", [length(erlang:ports()) - Ports0]),
    [ok = gen_tcp:close(C) || {_, C} <- Clients],
    receive {Acceptor, handlers_done} -> ok after 20000 -> io:format("handlers did not finish~n") end,
    ok = gen_tcp:close(L),
    timer:sleep(100),
    io:format("ports back: ~p~n", [length(erlang:ports()) =:= Ports0]),
    io:format("descriptors back: ~p~n", [fds() =:= Fds0]).

connect(Port, I) ->
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, once}]),
    {I, C}.

accept(L, N) ->
    Self = self(),
    Handlers = [begin
                    {ok, S} = gen_tcp:accept(L, 10000),
                    H = spawn(fun() -> receive go -> handle(S, Self) end end),
                    ok = gen_tcp:controlling_process(S, H),
                    H ! go,
                    H
                end || _ <- lists:seq(1, N)],
    [receive {done, H} -> ok end || H <- Handlers],
    receive after 0 -> ok end,
    [Main] = [P || P <- element(2, process_info(self(), links)), is_pid(P)],
    Main ! {self(), handlers_done}.

handle(S, Acceptor) ->
    {ok, D} = gen_tcp:recv(S, 4, 10000),
    ok = gen_tcp:send(S, D),
    {error, closed} = gen_tcp:recv(S, 0, 10000),
    Acceptor ! {done, self()}.

fds() -> length(filelib:wildcard("/proc/" ++ os:getpid() ++ "/fd/*")).
