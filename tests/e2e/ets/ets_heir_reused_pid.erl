%% tests/e2e/ets/ets_heir_reused_pid.erl — an ETS heir that died is not replaced by a process
%% that has its pid since (erts_debug:set_internal_state(next_pid, N) gives a dead process's
%% pid out again, as ets_SUITE:heir does): the table dies with its owner, as on OTP. The heir
%% alive when the owner dies gets the table.
-module(ets_heir_reused_pid).
-export([main/0]).

main() ->
    erts_debug:set_internal_state(available_internal_state, true),
    Self = self(),
    %% The heir alive: it gets the table.
    {Heir1, M1} = spawn_monitor(fun() -> receive {'ETS-TRANSFER', T, _, D} -> Self ! {got, ets:info(T, name), D} end end),
    {Owner1, O1} = spawn_monitor(fun() -> ets:new(tab1, [named_table, {heir, Heir1, data1}]), Self ! made, receive die -> ok end end),
    receive made -> ok end,
    Owner1 ! die,
    receive {got, Name, Data} -> io:format("heir got ~p with ~p~n", [Name, Data]) end,
    [receive {'DOWN', R, process, _, _} -> ok end || R <- [M1, O1]],

    %% The heir dead, its pid given to another process: the table is deleted. (As in
    %% ets_SUITE:heir, tried again until the pid is given out again.)
    {ok, Info, Ms} = reused_heir(20),
    io:format("table after the owner: ~p~n", [Info]),
    io:format("the new process got: ~p~n", [Ms]),
    io:format("set to a bad value: ~p~n", [try erts_debug:set_internal_state(next_pid, -1) catch error:R -> R end]),
    erts_debug:set_internal_state(available_internal_state, false).

reused_heir(0) -> never_reused;
reused_heir(Tries) ->
    Self = self(),
    Next = erts_debug:get_internal_state(next_pid),
    {Owner, O} = spawn_monitor(fun() -> {heir, H} = receive_any(),
                                        ets:new(tab2, [named_table, {heir, H, data2}]),
                                        Self ! made,
                                        die = receive_any() end),
    {Heir, M} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', M, process, Heir, normal} -> ok end,
    Owner ! {heir, Heir},
    receive made -> ok end,
    erts_debug:set_internal_state(next_pid, Next),
    case spawn_as(Heir, 10) of
        failed ->
            Owner ! die,
            receive {'DOWN', O, process, Owner, normal} -> ok end,
            reused_heir(Tries - 1);
        Again ->
            Owner ! die,
            receive {'DOWN', O, process, Owner, normal} -> ok end,
            Info = ets:info(tab2, name),
            Again ! {report, self()},
            receive {messages, Ms} -> {ok, Info, Ms} end
    end.

%% A process with [Pid], if the next spawns give it.
spawn_as(_, 0) -> failed;
spawn_as(Pid, N) ->
    P = spawn(fun() -> receive {report, To} -> {messages, Ms} = process_info(self(), messages), To ! {messages, Ms} end end),
    case P of
        Pid -> P;
        _ -> exit(P, kill), spawn_as(Pid, N - 1)
    end.

receive_any() -> receive M -> M end.
