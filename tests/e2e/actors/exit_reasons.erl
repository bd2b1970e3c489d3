-module(exit_reasons).
-export([main/0]).

%% What a monitor (and a trapping linked process) sees as the exit reason for each way a process
%% can end. Error-class reasons are {Reason, Stack}: only the first element (and that the second
%% is a list) is printed.
main() ->
    quiet_logger(),
    Cases = [{return, fun() -> ok end},
             {exit_normal, fun() -> exit(normal) end},
             {exit_atom, fun() -> exit(foo) end},
             {exit_shutdown_tuple, fun() -> exit({shutdown, reason}) end},
             {error_atom, fun() -> erlang:error(foo) end},
             {error_with_args, fun() -> erlang:error(bar, [1, 2]) end},
             {error_tuple, fun() -> erlang:error({my, error}) end},
             {throw, fun() -> throw(ball) end},
             {badarg, fun() -> atom_to_list(id(42)) end},
             {badarith, fun() -> id(1) + id(a) end},
             {badmatch, fun() -> {ok, _} = id({error, x}) end},
             {case_clause, fun() -> case id(7) of 1 -> ok end end},
             {if_clause, fun() -> X = id(3), if X > 5 -> ok end end},
             {function_clause, fun() -> only_atoms(id(1)) end},
             {fun_clause, fun() -> (fun(a) -> ok end)(id(b)) end},
             {badfun, fun() -> (id(not_a_fun))() end},
             {badarity, fun() -> (fun(A) -> A end)() end},
             {undef, fun() -> (id(no_such_module)):f() end},
             {try_clause, fun() -> try id(1) of 2 -> ok catch _ -> ok end end},
             {bad_element, fun() -> element(5, id({a})) end},
             {badkey, fun() -> maps:get(k, id(#{})) end},
             {badmap, fun() -> (id(not_a_map))#{k => 1} end},
             {rethrown_exit, fun() -> try exit(inner) catch exit:R -> exit({wrapped, R}) end end}],
    lists:foreach(fun({Name, F}) -> io:format("~p: ~p~n", [Name, show(monitor_reason(F))]) end, Cases),
    io:format("--- as 'EXIT' messages to a trapping linked process ---~n"),
    lists:foreach(fun({Name, F}) -> io:format("~p: ~p~n", [Name, show(link_reason(F))]) end,
                  [lists:keyfind(K, 1, Cases) || K <- [return, exit_atom, error_atom, throw, badarith, undef]]),
    ok.

id(X) -> X.

only_atoms(A) when is_atom(A) -> A.

monitor_reason(F) ->
    {P, R} = spawn_monitor(F),
    receive {'DOWN', R, process, P, Why} -> Why end.

link_reason(F) ->
    Self = self(),
    {T, R} = spawn_monitor(fun() ->
                                   process_flag(trap_exit, true),
                                   P = spawn_link(F),
                                   receive {'EXIT', P, Why} -> Self ! {reason, Why} end
                           end),
    Why = receive {reason, W} -> W end,
    receive {'DOWN', R, process, T, _} -> ok end,
    Why.

%% {Reason, Stack} -> {Reason, stack}; anything else is printed as is. (None of the exit/1
%% reasons used above is a pair with a list second element.)
show({{badarity, {F, Args}}, Stack}) when is_function(F), is_list(Stack) -> {{badarity, {'Fun', Args}}, stack};
show({Reason, Stack}) when is_list(Stack) -> {Reason, stack};
show(Other) -> Other.

%% erl's logger writes a crash report for every uncaught error/throw in a process to *stdout*
%% (asynchronously, with a timestamp and pids), which would make the expected output
%% nondeterministic; switch it off. beamlet has no logger module: the call raises undef, ignored.
quiet_logger() ->
    try logger:set_primary_config(level, none) catch error:undef -> ok end.
