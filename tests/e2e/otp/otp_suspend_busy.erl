-module(otp_suspend_busy).
-export([main/0]).

%% suspend_process/2 on processes that are running, as trace_SUITE's suspend and
%% suspend_opts do. A synchronous suspend returns once the suspension is in effect (status
%% suspended, process_info(self(), suspending) counts it active); an asynchronous one asked
%% while the process runs is outstanding ({Pid, 0, 1}) until the process is off its scheduler,
%% and {Tag, suspended} comes then.
main() ->
    Self = self(),
    Busy = spawn_link(fun() -> spin(0) end),
    io:format("synchronous, 2000 times: ~p~n", [sync_rounds(Busy, 2000)]),
    Tok = spawn_link(fun() -> Self ! self(), tok(Self) end),
    receive Tok -> ok end,
    io:format("asynchronous with a tag, 1000 times: ~p~n", [async_rounds(Tok, 1000, [])]),
    true = erlang:suspend_process(Tok),
    {suspending, [{Tok, Active, Outstanding}]} = process_info(self(), suspending),
    io:format("suspending Tok: ~p active, ~p outstanding~n", [Active, Outstanding]),
    true = erlang:resume_process(Tok),
    [begin unlink(P), exit(P, kill) end || P <- [Busy, Tok]],
    io:format("after the exits: ~p~n", [process_info(self(), suspending)]),
    ok.

sync_rounds(_, 0) -> ok;
sync_rounds(P, N) ->
    true = erlang:suspend_process(P),
    {status, suspended} = process_info(P, status),
    {suspending, [{P, 1, 0}]} = process_info(self(), suspending),
    true = erlang:resume_process(P),
    {status, S} = process_info(P, status),
    true = lists:member(S, [runnable, running, garbage_collecting]),
    erlang:yield(),
    sync_rounds(P, N - 1).

%% Each round: the count right after the asynchronous suspend is active or outstanding,
%% never both; once the reply is in, it is active.
async_rounds(_, 0, Seen) -> lists:usort(Seen);
async_rounds(P, N, Seen) ->
    Tag = {make_ref(), self()},
    true = erlang:suspend_process(P, [{asynchronous, Tag}]),
    {suspending, [Count]} = process_info(self(), suspending),
    true = lists:member(Count, [{P, 1, 0}, {P, 0, 1}]),
    receive {Tag, Reply} -> suspended = Reply end,
    {suspending, [{P, 1, 0}]} = process_info(self(), suspending),
    {status, suspended} = process_info(P, status),
    true = erlang:resume_process(P),
    erlang:yield(),
    async_rounds(P, N - 1, [Reply | Seen]).

spin(N) -> spin(N + 1).

tok(Parent) ->
    link(Parent),
    register(otp_suspend_busy_name, self()),
    unregister(otp_suspend_busy_name),
    unlink(Parent),
    tok(Parent).
