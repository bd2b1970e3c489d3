%% tests/e2e/mspec/ms_call_time.erl — call_time patterns: trace_info(MFA, call_time) gives
%% {call_time, [{Pid, Count, Secs, Usecs}]} per process that has the 'call' trace flag
%% (processes without it are not counted); pause keeps the data and stops counting, restart
%% and true again reset it, false removes it; trace_info(MFA, all) with call_time, and
%% call_time next to a local call trace pattern. Times are only checked for their type.
-module(ms_call_time).
-export([main/0, f/1, g/1, worker/0]).

f(X) -> g(X) + 1.
g(X) -> X * 2.

main() ->
    Sink = spawn(fun() -> sink() end),
    W1 = spawn(?MODULE, worker, []),
    W2 = spawn(?MODULE, worker, []),
    U = spawn(?MODULE, worker, []),
    Names = [{W1, w1}, {W2, w2}, {U, untraced}],
    [1 = erlang:trace(W, true, [call, {tracer, Sink}]) || W <- [W1, W2]],
    io:format("pattern f: ~w~n", [erlang:trace_pattern({?MODULE, f, 1}, true, [call_time])]),
    io:format("pattern g: ~w~n", [erlang:trace_pattern({?MODULE, g, 1}, true, [call_time])]),
    info("initially", Names),
    do(W1, 3), do(W2, 1), do(U, 5),
    info("w1 x3, w2 x1, untraced x5", Names),
    io:format("pause f: ~w~n", [erlang:trace_pattern({?MODULE, f, 1}, pause, [call_time])]),
    do(W1, 2),
    info("f paused, w1 x2", Names),
    io:format("restart f: ~w~n", [erlang:trace_pattern({?MODULE, f, 1}, restart, [call_time])]),
    info("f restarted", Names),
    do(W2, 2),
    info("w2 x2", Names),
    io:format("true g: ~w~n", [erlang:trace_pattern({?MODULE, g, 1}, true, [call_time])]),
    info("g reset by true", Names),
    %% A local call trace pattern on f as well: both kinds show up in 'all'.
    1 = erlang:trace_pattern({?MODULE, f, 1}, true, [local]),
    do(W1, 1),
    io:format("all f: ~w~n", [norm(erlang:trace_info({?MODULE, f, 1}, all), Names)]),
    io:format("false f: ~w~n", [erlang:trace_pattern({?MODULE, f, 1}, false, [call_time])]),
    io:format("all f: ~w~n", [norm(erlang:trace_info({?MODULE, f, 1}, all), Names)]),
    io:format("false g: ~w~n", [erlang:trace_pattern({?MODULE, g, 1}, false, [call_time])]),
    info("both off", Names),
    io:format("all g: ~w~n", [erlang:trace_info({?MODULE, g, 1}, all)]),
    ok.

info(Label, Names) ->
    io:format("~s: f ~w g ~w~n",
              [Label, norm(erlang:trace_info({?MODULE, f, 1}, call_time), Names),
               norm(erlang:trace_info({?MODULE, g, 1}, call_time), Names)]).

%% {Pid, Count, S, Us} -> {Label, Count, times_ok}; the list sorted by label.
norm({call_time, L}, Names) when is_list(L) ->
    {call_time, lists:sort([{name(P, Names), C, times(S, Us)} || {P, C, S, Us} <- L])};
norm({all, L}, Names) when is_list(L) -> {all, [norm(I, Names) || I <- L]};
norm(X, _) -> X.

times(S, Us) when is_integer(S), is_integer(Us), S >= 0, Us >= 0, Us < 1000000 -> times_ok;
times(S, Us) -> {bad_times, S, Us}.

name(P, Names) ->
    case lists:keyfind(P, 1, Names) of {P, N} -> N; false -> other end.

do(W, N) ->
    W ! {run, N, self()},
    receive {done, W} -> ok end.

worker() ->
    receive
        {run, N, From} -> [f(I) || I <- lists:seq(1, N)], From ! {done, self()}, worker()
    end.

sink() -> receive _ -> sink() end.
