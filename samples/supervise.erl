%% samples/supervise.erl — a tiny supervisor: trap_exit, spawn_link, restarting a crashing worker
%% a limited number of times. (Named supervise, not supervisor: a module called supervisor
%% would shadow OTP's and stop real erl from booting.)
-module(supervise).
-export([main/0]).

-define(MAX_RESTARTS, 3).

main() ->
    io:format("Starting a supervisor with an unreliable worker (max ~p restarts).~n", [?MAX_RESTARTS]),
    Self = self(),
    {Sup, Ref} = spawn_monitor(fun() -> supervisor_init(Self) end),
    print_events(Sup),
    receive
        {'DOWN', Ref, process, Sup, Why} -> io:format("The supervisor exited with reason ~p.~n", [Why])
    end,
    ok.

supervisor_init(Main) ->
    process_flag(trap_exit, true),
    supervise(Main, 1, 0).

supervise(Main, Generation, Restarts) ->
    Worker = spawn_link(fun() -> worker(Generation) end),
    Main ! {self(), event, io_lib:format("started worker generation ~p", [Generation])},
    receive
        {'EXIT', Worker, normal} ->
            Main ! {self(), event, "worker finished its job"},
            Main ! {self(), done};
        {'EXIT', Worker, Reason} when Restarts < ?MAX_RESTARTS ->
            Main ! {self(), event, io_lib:format("worker crashed: ~p -> restarting", [Reason])},
            supervise(Main, Generation + 1, Restarts + 1);
        {'EXIT', Worker, Reason} ->
            Main ! {self(), event, io_lib:format("worker crashed: ~p -> too many restarts, giving up",
                                                 [Reason])},
            Main ! {self(), done},
            exit(shutdown)
    end.

%% The worker does a little work, then crashes.
worker(Generation) ->
    timer:sleep(10 * Generation),
    exit({disk_on_fire, Generation}).

print_events(Sup) ->
    receive
        {Sup, event, Text} -> io:format("  [supervisor] ~s~n", [Text]), print_events(Sup);
        {Sup, done} -> ok
    end.
