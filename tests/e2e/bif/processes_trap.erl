%% tests/e2e/bif/processes_trap.erl — erlang:processes/0 with few reductions left traps, as
%% OTP's does: the caller is scheduled out and continues in erlang:ptab_list_continue/2, which
%% process_info(P, current_function) and trace's running events show meanwhile (OTP's
%% process_SUITE:processes_gc_trap); the answer is the processes alive at the call. Also
%% system_info(allocator)'s shape.
-module(processes_trap).
-export([main/0]).

main() ->
    logger:set_primary_config(level, error),  % no warning report about the internal state
    erts_debug:set_internal_state(available_internal_state, true),
    Self = self(),
    T = spawn(fun() -> collect([]) end),
    P = spawn(fun() ->
                      receive go -> ok end,
                      erts_debug:set_internal_state(reds_left, 10),
                      Ps = processes(),
                      Self ! {listed, lists:member(Self, Ps), lists:member(self(), Ps)},
                      receive stop -> ok end
              end),
    wait_until_waiting(P),  % its first run is over: the events start at the next one
    erlang:trace(P, true, [running, {tracer, T}]),
    P ! go,
    receive {listed, Main, Own} -> io:format("lists main: ~p, itself: ~p~n", [Main, Own]) end,
    erlang:trace(P, false, [running]),
    T ! {dump, self()},
    %% Up to P's wait in `receive stop`: at -S 2 this process switching P's tracing off can
    %% reach P while it still runs and have it scheduled out and in again first (timing).
    receive {events, E} -> io:format("running: ~p~n", [until_waiting([{W, F} || {trace, _, W, F} <- E])]) end,
    %% Suspended between two slices (on two schedulers, Q may not have made the call yet when
    %% it is first suspended: then it runs on a little and is looked at again).
    Q = suspended_in_trap(Self),
    io:format("suspended in: ~p~n", [process_info(Q, [status, current_function])]),
    true = erlang:resume_process(Q),
    receive {Q, done, D} -> io:format("done: ~p~n", [D]) end,
    {glibc, [Major, Minor], Features, Settings} = erlang:system_info(allocator),
    io:format("allocator: ~p ~p ~p~n", [is_integer(Major) andalso is_integer(Minor),
                                        lists:member(sys_alloc, Features),
                                        proplists:get_value(sys_alloc, Settings)]),
    [X ! stop || X <- [P, Q]],
    ok.

suspended_in_trap(Self) ->
    Q = spawn(fun() ->
                      Self ! {suspend_me, self()},
                      erts_debug:set_internal_state(reds_left, 10),
                      Self ! {self(), done, is_list(processes())},
                      receive stop -> ok end
              end),
    receive {suspend_me, Q} -> ok end,
    catch_in_trap(Self, Q).

catch_in_trap(Self, Q) ->
    true = erlang:suspend_process(Q),
    case process_info(Q, current_function) of
        {current_function, {erlang, ptab_list_continue, 2}} ->
            Q;
        _ ->
            true = erlang:resume_process(Q),
            receive
                {Q, done, _} -> Q ! stop, suspended_in_trap(Self)  % missed it: again
            after 0 ->
                erlang:yield(),
                catch_in_trap(Self, Q)
            end
    end.

until_waiting([{out, {?MODULE, _, _}} = Out | _]) -> [Out];
until_waiting([Event | Rest]) -> [Event | until_waiting(Rest)];
until_waiting([]) -> [].

wait_until_waiting(P) ->
    case process_info(P, status) of
        {status, waiting} -> ok;
        _ -> erlang:yield(), wait_until_waiting(P)
    end.

collect(Acc) ->
    receive
        {dump, To} -> To ! {events, lists:reverse(Acc)};
        E -> collect([E | Acc])
    end.
