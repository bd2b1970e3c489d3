-module(otp_sup_intensity).
-file("otp_sup_intensity.erl", 2). % stack traces name the file alone, wherever erlc ran
-behaviour(supervisor).
-export([main/0, init/1, start_worker/1]).

%% Restart intensity: a one_for_one supervisor allowing 2 restarts in 3600 s restarts a
%% crashing child twice; the third crash exceeds the intensity: the supervisor logs
%% child_terminated, then shutdown / reached_max_restart_intensity (=SUPERVISOR REPORT====
%% each), shuts its other children down and exits with reason shutdown. With intensity 0 the
%% first crash ends the supervisor. A nested supervisor that gives up is restarted by its
%% parent like any child. otp_sup_intensity.filter masks dates and pids.
main() ->
    register(sup_test_main, self()),
    process_flag(trap_exit, true),
    {ok, Sup} = supervisor:start_link({local, sup_int}, ?MODULE, {2, [crashy, steady]}),
    io:format("started: ~p~n", [started(2)]),
    crash(crashy, first),
    R1 = started(1),
    sync_logger(),
    io:format("restarted: ~p~n", [R1]),
    crash(crashy, second),
    R2 = started(1),
    sync_logger(),
    io:format("restarted: ~p~n", [R2]),
    crash(crashy, third),
    receive {'EXIT', Sup, R} -> ok end,
    Stopped = stopped(1),
    sync_logger(),
    io:format("supervisor exit: ~p, stopped: ~p, alive: ~p~n", [R, Stopped, is_process_alive(Sup)]),
    io:format("name free: ~p~n~n", [whereis(sup_int)]),

    {ok, Sup0} = supervisor:start_link({local, sup_int}, ?MODULE, {0, [only]}),
    io:format("started: ~p~n", [started(1)]),
    crash(only, at_once),
    receive {'EXIT', Sup0, R0} -> ok end,
    sync_logger(),
    io:format("intensity 0, supervisor exit: ~p~n~n", [R0]),

    %% A supervisor under a supervisor: the inner one gives up, the outer restarts it.
    {ok, Outer} = supervisor:start_link({local, sup_outer}, ?MODULE, outer),
    io:format("started: ~p~n", [started(1)]),
    crash(inner_worker, boom),
    Inner = started(1),
    sync_logger(),
    io:format("inner supervisor restarted with its child: ~p~n", [Inner]),
    io:format("outer children: ~p~n", [[{Id, T} || {Id, _, T, _} <- supervisor:which_children(sup_outer)]]),
    unlink(Outer),
    M = monitor(process, Outer),
    exit(Outer, shutdown),
    receive {'DOWN', M, process, Outer, RO} -> io:format("outer exit: ~p~n", [RO]) end,
    io:format("stopped: ~p~n", [stopped(1)]),
    ok.

init({Intensity, Ids}) ->
    Flags = #{strategy => one_for_one, intensity => Intensity, period => 3600},
    {ok, {Flags, [#{id => Id, start => {?MODULE, start_worker, [Id]}} || Id <- Ids]}};
init(outer) ->
    Inner = #{id => inner, start => {supervisor, start_link, [?MODULE, {0, [inner_worker]}]},
              type => supervisor},
    {ok, {#{strategy => one_for_one, intensity => 5, period => 3600}, [Inner]}}.

start_worker(Id) ->
    %% The child reports before start_worker returns, so reports arrive in start order.
    Parent = self(),
    Pid = spawn_link(fun() ->
                             process_flag(trap_exit, true),
                             register(Id, self()),
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

crash(Id, Reason) -> Id ! {exit, Reason}.

started(N) -> [receive {started, Id} -> Id end || _ <- lists:seq(1, N)].
stopped(N) -> [receive {stopped, Id} -> Id end || _ <- lists:seq(1, N)].

%% The default logger handler prints the reports that a process logs asynchronously, from its
%% own process: wait until it has written everything logged so far (harmless where the
%% logger prints synchronously).
sync_logger() ->
    _ = (catch logger_std_h:filesync(default)),
    ok.
