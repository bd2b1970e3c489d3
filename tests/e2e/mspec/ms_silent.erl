%% tests/e2e/mspec/ms_silent.erl — silent mode: {silent, Bool} in a match spec body sets or
%% clears the process's silent flag, taking effect for the very call that runs it and all later
%% calls; silent suppresses call messages and return_trace frames (no return_from) but match
%% specs still run (so {silent,false} can turn it off again). Also the 'silent' process flag
%% given to erlang:trace/3 and how trace_info(Pid, flags) reports it.
-module(ms_silent).
-export([main/0, ident/1, other/1, worker/0]).

ident(X) -> X.
other(X) -> {other, X}.

main() ->
    %% ident(Bool) sets silent to Bool; ident(Other) is an ordinary traced call.
    1 = erlang:trace_pattern({?MODULE, ident, 1},
                             [{[true], [], [{silent, true}]},
                              {[false], [], [{silent, false}]},
                              {'_', [], [{return_trace}]}], [local]),
    1 = erlang:trace_pattern({?MODULE, other, 1}, [{'_', [], [{return_trace}]}], [local]),
    W = spawn(?MODULE, worker, []),
    1 = erlang:trace(W, true, [call]),
    step(W, "ident(1)", fun() -> ident(1) end),
    step(W, "ident(true)", fun() -> ident(true) end),
    step(W, "ident(2), other(3) while silent", fun() -> ident(2), other(3) end),
    step(W, "ident(false)", fun() -> ident(false) end),
    step(W, "ident(4), other(5)", fun() -> ident(4), other(5) end),
    %% silent as a process flag from erlang:trace/3.
    1 = erlang:trace(W, true, [silent]),
    step(W, "flag silent: ident(6), other(7)", fun() -> ident(6), other(7) end),
    step(W, "flag silent: ident(false)", fun() -> ident(false) end),
    step(W, "ident(8)", fun() -> ident(8) end),
    1 = erlang:trace(W, true, [silent]),
    1 = erlang:trace(W, false, [silent]),
    step(W, "silent cleared by trace/3: ident(9)", fun() -> ident(9) end),
    %% {silent, '$1'} with a non-boolean: the spec is accepted; nothing changes.
    1 = erlang:trace_pattern({?MODULE, ident, 1}, [{['$1'], [], [{silent, '$1'}]}], [local]),
    step(W, "silent '$1': ident(x), ident(true), ident(y), ident(false), ident(z)",
         fun() -> ident(x), ident(true), ident(y), ident(false), ident(z) end),
    W ! stop,
    ok.

step(W, Label, Fun) ->
    W ! {run, Fun, self()},
    receive {done, W} -> ok end,
    Msgs = collect(W),
    {flags, Flags} = erlang:trace_info(W, flags),
    io:format("~s: ~w flags=~w~n", [Label, Msgs, lists:sort(Flags)]).

worker() ->
    receive
        {run, F, From} -> F(), From ! {done, self()}, worker();
        stop -> ok
    end.

collect(W) ->
    receive
        {trace, W, call, {_, F, Args}} -> [{call, F, Args} | collect(W)];
        {trace, W, return_from, {_, F, _}, V} -> [{return_from, F, V} | collect(W)]
    after 50 -> []
    end.
