-module(otp_sup_one_for_one).
-file("otp_sup_one_for_one.erl", 2). % stack traces name the file alone, wherever erlc ran
-behaviour(supervisor).
-export([main/0, init/1, start_worker/1]).

%% supervisor with the one_for_one strategy (OTP's supervisor.erl): three permanent workers
%% start in order; when one dies (killed, or exiting with a reason of its own) only that one is
%% restarted; the supervisor logs a =SUPERVISOR REPORT==== (child_terminated, the reason and
%% the offender's child spec) to stdout; progress reports are info level and not printed.
%% which_children and count_children (pids masked), and a supervisor shutdown that stops the
%% children in reverse order. otp_sup_one_for_one.filter masks dates and pids.
main() ->
    register(sup_test_main, self()),
    process_flag(trap_exit, true),
    {ok, Sup} = supervisor:start_link({local, sup_ofo}, ?MODULE, []),
    io:format("started: ~p~n", [started(3)]),
    io:format("which_children: ~p~n", [children()]),
    io:format("count_children: ~p~n", [supervisor:count_children(sup_ofo)]),

    B = child_pid(b),
    exit(B, kill),
    S1 = started(1),
    sync_logger(),
    io:format("b killed, restarted: ~p~n", [S1]),
    io:format("b has a new pid: ~p~n", [child_pid(b) =/= B]),

    child_pid(c) ! {exit, {some, reason}},
    S2 = started(1),
    sync_logger(),
    io:format("c exited, restarted: ~p~n", [S2]),
    io:format("which_children: ~p~n", [children()]),

    %% Shutting the supervisor down stops the children, last started first.
    exit(Sup, shutdown),
    receive {'EXIT', Sup, R} -> io:format("supervisor exit: ~p~n", [R]) end,
    io:format("stopped: ~p~n", [stopped(3)]),
    sync_logger(),
    ok.

init([]) ->
    Flags = #{strategy => one_for_one, intensity => 10, period => 60},
    {ok, {Flags, [#{id => Id, start => {?MODULE, start_worker, [Id]}} || Id <- [a, b, c]]}}.

start_worker(Id) ->
    %% The child reports before start_worker returns, so reports arrive in start order.
    Parent = self(),
    Pid = spawn_link(fun() ->
                             process_flag(trap_exit, true),
                             sup_test_main ! {started, Id},
                             Parent ! {self(), up},
                             worker(Id)
                     end),
    receive {Pid, up} -> ok end,
    {ok, Pid}.

worker(Id) ->
    receive
        {exit, Reason} -> exit(Reason);
        {'EXIT', _, shutdown} -> sup_test_main ! {stopped, Id}, exit(shutdown)
    end.

started(N) -> [receive {started, Id} -> Id end || _ <- lists:seq(1, N)].
stopped(N) -> [receive {stopped, Id} -> Id end || _ <- lists:seq(1, N)].

children() ->
    [{Id, is_pid(P), Type, Mods} || {Id, P, Type, Mods} <- supervisor:which_children(sup_ofo)].

child_pid(Id) ->
    {Id, P, _, _} = lists:keyfind(Id, 1, supervisor:which_children(sup_ofo)),
    P.

%% The default logger handler prints the reports that a process logs asynchronously, from its
%% own process: wait until it has written everything logged so far (harmless where the
%% logger prints synchronously).
sync_logger() ->
    _ = (catch logger_std_h:filesync(default)),
    ok.
