%% call_time counts only while the process is traced with `call` by a live tracer: scheduled in
%% after its tracer died, the process is untraced (OTP's trace_call_time_SUITE:dead_tracer);
%% call_time's frames keep a deep recursion within a max_heap_size that erl keeps it in
%% (trace_call_time_SUITE:basic); erlang:system_info(snifs).
-module(call_time_dead_tracer).
-export([main/0, seq/3]).

seq(X, X, _) -> [X];
seq(X, Y, Fun) -> [X | seq(Fun(X), Y, Fun)].

main() ->
    Self = self(),
    Tracer = spawn(fun() -> receive quit -> ok end end),
    1 = erlang:trace(self(), true, [call, {tracer, Tracer}]),
    erlang:trace_pattern({?MODULE, seq, '_'}, true, [call_time]),
    [1, 2, 3] = seq(1, 3, fun(I) -> I + 1 end),
    {call_time, [{Self, 3, _, _}]} = erlang:trace_info({?MODULE, seq, 3}, call_time),
    io:format("counted while traced~n"),
    Ref = erlang:monitor(process, Tracer),
    Tracer ! quit,
    receive {'DOWN', Ref, process, Tracer, normal} -> ok end,
    erlang:yield(),
    erlang:trace_pattern({?MODULE, seq, '_'}, restart, [call_time]),
    [1, 2, 3] = seq(1, 3, fun(I) -> I + 1 end),
    io:format("~p~n", [erlang:trace_info({?MODULE, seq, 3}, call_time)]),
    io:format("~p~n", [erlang:trace_info(self(), flags)]),
    Pid = spawn_opt(fun() -> L = seq(1, 1000, fun(X) -> X + 1 end), Self ! {done, length(L)} end,
                    [{max_heap_size, 10000}]),
    erlang:trace(Pid, true, [call, {tracer, self()}]),
    receive {done, N} -> io:format("deep recursion under call_time: ~p~n", [N]) after 5000 -> io:format("killed~n") end,
    erlang:trace_pattern({?MODULE, seq, '_'}, false, [call_time]),
    Snifs = erlang:system_info(snifs),
    io:format("~p~n", [[lists:member(MFA, Snifs) || MFA <- [{erlang, abs, 1}, {lists, reverse, 2}, {ets, lookup, 2}]]]),
    ok.
