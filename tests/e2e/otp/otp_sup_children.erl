-module(otp_sup_children).
-file("otp_sup_children.erl", 2). % stack traces name the file alone, wherever erlc ran
-behaviour(supervisor).
-export([main/0, init/1, start_worker/1, start_worker/2]).

%% Managing the children of a one_for_one supervisor: terminate_child (the child stays as a
%% spec with pid undefined), restart_child, delete_child (only once terminated),
%% start_child with a new spec, an id already present / running, a child whose start fails,
%% get_childspec, check_childspecs, which_children/count_children (pids masked), temporary
%% children (never restarted, forgotten when they exit) and transient ones (restarted only on
%% an abnormal exit: not after normal or {shutdown, _}), and a supervisor whose init/1 returns ignore.
%% otp_sup_children.filter masks dates and pids.
main() ->
    register(sup_test_main, self()),
    process_flag(trap_exit, true),
    {ok, Sup} = supervisor:start_link({local, sup_ch}, ?MODULE, []),
    io:format("started: ~p~n", [started(2)]),
    show(),
    io:format("terminate_child a: ~p~n", [supervisor:terminate_child(sup_ch, a)]),
    io:format("stopped: ~p~n", [stopped(1)]),
    show(),
    io:format("terminate_child a again: ~p~n", [supervisor:terminate_child(sup_ch, a)]),
    io:format("terminate_child missing: ~p~n", [supervisor:terminate_child(sup_ch, nobody)]),
    io:format("restart_child b (running): ~p~n", [supervisor:restart_child(sup_ch, b)]),
    {ok, PA} = supervisor:restart_child(sup_ch, a),
    io:format("restart_child a: {ok, pid ~p}, started: ~p~n", [is_pid(PA), started(1)]),
    io:format("delete_child a (running): ~p~n", [supervisor:delete_child(sup_ch, a)]),
    ok = supervisor:terminate_child(sup_ch, a),
    stopped(1),
    io:format("delete_child a: ~p~n", [supervisor:delete_child(sup_ch, a)]),
    io:format("restart_child a (deleted): ~p~n", [supervisor:restart_child(sup_ch, a)]),
    show(),

    Spec = #{id => t, start => {?MODULE, start_worker, [t]}, restart => temporary},
    {ok, PT} = supervisor:start_child(sup_ch, Spec),
    io:format("start_child t: started ~p~n", [started(1)]),
    {error, {already_started, PT2}} = supervisor:start_child(sup_ch, Spec),
    io:format("start_child t again: already_started, same pid ~p~n", [PT2 =:= PT]),
    io:format("get_childspec t: ~p~n", [supervisor:get_childspec(sup_ch, t)]),
    io:format("get_childspec none: ~p~n", [supervisor:get_childspec(sup_ch, none)]),
    Mt = monitor(process, PT),
    PT ! {exit, gone},
    receive {'DOWN', Mt, process, PT, _} -> ok end,
    Ids = ids(), % the supervisor has handled the exit (and logged its report)
    sync_logger(),
    io:format("temporary child exited, specs: ~p~n", [Ids]),

    Tr = #{id => tr, start => {?MODULE, start_worker, [tr]}, restart => transient},
    {ok, PTr} = supervisor:start_child(sup_ch, Tr),
    started(1),
    Mtr = monitor(process, PTr),
    PTr ! {exit, normal},
    receive {'DOWN', Mtr, process, PTr, _} -> ok end,
    io:format("transient child exited normally: ~w~n", [lists:keyfind(tr, 1, supervisor:which_children(sup_ch))]),
    {ok, PTr2} = supervisor:restart_child(sup_ch, tr),
    started(1),
    Mtr2 = monitor(process, PTr2),
    PTr2 ! {exit, {shutdown, bye}},
    receive {'DOWN', Mtr2, process, PTr2, _} -> ok end,
    io:format("transient child exited with {shutdown, bye}: ~w~n",
              [lists:keyfind(tr, 1, supervisor:which_children(sup_ch))]),
    {ok, PTr3} = supervisor:restart_child(sup_ch, tr),
    started(1),
    PTr3 ! {exit, crashed},
    Restarted = started(1),
    sync_logger(),
    io:format("transient child crashed: restarted ~p~n", [Restarted]),

    io:format("start_child failing: ~p~n",
              [supervisor:start_child(sup_ch, #{id => f, start => {?MODULE, start_worker, [f, fail]}})]),
    io:format("start_child ignore: ~p~n",
              [supervisor:start_child(sup_ch, #{id => i, start => {?MODULE, start_worker, [i, ignore]}})]),
    io:format("start_child, id present: ~p~n",
              [supervisor:start_child(sup_ch, #{id => i, start => {?MODULE, start_worker, [i]}})]),
    sync_logger(),
    show(),
    io:format("check_childspecs ok: ~p~n", [supervisor:check_childspecs([Spec])]),
    io:format("check_childspecs bad: ~p~n", [supervisor:check_childspecs([#{id => x, start => nope}])]),
    io:format("init ignore: ~p~n", [supervisor:start_link(?MODULE, ignore)]),

    exit(Sup, shutdown),
    receive {'EXIT', Sup, R} -> io:format("supervisor exit: ~p~n", [R]) end,
    io:format("stopped: ~p~n", [stopped(2)]),
    ok.

show() ->
    io:format("which_children: ~p~n", [[{Id, pid_or(P)} || {Id, P, _, _} <- supervisor:which_children(sup_ch)]]),
    io:format("count_children: ~p~n", [supervisor:count_children(sup_ch)]).

ids() -> [Id || {Id, _, _, _} <- supervisor:which_children(sup_ch)].

pid_or(P) when is_pid(P) -> pid;
pid_or(Other) -> Other.

init([]) ->
    {ok, {#{strategy => one_for_one, intensity => 10, period => 60},
          [#{id => Id, start => {?MODULE, start_worker, [Id]}} || Id <- [a, b]]}};
init(ignore) ->
    ignore.

start_worker(_Id, fail) -> {error, cannot_start};
start_worker(_Id, ignore) -> ignore.

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

%% The default logger handler prints the reports that a process logs asynchronously, from its
%% own process: wait until it has written everything logged so far (harmless where the
%% logger prints synchronously).
sync_logger() ->
    _ = (catch logger_std_h:filesync(default)),
    ok.
