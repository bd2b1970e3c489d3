-module(otp_proc_lib).
-file("otp_proc_lib.erl", 2). % stack traces name the file alone, wherever erlc ran
-export([main/0, loop/1, starter/2]).

%% proc_lib: spawn/spawn_link of MFAs and funs (process_info initial_call is proc_lib's
%% init_p/5; proc_lib:initial_call/1 and translate_initial_call/1 give the real one; the
%% dictionary holds '$ancestors' and '$initial_call'), start/start_link with init_ack (any
%% value comes back to the starter), a start that times out, a child that exits before
%% acknowledging, and the =CRASH REPORT==== proc_lib logs when one of its processes dies with
%% an error, an exit or a throw (none for normal, shutdown and {shutdown, _}).
%% otp_proc_lib.filter masks dates, pids and sizes.
main() ->
    Self = self(),
    P = proc_lib:spawn(?MODULE, loop, [a]),
    io:format("process_info initial_call: ~p~n", [process_info(P, initial_call)]),
    io:format("proc_lib:initial_call: ~p~n", [proc_lib:initial_call(P)]),
    io:format("translate_initial_call: ~p~n", [proc_lib:translate_initial_call(P)]),
    {dictionary, D} = process_info(P, dictionary),
    io:format("dictionary keys: ~p~n", [lists:sort([K || {K, _} <- D])]),
    io:format("ancestors: ~p~n", [proplists:get_value('$ancestors', D) =:= [Self]]),
    io:format("links: ~p~n", [process_info(P, links)]),

    L = proc_lib:spawn_link(fun() -> loop(b) end),
    {links, Links} = process_info(L, links),
    io:format("spawn_link of a fun, linked: ~p~n", [Links =:= [Self]]),
    {M, F, Args} = proc_lib:initial_call(L),
    io:format("fun initial_call: ~p ~p ~p~n", [M, is_atom(F), Args]),
    io:format("fun translate_initial_call: ~p~n", [element(1, proc_lib:translate_initial_call(L))]),
    io:format("initial_call of a plain process: ~p~n", [proc_lib:initial_call(self())]),
    Plain = spawn(?MODULE, loop, [c]),
    io:format("translate_initial_call of a plain process: ~p~n", [proc_lib:translate_initial_call(Plain)]),
    unlink(L),
    [X ! stop || X <- [P, L, Plain]],

    %% start/start_link with init_ack.
    io:format("start_link: ~p~n", [proc_lib:start_link(?MODULE, starter, [ack, ready])]),
    {ok, S} = proc_lib:start_link(?MODULE, starter, [ack_pid, ok]),
    io:format("start_link acked its pid: ~p~n", [S =:= whereis(started_one)]),
    io:format("start with timeout: ~p~n", [proc_lib:start(?MODULE, starter, [never, x], 20)]),
    io:format("start, child exits normally before acking: ~p~n",
              [proc_lib:start(?MODULE, starter, [exit_first, normal])]),
    S ! stop,

    %% Crash reports.
    [crash(How) || How <- [normal, shutdown, {shutdown, x}, exit, error, throw]],
    ok.

crash(How) ->
    {P, M} = proc_lib:spawn_opt(fun() -> die(How) end, [monitor]),
    receive {'DOWN', M, process, P, Why} -> ok end,
    sync_logger(),
    io:format("~p: down ~p~n~n", [How, strip(Why)]).

die(exit) -> exit(crashed);
die(error) -> error({bad, thing});
die(throw) -> throw(ball);
die(Reason) -> exit(Reason).

strip({R, Stack}) when is_list(Stack) -> {R, stack};
strip(R) -> R.

loop(Tag) ->
    receive stop -> Tag end.

starter(ack, Value) ->
    proc_lib:init_ack(Value),
    loop(x);
starter(ack_pid, ok) ->
    register(started_one, self()),
    proc_lib:init_ack({ok, self()}),
    loop(x);
starter(never, _) ->
    loop(x);
starter(exit_first, Reason) ->
    exit(Reason).

%% The default logger handler prints the reports that a process logs asynchronously, from its
%% own process: wait until it has written everything logged so far (harmless where the
%% logger prints synchronously).
sync_logger() ->
    _ = (catch logger_std_h:filesync(default)),
    ok.
