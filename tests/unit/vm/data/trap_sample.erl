%% tests/unit/vm/data/trap_sample.erl — trapping BIFs (thread progress waits, the code
%% modification permission) while busy processes keep running on every scheduler.
%% Prints one line per check; halts with status 1 on the first failure.
-module(trap_sample).
-export([main/0, progress/0, permission/0]).

main() ->
    progress(),
    permission(),
    io:format("all ok~n").

%% Busy workers count loop iterations; the main process waits for thread progress 200 times.
%% Every wait completes, and every worker made progress during the waits.
progress() ->
    Self = self(),
    Workers = [spawn(fun() -> busy(Self, 0) end) || _ <- lists:seq(1, 4)],
    Before = counts(Workers),
    200 = beamlet:thread_progress_wait(200),
    After = counts(Workers),
    [exit(W, kill) || W <- Workers],
    Moved = lists:all(fun({B, A}) -> A > B end, lists:zip(Before, After)),
    check(progress_waits_complete, true),
    check(workers_ran_during_waits, Moved).

busy(Parent, N) ->
    receive
        {count, From} -> From ! {self(), N}, busy(Parent, N)
    after 0 ->
        busy(Parent, N + 1)
    end.

counts(Workers) ->
    [begin W ! {count, self()}, receive {W, N} -> N end end || W <- Workers].

%% Ten processes take the permission in turn: a checker sees enter/leave strictly alternate.
%% The permission goes to waiters in order, and busy workers keep running.
permission() ->
    Self = self(),
    Checker = spawn_link(fun() -> checker(Self, none, 0) end),
    Busy = [spawn(fun() -> busy(Self, 0) end) || _ <- lists:seq(1, 2)],
    Before = counts(Busy),
    Holders = [spawn_link(fun() -> holder(Checker) end) || _ <- lists:seq(1, 10)],
    [receive {done, H} -> ok end || H <- Holders],
    Checker ! {result, self()},
    Result = receive {checked, R} -> R end,
    After = counts(Busy),
    [exit(W, kill) || W <- Busy],
    check(permission_exclusive, Result),
    check(busy_ran_during_permission, lists:all(fun({B, A}) -> A > B end, lists:zip(Before, After))),
    check(double_seize_is_badarg, begin
                                      true = beamlet:seize_code_permission(),
                                      E = (catch beamlet:seize_code_permission()),
                                      true = beamlet:release_code_permission(),
                                      element(1, element(2, E)) =:= badarg
                                  end),
    check(release_unheld_is_badarg, element(1, element(2, catch beamlet:release_code_permission())) =:= badarg).

holder(Checker) ->
    true = beamlet:seize_code_permission(),
    Checker ! {enter, self()},
    _ = beamlet:thread_progress_wait(3),
    Checker ! {leave, self()},
    true = beamlet:release_code_permission(),
    Parent = whereis_parent(),
    Parent ! {done, self()}.

whereis_parent() ->
    {links, [P | _]} = process_info(self(), links),
    P.

checker(Main, Inside, Count) ->
    receive
        {enter, P} when Inside =:= none -> checker(Main, P, Count + 1);
        {enter, _} -> checker(Main, overlap, Count);
        {leave, P} when Inside =:= P -> checker(Main, none, Count);
        {leave, _} -> checker(Main, overlap, Count);
        {result, From} -> From ! {checked, Inside =:= none andalso Count =:= 10}
    end.

check(Name, true) -> io:format("~p: ok~n", [Name]);
check(Name, Other) -> io:format("~p: FAILED (~p)~n", [Name, Other]), erlang:halt(1).
