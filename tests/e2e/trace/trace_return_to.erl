%% tests/e2e/trace/trace_return_to.erl — the return_to flag with local call tracing: one
%% {trace, Pid, return_to, MFA} per chain of tail calls, naming the function execution resumes
%% in (undefined when the process ends); none with a global pattern.
-module(trace_return_to).
-export([main/0, a/1, b/1, c/1, loop/1, run/0]).

main() ->
    Self = self(),
    T = spawn(fun() -> collect(Self, []) end),
    [1 = erlang:trace_pattern({?MODULE, F, 1}, true, [local]) || F <- [a, b, c, loop]],
    W = spawn(fun() -> receive go -> ok end, run() end),
    1 = erlang:trace(W, true, [call, return_to, {tracer, T}]),
    W ! go,
    print(T),
    %% With a global pattern there are no return_to messages.
    [1 = erlang:trace_pattern({?MODULE, F, 1}, true, [global]) || F <- [a, b, c, loop]],
    W2 = spawn(fun() -> receive go -> ok end, ?MODULE:a(2) end),
    1 = erlang:trace(W2, true, [call, return_to, {tracer, T}]),
    W2 ! go,
    print(T),
    T ! stop,
    ok.

run() ->
    _ = a(1),
    loop(3),
    ok.

a(X) -> b(X) + 1.
b(X) -> c(X).
c(X) -> X.

loop(0) -> done;
loop(N) -> loop(N - 1).

print(T) ->
    timer:sleep(100),
    T ! {get, self()},
    receive {msgs, L} -> [io:format("~p~n", [M]) || M <- L] end.

collect(Main, Acc) ->
    receive
        {trace, _, What, Info} -> collect(Main, [{What, Info} | Acc]);
        {get, From} -> From ! {msgs, lists:reverse(Acc)}, collect(Main, []);
        stop -> ok
    end.
