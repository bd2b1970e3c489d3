%% A meta tracer that dies is forgotten at the next hit ({meta,[]}), and stays forgotten when
%% another pattern change switches the breakpoints' generations (OTP's trace_meta_SUITE:tracer).
-module(trace_meta_dead_tracer).
-export([main/0, receiver/1, other/0]).
receiver(Ref) -> erlang:phash2(1, 1), receive Ref -> Ref end.
other() -> ok.
mfa({M, F, A}) when is_list(A) -> {M, F, length(A)};
mfa(MFA) -> MFA.
relay_n(0, _) -> ok;
relay_n(N, D) -> receive Msg -> D ! {self(), Msg}, relay_n(N - 1, D) end.
main() ->
    Self = self(),
    Slave = spawn(fun Loop() -> receive {From, M, F, A} -> From ! {done, apply(M, F, A)},
                                        erlang:trace_pattern({?MODULE, other, 0}, false, [meta]),
                                        Loop() end end),
    Tracer = spawn(fun() -> relay_n(3, Self) end),
    MS = [{'_', [], [{return_trace}]}],
    erlang:trace_pattern({?MODULE, receiver, 1}, MS, [{meta, Tracer}]),
    erlang:trace_pattern({erlang, phash2, 2}, MS, [{meta, Tracer}]),
    R1 = make_ref(),
    Slave ! {self(), ?MODULE, receiver, [R1]},
    [receive {Tracer, M} -> io:format("~p ~p~n", [element(3, M), mfa(element(4, M))]) end || _ <- [1, 2, 3]],
    Slave ! R1,
    receive {done, _} -> ok end,
    timer:sleep(50),
    io:format("tracer alive: ~p~n", [is_process_alive(Tracer)]),
    io:format("still the tracer: ~p~n", [erlang:trace_info({?MODULE, receiver, 1}, meta) =:= {meta, Tracer}]),
    R2 = make_ref(),
    Slave ! {self(), ?MODULE, receiver, [R2]},
    Slave ! R2,
    receive {done, _} -> ok end,
    io:format("~p~n", [erlang:trace_info({?MODULE, receiver, 1}, meta)]),
    io:format("~p~n", [erlang:trace_info({?MODULE, receiver, 1}, meta_match_spec)]),
    io:format("~p~n", [erlang:trace_info({erlang, phash2, 2}, meta)]),
    io:format("~p~n", [erlang:trace_info({?MODULE, receiver, 1}, all)]),
    erlang:trace_pattern({?MODULE, other, 0}, true, [local]),
    erlang:trace_pattern({?MODULE, other, 0}, false, [local]),
    io:format("~p~n", [erlang:trace_info({?MODULE, receiver, 1}, meta)]),
    erlang:trace_pattern({'_', '_', '_'}, false, [meta]),
    ok.
