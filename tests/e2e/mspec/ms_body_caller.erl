%% tests/e2e/mspec/ms_body_caller.erl — the {caller} and {process_dump} body actions:
%% {caller} is the {M,F,A} the traced function will return to (a tail call hides the syntactic
%% caller; 'undefined' when returning ends the process; trace frames pushed by return_trace are
%% skipped; not allowed in guards); {process_dump} is a binary starting with "=proc:".
%% ({display, T} is in ms_display.)
-module(ms_body_caller).
-export([main/0, f/1, g/1, tail/1, nested/1, top/0]).

f(X) -> {f, X}.
g(X) -> _ = f(X), ok.
tail(X) -> f(X).
nested(X) -> [tail(X)].
top() -> receive go -> ok end, f(top).

main() ->
    %% Local pattern with {caller}.
    1 = erlang:trace_pattern({?MODULE, f, 1}, [{'_', [], [{message, {caller}}]}], [local]),
    show("local f, caller", run(fun() -> g(1), tail(2), nested(3), f(4) end)),
    show("spawned top/0", run_top()),
    %% Global pattern: only the remote call is traced, its caller is still known.
    1 = erlang:trace_pattern({?MODULE, f, 1}, [{'_', [], [{message, {caller}}]}], [global]),
    show("global f, caller", run(fun() -> g(5), ?MODULE:f(6), [?MODULE:f(7)] end)),
    %% A return_trace frame for tail/1 is on top of the stack: {caller} skips it.
    1 = erlang:trace_pattern({?MODULE, f, 1}, [{'_', [], [{message, {caller}}]}], [local]),
    1 = erlang:trace_pattern({?MODULE, tail, 1}, [{'_', [], [{return_trace}]}], [local]),
    show("caller under a return_trace frame", run(fun() -> nested(8) end)),
    1 = erlang:trace_pattern({?MODULE, tail, 1}, false, [local]),
    %% {caller} as a guard is not allowed.
    io:format("caller in guard: ~w~n",
              [catch_error(fun() -> erlang:trace_pattern({?MODULE, f, 1}, [{'_', [{caller}], []}], [local]) end)]),
    %% {process_dump}
    1 = erlang:trace_pattern({?MODULE, f, 1}, [{'_', [], [{message, {process_dump}}]}], [local]),
    [{call, {?MODULE, f, [9]}, Dump}] = run(fun() -> g(9) end),
    io:format("process_dump: binary ~w, starts with =proc: ~w~n",
              [is_binary(Dump), is_binary(Dump) andalso starts_with(Dump, <<"=proc:">>)]),
    ok.

starts_with(Bin, Prefix) ->
    N = byte_size(Prefix),
    case Bin of
        <<Prefix:N/binary, _/binary>> -> true;
        _ -> false
    end.

catch_error(F) ->
    try F() catch C:R -> {C, R} end.

show(Label, Msgs) ->
    io:format("~s:~n", [Label]),
    lists:foreach(fun(M) -> io:format("  ~w~n", [M]) end, Msgs).

run(Fun) ->
    W = spawn(fun() -> receive go -> Fun() end end),
    trace_and_wait(W).

run_top() ->
    trace_and_wait(spawn(?MODULE, top, [])).

trace_and_wait(W) ->
    Ref = monitor(process, W),
    1 = erlang:trace(W, true, [call]),
    W ! go,
    receive {'DOWN', Ref, process, W, _} -> ok end,
    collect(W).

collect(W) ->
    receive
        {trace, W, call, MFA} -> [{call, MFA} | collect(W)];
        {trace, W, call, MFA, Extra} -> [{call, MFA, Extra} | collect(W)];
        {trace, W, Tag, MFA, Extra} -> [{Tag, MFA, Extra} | collect(W)]
    after 50 -> []
    end.
