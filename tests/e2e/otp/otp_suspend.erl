-module(otp_suspend).
-export([main/0]).

%% erlang:suspend_process/1,2 and resume_process/1: a suspended process has status
%% suspended and does not run (messages pile up in its queue); suspensions nest (two
%% suspends need two resumes); suspend_process with [asynchronous] and [{asynchronous, Tag}]
%% (a {Tag, suspended} message); resume of a process that is not suspended (badarg);
%% suspending oneself (badarg); a suspended process can still be killed; suspending a dead
%% process (badarg).
main() ->
    Self = self(),
    W = spawn(fun() -> worker(Self, 0) end),
    ping(W),
    io:format("running worker: ~p~n", [status(W)]),
    io:format("suspend_process: ~p~n", [erlang:suspend_process(W)]),
    io:format("status: ~p~n", [status(W)]),
    W ! {bump, Self},
    W ! {bump, Self},
    io:format("queue while suspended: ~p~n", [process_info(W, message_queue_len)]),
    io:format("nothing answered: ~p~n", [receive {bumped, N0} -> N0 after 20 -> none end]),
    io:format("resume_process: ~p~n", [erlang:resume_process(W)]),
    io:format("answers after resume: ~p~n", [[receive {bumped, N} -> N end || _ <- [1, 2]]]),
    ping(W),

    true = erlang:suspend_process(W),
    true = erlang:suspend_process(W),
    true = erlang:resume_process(W),
    io:format("suspended twice, resumed once: ~p~n", [status(W)]),
    true = erlang:resume_process(W),
    ping(W),
    io:format("resumed twice: ~p~n", [status(W)]),

    io:format("resume when not suspended: ~p~n", [reason(fun() -> erlang:resume_process(W) end)]),
    io:format("suspend self: ~p~n", [reason(fun() -> erlang:suspend_process(self()) end)]),

    true = erlang:suspend_process(W, [asynchronous]),
    wait_status(W, suspended),
    io:format("asynchronous suspend: ~p~n", [status(W)]),
    true = erlang:resume_process(W),
    ping(W),
    io:format("{asynchronous, Tag}: ~p~n", [erlang:suspend_process(W, [{asynchronous, my_tag}])]),
    receive {my_tag, Result} -> io:format("  reply: ~p, status ~p~n", [Result, status(W)]) end,
    M = monitor(process, W),
    exit(W, kill),
    receive {'DOWN', M, process, W, Why} -> io:format("killed while suspended: ~p~n", [Why]) end,
    io:format("suspend a dead process: ~p~n", [reason(fun() -> erlang:suspend_process(W) end)]),
    io:format("asynchronous, dead: ~p~n", [erlang:suspend_process(W, [asynchronous])]),
    io:format("{asynchronous, Tag}, dead: ~p~n", [erlang:suspend_process(W, [{asynchronous, t}])]),
    receive {t, R1} -> io:format("  reply: ~p~n", [R1]) end,

    %% unless_suspending: no second suspension by the same process
    W2 = spawn(fun() -> worker(Self, 0) end),
    ping(W2),
    io:format("unless_suspending: ~p~n", [erlang:suspend_process(W2, [unless_suspending])]),
    io:format("again: ~p~n", [erlang:suspend_process(W2, [unless_suspending])]),
    io:format("again, {asynchronous, Tag}: ~p~n",
              [erlang:suspend_process(W2, [unless_suspending, {asynchronous, t2}])]),
    receive {t2, R2} -> io:format("  reply: ~p~n", [R2]) end,
    io:format("bad options: ~p ~p~n", [reason(fun() -> erlang:suspend_process(W2, [bad]) end),
                                       reason(fun() -> erlang:suspend_process(W2, x) end)]),
    io:format("not a pid: ~p ~p~n", [reason(fun() -> erlang:suspend_process(x) end),
                                     reason(fun() -> erlang:resume_process(x) end)]),

    %% A suspension ends with the process that made it; another's resume is refused.
    Other = spawn(fun() -> erlang:suspend_process(W2), Self ! done, receive stop -> ok end end),
    receive done -> ok end,
    io:format("resume of another's suspension: ~p~n",
              [reason(fun() -> erlang:resume_process(W2), erlang:resume_process(W2) end)]),
    io:format("still suspended by the other: ~p~n", [status(W2)]),
    Mo = monitor(process, Other),
    Other ! stop,
    receive {'DOWN', Mo, process, Other, _} -> ok end,
    wait_status(W2, waiting),
    W2 ! {bump, Self},
    io:format("the other gone, the worker runs: ~p~n", [receive {bumped, B} -> B end]),
    ok.

reason(F) ->
    try F() catch error:R -> {error, R} end.

worker(Parent, N) ->
    receive
        {bump, From} -> From ! {bumped, N + 1}, worker(Parent, N + 1);
        {ping, From} -> From ! pong, worker(Parent, N)
    end.

%% The worker answers, then goes back to its receive.
ping(W) ->
    W ! {ping, self()},
    receive pong -> ok end,
    wait_status(W, waiting).

status(P) -> element(2, process_info(P, status)).

wait_status(P, S) ->
    case status(P) of
        S -> ok;
        _ -> erlang:yield(), wait_status(P, S)
    end.
