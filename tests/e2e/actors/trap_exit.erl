-module(trap_exit).
-export([main/0]).

%% process_flag(trap_exit, B) return values and 'EXIT' messages: with trap_exit set, exit signals
%% from linked processes (normal, custom, error) and from exit/2 become {'EXIT', Pid, Reason}.
main() ->
    quiet_logger(),
    Self = self(),
    {T, Ref} = spawn_monitor(fun() -> trapper(Self) end),
    Lines = collect(T),
    [io:format("~s~n", [L]) || L <- Lines],
    io:format("trapper: ~p~n", [receive {'DOWN', Ref, process, T, W} -> W end]),
    ok.

trapper(Main) ->
    Out = fun(Fmt, Args) -> Main ! {self(), line, lists:flatten(io_lib:format(Fmt, Args))} end,
    Out("initial trap_exit: ~p", [element(2, process_info(self(), trap_exit))]),
    Out("process_flag(trap_exit, true) -> ~p", [process_flag(trap_exit, true)]),
    Out("process_flag(trap_exit, true) -> ~p", [process_flag(trap_exit, true)]),
    Out("process_info trap_exit: ~p", [process_info(self(), trap_exit)]),
    P1 = spawn_link(fun() -> ok end),
    Out("linked normal exit: ~p", [exit_msg(P1)]),
    P2 = spawn_link(fun() -> exit({custom, reason}) end),
    Out("linked exit(custom): ~p", [exit_msg(P2)]),
    P3 = spawn_link(fun() -> erlang:error(my_error) end),
    {E3, S3} = exit_msg(P3),
    Out("linked error: {~p, Stack} (stack is a list: ~p)", [E3, is_list(S3)]),
    P4 = spawn_link(fun() -> throw(ball) end),
    {E4, _} = exit_msg(P4),
    Out("linked uncaught throw: {~p, Stack}", [E4]),
    P5 = spawn_link(fun() -> receive never -> ok end end),
    exit(P5, kill),
    Out("linked killed: ~p", [exit_msg(P5)]),
    Me = self(),
    P6 = spawn(fun() -> exit(Me, from_unlinked), Me ! {sent, self()} end),
    R6 = receive {'EXIT', P6, Why6} -> Why6 end,
    receive {sent, P6} -> ok end,
    Out("exit/2 from an unlinked process: ~p", [R6]),
    P7 = spawn(fun() -> exit(Me, normal) end),
    Out("exit(Me, normal) from another process: ~p", [receive {'EXIT', P7, Why7} -> Why7 end]),
    %% The 'EXIT' message is an ordinary message: it queues in order with others.
    P8 = spawn_link(fun() -> Me ! first, Me ! second, exit(third) end),
    M8 = [receive M -> M end || _ <- [1, 2, 3]],
    Out("ordering: ~p", [[case M of {'EXIT', P8, R} -> {'EXIT', p8, R}; _ -> M end || M <- M8]]),
    %% Several linked processes: one 'EXIT' per link.
    Ps = [spawn_link(fun() -> exit({n, N}) end) || N <- lists:seq(1, 5)],
    Rs = [exit_msg(P) || P <- Ps],
    Out("five exits: ~p", [Rs]),
    {links, Ls} = process_info(self(), links),
    Out("links left after partners died: ~p", [Ls]),
    Out("process_flag(trap_exit, false) -> ~p", [process_flag(trap_exit, false)]),
    Out("process_flag(trap_exit, false) -> ~p", [process_flag(trap_exit, false)]),
    Out("bad flag value: ~p", [try process_flag(trap_exit, list_to_atom("maybe")) catch C:R -> {C, R} end]),
    %% Not trapping any more: a linked abnormal exit kills us.
    spawn_link(fun() -> exit(finally) end),
    receive never -> ok end.

exit_msg(P) -> receive {'EXIT', P, Why} -> Why after 1000 -> timeout end.

collect(T) ->
    receive
        {T, line, L} -> [L | collect(T)];
        {'DOWN', _, process, T, _} = D -> self() ! D, []
    end.

%% erl's logger writes a crash report for every uncaught error/throw in a process to *stdout*
%% (asynchronously, with a timestamp and pids), which would make the expected output
%% nondeterministic; switch it off. beamlet has no logger module: the call raises undef, ignored.
quiet_logger() ->
    try logger:set_primary_config(level, none) catch error:undef -> ok end.
