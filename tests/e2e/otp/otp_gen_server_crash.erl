-module(otp_gen_server_crash).
-file("otp_gen_server_crash.erl", 2). % stack traces name the file alone, wherever erlc ran
-behaviour(gen_server).
-export([main/0]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2, terminate/2]).

%% What erl -noshell prints to stdout when gen_servers die abnormally: an =ERROR REPORT====
%% from gen_server ("** Generic server ... terminating", the last message, the state, the
%% reason with its stack, and the stack of a client waiting in gen_server:call) followed by a
%% =CRASH REPORT==== from proc_lib (crasher: initial call, pid, registered name, the exception
%% as the shell prints it, ancestors, message_queue_len, messages, links, dictionary,
%% trap_exit, status, heap_size, stack_size, reductions; neighbours). Cases: a crash in
%% handle_call (with a waiting client), in handle_cast of a registered server, a bad return
%% value, stop/3 with a non-shutdown reason, init/1 returning {stop, R} and init/1 raising.
%% The stacks hold OTP's own gen_server/proc_lib frames and line numbers (the same .beam
%% files run on beamlet). otp_gen_server_crash.filter masks dates, pids and the sizes.
main() ->
    Self = self(),
    %% A crash in handle_call; the client is a plain process (its stack is printed).
    {ok, P1} = gen_server:start(?MODULE, {count, 1}, []),
    M1 = monitor(process, P1),
    spawn(fun() -> Self ! {client, catch gen_server:call(P1, {divide_by, 0})} end),
    receive {'DOWN', M1, process, P1, Why1} -> ok end,
    receive {client, {'EXIT', {CR, _}}} -> ok end,
    sync_logger(),
    io:format("down: ~p~nclient exit: ~p~n~n", [element(1, Why1), element(1, CR)]),

    %% A crash in handle_cast of a registered server.
    {ok, P2} = gen_server:start({local, gsc_named}, ?MODULE, {count, 2}, []),
    M2 = monitor(process, P2),
    gen_server:cast(gsc_named, {match, 3}),
    receive {'DOWN', M2, process, P2, Why2} -> ok end,
    sync_logger(),
    io:format("down: ~p~n~n", [element(1, Why2)]),

    %% A callback returning garbage.
    {ok, P3} = gen_server:start(?MODULE, {count, 3}, []),
    M3 = monitor(process, P3),
    P3 ! bad_return,
    receive {'DOWN', M3, process, P3, Why3} -> ok end,
    sync_logger(),
    io:format("down: ~p~n~n", [Why3]),

    %% stop/3 with a reason that is not normal/shutdown: terminate/2 runs, then the report.
    {ok, P4} = gen_server:start(?MODULE, {count, 4}, []),
    ok = gen_server:stop(P4, {bad_day, 4}, infinity),
    sync_logger(),
    io:format("stopped~n~n"),

    %% init/1 returning {stop, Reason}: the starter gets {error, Reason} (the acknowledgement
    %% comes before the process exits and logs its crash report: wait for its end).
    R5 = gen_server:start(?MODULE, {stop, no_config, self()}, []),
    await_init_exit(),
    io:format("start: ~p~n~n", [R5]),
    %% init/1 raising: {error, {Reason, Stack}}.
    {error, {Reason6, _}} = gen_server:start(?MODULE, {crash, 5, self()}, []),
    await_init_exit(),
    io:format("start: {error, {~p, Stack}}~n", [Reason6]),
    ok.

await_init_exit() ->
    P = receive {init_pid, Pid} -> Pid end,
    M = monitor(process, P),
    receive {'DOWN', M, process, P, _} -> ok end,
    sync_logger().

init({count, N}) -> {ok, #{count => N}};
init({stop, R, Parent}) -> Parent ! {init_pid, self()}, {stop, R};
init({crash, N, Parent}) -> Parent ! {init_pid, self()}, {ok, element(N, {})}.

handle_call({divide_by, D}, _From, #{count := C} = S) ->
    {reply, C div D, S}.

handle_cast({match, N}, #{count := C} = S) ->
    N = C,
    {noreply, S}.

handle_info(bad_return, _S) ->
    what_is_this.

terminate({Reason, Stack}, _S) when is_list(Stack) ->
    io:format("terminate: {~p, Stack}~n", [Reason]);
terminate(Reason, _S) ->
    io:format("terminate: ~p~n", [Reason]).

%% The default logger handler prints the reports that a process logs asynchronously, from its
%% own process: wait until it has written everything logged so far (harmless where the
%% logger prints synchronously).
sync_logger() ->
    _ = (catch logger_std_h:filesync(default)),
    ok.
