%% process_info(P, suspending) lists {Suspendee, Count, 0} (OTP's trace_SUITE:suspend_opts),
%% and a seq_trace send to an alias names the alias (seq_trace_SUITE:send).
-module(suspending_and_alias_seq).
-export([main/0]).
main() ->
    Tok = spawn(fun Loop() -> receive stop -> ok after 1 -> Loop() end end),
    io:format("~p~n", [process_info(self(), suspending)]),
    true = erlang:suspend_process(Tok),
    true = erlang:suspend_process(Tok, [asynchronous]),
    false = erlang:suspend_process(Tok, [unless_suspending]),
    {suspending, [{Tok, N, O}]} = process_info(self(), suspending),
    io:format("~p ~p ~p~n", [N, O, process_info(Tok, status)]),
    true = erlang:resume_process(Tok),
    true = erlang:resume_process(Tok),
    io:format("~p~n", [process_info(self(), suspending)]),
    Tok ! stop,
    Self = self(),
    Tracer = spawn(fun Loop() -> receive {seq_trace, L, I} -> Self ! {got, L, I}, Loop(); stop -> ok end end),
    seq_trace:set_system_tracer(Tracer),
    Receiver = spawn(fun() -> A = alias(), Self ! {alias, A}, receive _ -> receive _ -> ok end end end),
    Alias = receive {alias, A} -> A end,
    seq_trace:set_token(label, 7),
    seq_trace:set_token(send, true),
    Receiver ! hello,
    Alias ! again,
    seq_trace:set_token([]),
    [receive {got, 7, {send, _, Self, To, Msg}} -> io:format("~p ~p~n", [Msg, [pid || To =:= Receiver] ++ [alias || To =:= Alias]]) end
     || _ <- [1, 2]],
    Tracer ! stop,
    ok.
