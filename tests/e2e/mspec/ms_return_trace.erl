%% tests/e2e/mspec/ms_return_trace.erl — {return_trace}: {trace, Pid, return_from, {M,F,Arity},
%% Value} after the call returns. Body recursion (fact), tail recursion (every traced call
%% pushes a frame: loop(2) gives 3 calls and 3 return_from, all with the final value), a tail
%% call between two traced functions, return_trace only for the clause that matched,
%% {message,false} + {return_trace} (return_from without a call message), return_trace plus
%% exception_trace on a normal return (one return_from), a global pattern, and an exception
%% leaving a return_trace-only function (no message).
-module(ms_return_trace).
-export([main/0, fact/1, loop/1, tail/1, tail2/1, id/1, thrower/1, catcher/1]).

fact(0) -> 1;
fact(N) -> N * fact(N - 1).
loop(0) -> done;
loop(N) -> loop(N - 1).
tail(X) -> tail2({t, X}).
tail2(X) -> {t2, X}.
id(X) -> X.
thrower(X) -> throw({thrown, X}).
catcher(X) -> catch thrower(X).

main() ->
    RT = [{'_', [], [{return_trace}]}],
    t("fact(2)", [{fact, 1, RT}], fun() -> fact(2) end),
    t("loop(2)", [{loop, 1, RT}], fun() -> loop(2) end),
    t("tail(5)", [{tail, 1, RT}, {tail2, 1, RT}], fun() -> tail(5) end),
    t("tail(6), only tail2 traced", [{tail2, 1, RT}], fun() -> tail(6) end),
    t("return_trace only if arg > 1", [{id, 1, [{['$1'], [{'>', '$1', 1}], [{return_trace}]}, {'_', [], []}]}],
      fun() -> id(1), id(2) end),
    t("message false + return_trace", [{id, 1, [{'_', [], [{message, false}, {return_trace}]}]}],
      fun() -> id(3) end),
    t("return_trace + exception_trace", [{id, 1, [{'_', [], [{return_trace}, {exception_trace}]}]}],
      fun() -> id(4) end),
    t("message + return_trace", [{id, 1, [{['$1'], [], [{return_trace}, {message, {{arg, '$1'}}}]}]}],
      fun() -> id([{complex, <<"term">>, 1.5}]) end),
    t("caught throw, return_trace only", [{thrower, 1, RT}, {catcher, 1, RT}],
      fun() -> catcher(7) end),
    %% Global pattern: only remote calls are traced, and they get return_from.
    1 = erlang:trace_pattern({?MODULE, id, 1}, RT, [global]),
    io:format("global id: ~w~n", [run(fun() -> ?MODULE:id(8), id(9), ?MODULE:id(10) end)]),
    ok.

t(Label, Patterns, Fun) ->
    _ = erlang:trace_pattern({?MODULE, '_', '_'}, false, [local]),
    _ = erlang:trace_pattern({?MODULE, '_', '_'}, false, [global]),
    [1 = erlang:trace_pattern({?MODULE, F, A}, MS, [local]) || {F, A, MS} <- Patterns],
    Msgs = run(Fun),
    io:format("~s:~n", [Label]),
    lists:foreach(fun(M) -> io:format("  ~w~n", [M]) end, Msgs).

run(Fun) ->
    W = spawn(fun() -> receive go -> Fun() end end),
    Ref = monitor(process, W),
    1 = erlang:trace(W, true, [call]),
    W ! go,
    receive {'DOWN', Ref, process, W, _} -> ok end,
    collect(W).

collect(W) ->
    receive
        {trace, W, call, {_, F, Args}} -> [{call, F, Args} | collect(W)];
        {trace, W, call, {_, F, Args}, Extra} -> [{call, F, Args, Extra} | collect(W)];
        {trace, W, Tag, {_, F, A}, V} -> [{Tag, {F, A}, V} | collect(W)]
    after 50 -> []
    end.
