%% tests/e2e/sessions/session_mspec.erl — match specifications and counters in trace sessions
%% (OTP 27 trace module): two sessions put different match specs on one function and each
%% tracer sees only what its own spec selects (return_from included); meta tracing goes to the
%% session's tracer without process flags; call_count, call_time and call_memory are per
%% session; trace:info/3 reports each session's settings.
-module(session_mspec).
-export([main/0, f/1, alloc/1, work/1]).

f(X) -> {f, X}.

alloc(N) -> lists:seq(1, N).

work(N) -> length(alloc(N)).

main() ->
    Self = self(),
    T1 = spawn(fun() -> collector(Self, []) end),
    T2 = spawn(fun() -> collector(Self, []) end),
    S1 = trace:session_create(one, T1, []),
    S2 = trace:session_create(two, T2, []),
    MFA = {?MODULE, f, 1},
    %% Session one: calls with argument 1 only. Session two: argument 2, with return_trace.
    1 = trace:function(S1, MFA, [{[1], [], []}], [local]),
    1 = trace:function(S2, MFA, [{[2], [], [{return_trace}, {message, two}]}], [local]),
    W = spawn(fun() -> receive go -> f(1), f(2), f(3) end end),
    1 = trace:process(S1, W, true, [call]),
    1 = trace:process(S2, W, true, [call]),
    W ! go,
    io:format("one: ~p~n", [label(result(T1), W)]),
    io:format("two: ~p~n", [label(result(T2), W)]),
    io:format("one match_spec: ~p~n", [trace:info(S1, MFA, match_spec)]),
    io:format("two match_spec: ~p~n", [trace:info(S2, MFA, match_spec)]),
    io:format("legacy match_spec: ~p~n", [erlang:trace_info(MFA, match_spec)]),
    0 = trace:function(S1, MFA, false, [local]) - 1,
    0 = trace:function(S2, MFA, false, [local]) - 1,

    %% Meta tracing in a session: the session's tracer, no process flags needed, timestamps.
    1 = trace:function(S1, MFA, [{'_', [], [{return_trace}]}], [meta]),
    M = spawn(fun() -> receive go -> f(meta) end end),
    M ! go,
    io:format("meta: ~p~n", [label(result(T1), M)]),
    io:format("meta info: ~p~n", [trace:info(S1, MFA, meta) =:= {meta, T1}]),
    io:format("meta_match_spec: ~p~n", [trace:info(S1, MFA, meta_match_spec)]),
    io:format("two sees no meta: ~p~n", [trace:info(S2, MFA, meta)]),
    1 = trace:function(S1, MFA, false, [meta]),

    %% Counters: call_count in one session only; call_time and call_memory count only
    %% processes with the call flag in that session.
    1 = trace:function(S1, {?MODULE, alloc, 1}, true, [call_count]),
    1 = trace:function(S2, {?MODULE, alloc, 1}, true, [call_time, call_memory]),
    C = spawn(fun() -> receive go -> work(100), work(200), work(300) end, receive {again, N} -> work(N) end,
                         receive stop -> ok end end),
    U = spawn(fun() -> receive go -> work(10) end end),
    1 = trace:process(S2, C, true, [call]),
    C ! go, U ! go,
    timer:sleep(50),
    io:format("one call_count: ~p~n", [trace:info(S1, {?MODULE, alloc, 1}, call_count)]),
    io:format("two call_count: ~p~n", [trace:info(S2, {?MODULE, alloc, 1}, call_count)]),
    {call_time, Times} = trace:info(S2, {?MODULE, alloc, 1}, call_time),
    io:format("two call_time: ~p~n",
              [[{label(P, C), N, is_integer(S) andalso S >= 0, is_integer(Us) andalso Us >= 0}
                || {P, N, S, Us} <- Times]]),
    {call_memory, Mem} = trace:info(S2, {?MODULE, alloc, 1}, call_memory),
    io:format("two call_memory: ~p~n", [[{label(P, C), N, Words >= 1200} || {P, N, Words} <- Mem]]),
    io:format("one call_memory: ~p~n", [trace:info(S1, {?MODULE, alloc, 1}, call_memory)]),
    1 = trace:function(S2, {?MODULE, alloc, 1}, restart, [call_memory]),
    io:format("restarted call_memory: ~p~n", [trace:info(S2, {?MODULE, alloc, 1}, call_memory)]),
    %% Memory is charged to the innermost memory-traced function: work/1 allocates little of
    %% its own once alloc/1 is traced too.
    1 = trace:function(S2, {?MODULE, work, 1}, true, [call_memory]),
    C ! {again, 500},
    timer:sleep(50),
    {call_memory, [{_, 1, WorkWords}]} = trace:info(S2, {?MODULE, work, 1}, call_memory),
    {call_memory, [{_, 1, AllocWords}]} = trace:info(S2, {?MODULE, alloc, 1}, call_memory),
    io:format("work/1 own words < 100: ~p, alloc/1 words >= 1000: ~p~n", [WorkWords < 100, AllocWords >= 1000]),
    C ! stop,
    true = trace:session_destroy(S1),
    true = trace:session_destroy(S2),
    ok.

label(P, P) -> worker;
label(T, P) when is_tuple(T) -> list_to_tuple(label(tuple_to_list(T), P));
label([H | T], P) -> [label(H, P) | label(T, P)];
label({_, _, _} = Ts, _) -> Ts;
label(X, _) -> X.

collector(Main, Acc) ->
    receive
        {result, Main} -> Main ! {result, lists:reverse(Acc)}, collector(Main, []);
        {trace_ts, Pid, What, Info, _Ts} -> collector(Main, [{ts, Pid, What, Info} | Acc]);
        {trace_ts, Pid, What, Info, Extra, _Ts} -> collector(Main, [{ts, Pid, What, Info, Extra} | Acc]);
        Msg -> collector(Main, [Msg | Acc])
    end.

result(T) ->
    timer:sleep(50),
    T ! {result, self()},
    receive {result, L} -> L end.
