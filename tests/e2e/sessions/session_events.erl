%% tests/e2e/sessions/session_events.erl — process events in trace sessions (OTP 27 trace
%% module): send, 'receive' and procs events go to each session's own tracer; two sessions on
%% one process each get their events once; trace:send/3 and trace:recv/3 return 1 and select
%% per session; trace:info/3 on send and 'receive' returns the pattern; session_info/1 names a
%% session whose send or 'receive' pattern is set; trace:delivered/2 replies like
%% erlang:trace_delivered/1; {tracer, T} is badarg in a session with a tracer; set_on_link
%% passes a session's flags through link/1 (OTP 27); a destroyed session sends nothing more
%% and its handle is badarg; a session created with tracer undefined takes {tracer, T} per
%% process, as the legacy session does.
-module(session_events).
-export([main/0]).
-import(e2e_trace, [collector/0, messages/1, stop_wait/2, name/2]).

main() ->
    T1 = collector(),
    T2 = collector(),
    S1 = trace:session_create(one, T1, []),
    S2 = trace:session_create(two, T2, []),
    W = spawn(fun() -> worker() end),
    Names = [{W, w}, {T1, t1}, {T2, t2}, {self(), main}],
    io:format("process s1: ~p~n", [trace:process(S1, W, true, [send, 'receive'])]),
    io:format("process s2: ~p~n", [trace:process(S2, W, true, ['receive', procs])]),
    io:format("tracer option in a session: ~p~n",
              [catch_error(fun() -> trace:process(S1, W, true, [send, {tracer, T2}]) end)]),
    run(W, fun() -> self() ! hello, receive hello -> ok end end),
    io:format("s1 got:~n"),
    show(messages(T1), Names),
    io:format("s2 got:~n"),
    show(messages(T2), Names),
    %% Patterns per session.
    io:format("send pattern s1: ~p~n", [trace:send(S1, [{['_', {important, '_'}], [], []}], [])]),
    io:format("recv pattern s2: ~p~n", [trace:recv(S2, false, [])]),
    io:format("info s1 send: ~p~n", [trace:info(S1, send, match_spec)]),
    io:format("info s1 receive: ~p~n", [trace:info(S1, 'receive', match_spec)]),
    io:format("info s2 receive: ~p~n", [trace:info(S2, 'receive', match_spec)]),
    io:format("session_info send: ~p~n", [lists:sort([N || {N, _} <- trace:session_info(send)])]),
    io:format("session_info receive: ~p~n", [lists:sort([N || {N, _} <- trace:session_info('receive')])]),
    io:format("bad send flags: ~p~n", [catch_error(fun() -> trace:send(S1, true, [local]) end)]),
    io:format("caller in a send spec: ~p~n",
              [catch_error(fun() -> trace:send(S1, [{'_', [], [{message, {caller}}]}], []) end)]),
    run(W, fun() -> self() ! {important, 1}, self() ! {boring, 2},
                    receive {important, 1} -> ok end, receive {boring, 2} -> ok end end),
    io:format("s1 got:~n"),
    show(messages(T1), Names),
    io:format("s2 got:~n"),
    show(messages(T2), Names),
    %% trace:delivered/2.
    Ref = trace:delivered(S1, W),
    io:format("delivered: ~p~n", [receive {trace_delivered, W, Ref} -> ok after 5000 -> timeout end]),
    %% set_on_link through link/1 (sessions pass flags on, OTP 27).
    1 = trace:send(S1, true, []),
    1 = trace:recv(S2, true, []),
    io:format("set_on_link s2: ~p~n", [trace:process(S2, W, true, [set_on_link])]),
    C = spawn(fun() -> receive stop -> ok end end),
    run(W, fun() -> link(C), unlink(C) end),
    io:format("child flags s2: ~p, s1: ~p~n", [trace:info(S2, C, flags), trace:info(S1, C, flags)]),
    Ref2 = monitor(process, C),
    C ! stop,
    receive {'DOWN', Ref2, process, C, _} -> ok end,
    Ref3 = erlang:trace_delivered(C),
    receive {trace_delivered, C, Ref3} -> ok end,
    %% Two tracees: only the order of each one's events is defined.
    Got = messages(T2),
    io:format("s2 got from w:~n"),
    show([M || M <- Got, element(2, M) =:= W], [{C, c} | Names]),
    io:format("s2 got from c:~n"),
    show([M || M <- Got, element(2, M) =:= C], [{C, c} | Names]),
    _ = messages(T1),
    %% Destroy one session: the other goes on.
    io:format("destroy s1: ~p~n", [trace:session_destroy(S1)]),
    io:format("info after destroy: ~p~n", [catch_error(fun() -> trace:info(S1, W, flags) end)]),
    run(W, fun() -> self() ! after_destroy, receive after_destroy -> ok end end),
    io:format("s1 got: ~p~n", [messages(T1)]),
    io:format("s2 got:~n"),
    show(messages(T2), Names),
    io:format("destroy s2: ~p~n", [trace:session_destroy(S2)]),
    %% A session created without a tracer names one per process, as the legacy session.
    S3 = trace:session_create(untraced, undefined, []),
    io:format("process s3: ~p~n", [trace:process(S3, W, true, [send, {tracer, T1}])]),
    run(W, fun() -> self() ! quiet, receive quiet -> ok end end),
    io:format("flags s3: ~p, tracer: ~p~n", [trace:info(S3, W, flags), name(trace:info(S3, W, tracer), Names)]),
    io:format("s3 got:~n"),
    show(messages(T1), Names),
    io:format("destroy s3: ~p~n", [trace:session_destroy(S3)]),
    io:format("t1 ~p, t2 ~p~n", [messages(T1), messages(T2)]),
    [stop_wait(P, stop) || P <- [W, T1, T2]],
    ok.

%% ---- helpers ----

worker() ->
    receive
        {run, F, From} -> F(), From ! {done, self()}, worker();
        stop -> ok
    end.

%% Runs F in W and waits until every event of W is in its tracers' queues.
run(W, F) ->
    W ! {run, F, self()},
    receive {done, W} -> ok end,
    Ref = erlang:trace_delivered(W),
    receive {trace_delivered, W, Ref} -> ok end.

show(Msgs, Names) -> [io:format("  ~p~n", [name(M, Names)]) || M <- Msgs].

catch_error(F) ->
    try F() catch error:R -> {error, R} end.
