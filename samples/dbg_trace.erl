%% samples/dbg_trace.erl — OTP's own dbg, unmodified, tracing a small gen_server: calls to the
%% server's callbacks with their return values (a fun2ms match spec, transformed at compile
%% time), the server's messages and its process events. dbg prints every
%% trace message itself, as on erl.
-module(dbg_trace).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2]).
-include_lib("stdlib/include/ms_transform.hrl").

main() ->
    {ok, Server} = gen_server:start(?MODULE, 0, []),
    {ok, _} = dbg:tracer(),
    {ok, _} = dbg:p(Server, [c, m, p]),
    {ok, _} = dbg:tpl(?MODULE, handle_call, dbg:fun2ms(fun([{add, N}, _, _]) when N > 0 -> return_trace() end)),
    1 = gen_server:call(Server, {add, 1}),
    3 = gen_server:call(Server, {add, 2}),
    3 = gen_server:call(Server, {add, 0}),  % N > 0 fails: not traced
    ok = gen_server:stop(Server),
    timer:sleep(100),
    dbg:stop(),
    io:format("done~n").

init(N) -> {ok, N}.

handle_call({add, N}, _From, Sum) -> {reply, Sum + N, Sum + N}.

handle_cast(_, Sum) -> {noreply, Sum}.
