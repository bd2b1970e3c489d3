-module(otp_sup_one_for_all).
-file("otp_sup_one_for_all.erl", 2). % stack traces name the file alone, wherever erlc ran
-behaviour(supervisor).
-export([main/0, init/1, start_worker/1]).

%% supervisor with the one_for_all strategy: four permanent workers a, b, c, d; when one dies
%% the supervisor shuts down all the others (last started first) and restarts all of them in
%% start order. Workers trap exits and tell main when they start and when the supervisor shuts
%% them down (main receives these in the order the supervisor acts). The supervisor logs one
%% =SUPERVISOR REPORT==== (child_terminated) per death. otp_sup_one_for_all.filter masks dates
%% and pids.
main() ->
    register(sup_test_main, self()),
    process_flag(trap_exit, true),
    {ok, Sup} = supervisor:start_link({local, sup_ofa}, ?MODULE, []),
    io:format("started: ~p~n", [started(4)]),

    exit(child_pid(b), kill),
    Stopped1 = stopped(3),
    Started1 = started(4),
    sync_logger(),
    io:format("b killed: stopped ~p, restarted ~p~n", [Stopped1, Started1]),

    child_pid(c) ! {exit, crashed},
    Stopped2 = stopped(3),
    Started2 = started(4),
    sync_logger(),
    io:format("c exited: stopped ~p, restarted ~p~n", [Stopped2, Started2]),

    %% The last child: one_for_all restarts everything, rest_for_one only d.
    child_pid(d) ! {exit, crashed},
    Stopped3 = stopped(3),
    Started3 = started(4),
    sync_logger(),
    io:format("d exited: stopped ~p, restarted ~p~n", [Stopped3, Started3]),
    io:format("which_children: ~p~n", [[{Id, is_pid(P)} || {Id, P, _, _} <- supervisor:which_children(sup_ofa)]]),
    io:format("count_children: ~p~n", [supervisor:count_children(sup_ofa)]),

    exit(Sup, shutdown),
    receive {'EXIT', Sup, R} -> io:format("supervisor exit: ~p~n", [R]) end,
    io:format("stopped: ~p~n", [stopped(4)]),
    io:format("nothing else: ~p~n", [process_info(self(), message_queue_len)]),
    ok.

init([]) ->
    Flags = #{strategy => one_for_all, intensity => 10, period => 60},
    {ok, {Flags, [#{id => Id, start => {?MODULE, start_worker, [Id]}} || Id <- [a, b, c, d]]}}.

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

child_pid(Id) ->
    {Id, P, _, _} = lists:keyfind(Id, 1, supervisor:which_children(sup_ofa)),
    P.

%% The default logger handler prints the reports that a process logs asynchronously, from its
%% own process: wait until it has written everything logged so far (harmless where the
%% logger prints synchronously).
sync_logger() ->
    _ = (catch logger_std_h:filesync(default)),
    ok.
