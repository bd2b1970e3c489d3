-module(spawn_crash).
-export([main/0, crash_in/1]).

%% An uncaught error in a spawned process: a crash report is logged (not checked, see quiet_logger),
%% the process dies with {Reason, Stack}, and the rest of the program carries on. Only the
%% reason's first element is printed (stacks are implementation details).
main() ->
    quiet_logger(),
    Self = self(),
    io:format("before~n"),
    P = spawn(fun() -> Self ! started, erlang:error(badarg) end),
    Ref = monitor(process, P),
    receive started -> ok end,
    receive {'DOWN', Ref, process, P, {Reason, Stack}} ->
            io:format("crashed with {~p, Stack}, stack is a list: ~p~n", [Reason, is_list(Stack)])
    end,
    io:format("still running, main alive: ~p~n", [is_process_alive(self())]),
    {P2, R2} = spawn_monitor(?MODULE, crash_in, [badarith]),
    receive {'DOWN', R2, process, P2, {badarith, S2}} ->
            io:format("badarith, stack is a list: ~p~n", [is_list(S2)])
    end,
    {P3, R3} = spawn_monitor(?MODULE, crash_in, [case_clause]),
    receive {'DOWN', R3, process, P3, {{case_clause, V3}, _}} -> io:format("case_clause value: ~p~n", [V3]) end,
    {P4, R4} = spawn_monitor(?MODULE, no_such_function, [1, 2]),
    receive {'DOWN', R4, process, P4, {undef, S4}} ->
            io:format("spawn/3 of a missing function: {undef, Stack}, stack is a list: ~p~n", [is_list(S4)])
    end,
    %% Caught inside the process: no crash.
    {P5, R5} = spawn_monitor(fun() -> try erlang:error(caught_me) catch error:caught_me -> ok end end),
    receive {'DOWN', R5, process, P5, W5} -> io:format("caught inside: ~p~n", [W5]) end,
    %% Several crashing processes at once; main collects all reasons.
    Ws = [spawn_monitor(?MODULE, crash_in, [K]) || K <- [badarith, badarg, case_clause, function_clause, badmatch]],
    Rs = [receive {'DOWN', R, process, Pw, Why} -> first(Why) end || {Pw, R} <- Ws],
    io:format("reasons: ~p~n", [Rs]),
    io:format("after~n"),
    ok.

crash_in(badarith) -> 1 / zero();
crash_in(badarg) -> list_to_atom(zero());
crash_in(case_clause) -> case zero() of 1 -> one end;
crash_in(function_clause) -> only_one(zero());
crash_in(badmatch) -> 1 = zero().

only_one(1) -> ok.

zero() -> list_to_integer("0").

first({R, Stack}) when is_list(Stack) -> R;
first(R) -> {not_a_pair, R}.


%% erl's logger writes a crash report for every uncaught error/throw in a process to *stdout*
%% (asynchronously, with a timestamp and pids), which would make the expected output
%% nondeterministic; switch it off. beamlet has no logger module: the call raises undef, ignored.
quiet_logger() ->
    try logger:set_primary_config(level, none) catch error:undef -> ok end.
