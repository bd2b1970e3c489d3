-module(trace_local_all).
-export([main/0, even/1]).

%% A local pattern on {M,'_','_'} traces every function of the module called by the traced
%% process: exported or not, called locally or remotely, mutually recursive calls, and the
%% functions behind funs - a fun's call is reported under the compiler's name for it
%% ('-job/1-fun-0-' ...) with its arguments followed by the captured variables. A global
%% pattern on {M,'_','_'} in the same run traces only the remote call of the exported even/1.
even(0) -> true;
even(N) -> odd(N - 1).

odd(0) -> false;
odd(N) -> even(N - 1).

twice(F, X) -> F(F(X)).

%% The traced process: waits for go, does its calls, reports, waits for stop.
job(Mode) ->
    {From, K} = receive {go, F, Inc} -> {F, Inc} end,
    R1 = ?MODULE:even(3),
    R2 = twice(fun(X) -> X + K end, 1000),
    R3 = lists:map(fun odd/1, [1]),
    From ! {result, self(), Mode, [R1, R2, R3]},
    receive stop -> ok end.

main() ->
    lists:foreach(fun run/1, [local, global]),
    ok.

run(Mode) ->
    P = spawn(fun() -> job(Mode) end),
    io:format("== ~p~n", [Mode]),
    io:format("trace: ~p~n", [erlang:trace(P, true, [call])]),
    io:format("pattern {M,'_','_'}: ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, true, [Mode])]),
    P ! {go, self(), 10},
    receive {result, P, Mode, Res} -> io:format("result: ~p~n", [Res]) end,
    io:format("messages:~n"),
    [io:format("  ~p~n", [M]) || M <- collect(P)],
    %% Turn the pattern off before stopping P and printing again.
    io:format("pattern off: ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false, [Mode])]),
    Ref = monitor(process, P),
    P ! stop,
    receive {'DOWN', Ref, process, P, _} -> ok end.

%% Funs print with a module-version hash; show them as the atom 'fun'.
no_fun(A) when is_function(A) -> 'fun';
no_fun(A) -> A.

collect(P) ->
    receive
        {trace, P, call, {M, F, Args}} -> [{trace, job, call, {M, F, [no_fun(A) || A <- Args]}} | collect(P)]
    after 20 -> []
    end.
