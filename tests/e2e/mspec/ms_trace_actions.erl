%% tests/e2e/mspec/ms_trace_actions.erl — body actions that change trace flags:
%% {enable_trace, Flag}, {disable_trace, Flag} on the calling process, {enable_trace, Pid, Flag}
%% / {disable_trace, Pid, Flag} on another process (which takes over the caller's tracer),
%% {trace, Disable, Enable} and {trace, Pid, Disable, Enable}. Their values are reported with
%% {message, Action}; flags are read with trace_info(Pid, flags) and the messages that arrive
%% afterwards show the effect. Also a registered name as the target. (The flags used are the
%% call-tracing ones: arity, return_to.)
-module(ms_trace_actions).
-export([main/0, act/2, plain/1, worker/0]).

%% act(Target, Tag): the match spec runs an action chosen by Tag on Target.
act(_Target, _Tag) -> ok.
plain(X) -> X.

main() ->
    MS = [{['_', en_send], [], [{message, {enable_trace, arity}}]},
          {['_', en_procs], [], [{message, {enable_trace, return_to}}]},
          {['_', dis_send], [], [{message, {disable_trace, arity}}]},
          {['_', dis_call], [], [{message, {disable_trace, call}}]},
          {['$1', en_call], [], [{message, {enable_trace, '$1', call}}]},
          {['$1', dis_call_other], [], [{message, {disable_trace, '$1', call}}]},
          {['_', swap], [], [{message, {trace, [call], [arity]}}]},
          {['_', swap_noop], [], [{message, {trace, [], []}}]},
          {['$1', other_swap], [], [{message, {trace, '$1', [call], [arity]}}]},
          {['_', by_name], [], [{message, {enable_trace, ms_actions_other, arity}}]},
          {'_', [], [{message, unknown}]}],
    1 = erlang:trace_pattern({?MODULE, act, 2}, MS, [local]),
    1 = erlang:trace_pattern({?MODULE, plain, 1}, true, [local]),
    W = spawn(?MODULE, worker, []),
    O = spawn(?MODULE, worker, []),
    true = register(ms_actions_other, O),
    Names = [{W, w}, {O, o}, {self(), main}],
    1 = erlang:trace(W, true, [call]),
    step(W, O, Names, "w: act(en_send), plain(5)", fun() -> act(x, en_send), plain(5) end),
    step(W, O, Names, "w: act(dis_send), plain(6)", fun() -> act(x, dis_send), plain(6) end),
    step(W, O, Names, "w: act(en_return_to), plain(7)", fun() -> act(x, en_procs), plain(7) end),
    step(W, O, Names, "w: act(O, en_call)", fun() -> act(O, en_call) end),
    step(W, O, Names, "o: plain(1)", fun() -> ok end, fun() -> plain(1) end),
    step(W, O, Names, "w: act(O, en_call) again", fun() -> act(O, en_call) end),
    step(W, O, Names, "w: act(O, other_swap)", fun() -> act(O, other_swap) end),
    step(W, O, Names, "o: plain(8)", fun() -> ok end, fun() -> plain(8) end),
    step(W, O, Names, "w: act(O, dis_call_other)", fun() -> act(O, dis_call_other) end),
    step(W, O, Names, "w: act(x, by_name)", fun() -> act(x, by_name) end),
    step(W, O, Names, "w: act(x, swap_noop)", fun() -> act(x, swap_noop) end),
    step(W, O, Names, "w: act(x, swap), plain(2)", fun() -> act(x, swap), plain(2) end),
    1 = erlang:trace(W, true, [call]),
    step(W, O, Names, "w: act(x, dis_call), plain(3)", fun() -> act(x, dis_call), plain(3) end),
    W ! stop, O ! stop,
    ok.

step(W, O, Names, Label, WFun) -> step(W, O, Names, Label, WFun, fun() -> ok end).

step(W, O, Names, Label, WFun, OFun) ->
    W ! {run, WFun, self()},
    receive {done, W} -> ok end,
    O ! {run, OFun, self()},
    receive {done, O} -> ok end,
    Msgs = collect(Names),
    io:format("~s:~n  msgs ~w~n  w ~w o ~w~n", [Label, Msgs, flags(W), flags(O)]).

flags(P) ->
    {flags, F} = erlang:trace_info(P, flags),
    lists:sort(F).

worker() ->
    receive
        {run, F, From} -> F(), From ! {done, self()}, worker();
        stop -> ok
    end.

%% All trace messages, pids replaced by names (any unknown pid becomes 'pid').
collect(Names) ->
    receive
        T when element(1, T) =:= trace -> [lab(T, Names) | collect(Names)]
    after 50 -> []
    end.

lab(P, Names) when is_pid(P) ->
    case lists:keyfind(P, 1, Names) of {P, N} -> N; false -> pid end;
lab(T, Names) when is_tuple(T) -> list_to_tuple(lab(tuple_to_list(T), Names));
lab([H | T], Names) -> [lab(H, Names) | lab(T, Names)];
lab(F, _) when is_function(F) -> 'fun';
lab(X, _) -> X.
