%% samples/trace_actors.erl — a program that traces its own actors with the OTP 27 trace
%% module: a session whose tracer prints each call message, call tracing on a worker pool,
%% a local pattern on the workers' job function, and a global one on a library function.
-module(trace_actors).
-export([main/0, job/1]).

main() ->
    Self = self(),
    Tracer = spawn(fun() -> printer(Self) end),
    Session = trace:session_create(demo, Tracer, []),
    Workers = [spawn(fun() -> worker() end) || _ <- lists:seq(1, 3)],
    Names = maps:from_list(lists:zip(Workers, [w1, w2, w3])),
    Tracer ! {names, Names},
    [1 = trace:process(Session, W, true, [call]) || W <- Workers],
    io:format("local pattern on job/1: ~p function(s)~n", [trace:function(Session, {?MODULE, job, 1}, true, [local])]),
    _ = lists:seq(1, 1),
    io:format("global pattern on lists:seq/2: ~p function(s)~n", [trace:function(Session, {lists, seq, 2}, true, [global])]),
    [W ! {job, N, self()} || {W, N} <- lists:zip(Workers, [3, 5, 7])],
    Results = [receive {done, W, R} -> R end || W <- Workers],
    io:format("results: ~p~n", [Results]),
    timer:sleep(50),
    Tracer ! {flush, self()},
    receive flushed -> ok end,
    io:format("session destroyed: ~p~n", [trace:session_destroy(Session)]),
    [W ! stop || W <- Workers],
    ok.

worker() ->
    receive
        {job, N, From} -> From ! {done, self(), job(N)}, worker();
        stop -> ok
    end.

job(N) -> lists:sum(lists:seq(1, N)).

printer(Main) ->
    receive {names, Names} -> printer(Main, Names, []) end.

printer(Main, Names, Seen) ->
    receive
        {trace, Pid, call, {M, F, Args}} ->
            printer(Main, Names, [{maps:get(Pid, Names, other), M, F, Args} | Seen]);
        {flush, From} ->
            [io:format("  trace: ~p called ~p:~p~p~n", [W, M, F, A]) || {W, M, F, A} <- lists:sort(Seen)],
            From ! flushed
    end.
