-module(otp_sup_simple).
-file("otp_sup_simple.erl", 2). % stack traces name the file alone, wherever erlc ran
-behaviour(supervisor).
-export([main/0, init/1, start_worker/2]).

%% supervisor with the simple_one_for_one strategy: start_child/2 appends its arguments to
%% the child spec's; transient children are restarted (with the same arguments) only when
%% they exit abnormally (a =SUPERVISOR REPORT==== is logged); terminate_child/2 by pid;
%% which_children and count_children (pids masked); delete_child/restart_child are errors
%% for simple_one_for_one; start_child returning ignore / an error; the supervisor's
%% shutdown stops the remaining children. otp_sup_simple.filter masks dates and pids.
main() ->
    register(sup_test_main, self()),
    process_flag(trap_exit, true),
    {ok, Sup} = supervisor:start_link({local, sup_simple}, ?MODULE, []),
    io:format("no children yet: ~p~n", [supervisor:which_children(sup_simple)]),
    Pids = [begin {ok, P} = supervisor:start_child(sup_simple, [N]), P end || N <- [1, 2, 3]],
    io:format("started: ~p~n", [started(3)]),
    io:format("which_children: ~p~n",
              [lists:sort([{Id, lists:member(P, Pids), T, M} || {Id, P, T, M} <- supervisor:which_children(sup_simple)])]),
    io:format("count_children: ~p~n", [supervisor:count_children(sup_simple)]),
    io:format("start_child ignore: ~p~n", [supervisor:start_child(sup_simple, [ignore])]),
    io:format("start_child error: ~p~n", [supervisor:start_child(sup_simple, [fail])]),

    [P1, P2, P3] = Pids,
    %% A normal exit: a transient child is not restarted (no report).
    M1 = monitor(process, P1),
    P1 ! {exit, normal},
    receive {'DOWN', M1, process, P1, normal} -> ok end,
    io:format("after a normal exit: ~p~n", [supervisor:count_children(sup_simple)]),
    %% An abnormal exit: restarted with the same argument.
    P2 ! {exit, oops},
    Restarted = started(1),
    sync_logger(),
    io:format("after an abnormal exit, restarted: ~p~n", [Restarted]),
    io:format("count_children: ~p~n", [supervisor:count_children(sup_simple)]),

    io:format("terminate_child: ~p~n", [supervisor:terminate_child(sup_simple, P3)]),
    io:format("stopped: ~p~n", [stopped(1)]),
    io:format("terminate_child again: ~p~n", [supervisor:terminate_child(sup_simple, P3)]),
    io:format("delete_child: ~p~n", [supervisor:delete_child(sup_simple, P3)]),
    io:format("restart_child: ~p~n", [supervisor:restart_child(sup_simple, P3)]),
    io:format("count_children: ~p~n", [supervisor:count_children(sup_simple)]),

    exit(Sup, shutdown),
    receive {'EXIT', Sup, R} -> io:format("supervisor exit: ~p~n", [R]) end,
    io:format("stopped: ~p~n", [lists:sort(stopped(1))]),
    ok.

init([]) ->
    Flags = #{strategy => simple_one_for_one, intensity => 10, period => 60},
    Spec = #{id => worker, start => {?MODULE, start_worker, [w]}, restart => transient},
    {ok, {Flags, [Spec]}}.

start_worker(w, ignore) ->
    ignore;
start_worker(w, fail) ->
    {error, no_luck};
start_worker(w, N) ->
    Pid = spawn_link(fun() ->
                             process_flag(trap_exit, true),
                             sup_test_main ! {started, N},
                             worker(N)
                     end),
    {ok, Pid}.

worker(N) ->
    receive
        {exit, Reason} -> exit(Reason);
        {'EXIT', _, shutdown} -> sup_test_main ! {stopped, N}, exit(shutdown)
    end.

started(N) -> [receive {started, Id} -> Id end || _ <- lists:seq(1, N)].
stopped(N) -> [receive {stopped, Id} -> Id end || _ <- lists:seq(1, N)].

%% The default logger handler prints the reports that a process logs asynchronously, from its
%% own process: wait until it has written everything logged so far (harmless where the
%% logger prints synchronously).
sync_logger() ->
    _ = (catch logger_std_h:filesync(default)),
    ok.
