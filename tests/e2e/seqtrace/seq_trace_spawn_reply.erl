%% spawn_monitor under seq_trace: the spawn request and reply are reported as sent and received,
%% but the parent keeps its own token (the reply is a signal, not a received message).
-module(seq_trace_spawn_reply).
-export([main/0]).
main() ->
    Self = self(),
    Tr = spawn(fun L() -> receive {seq_trace, _, I} -> Self ! {ev, I}, L(); stop -> ok end end),
    seq_trace:set_system_tracer(Tr),
    seq_trace:set_token(label, 17),
    seq_trace:set_token(send, true),
    seq_trace:set_token('receive', true),
    A = seq_trace:get_token(),
    {P, R} = spawn_monitor(fun() -> ok end),
    A2 = seq_trace:get_token(),
    receive {'DOWN', R, _, _, _} -> ok end,
    seq_trace:set_token([]),
    timer:sleep(50),
    Evs = collect(),
    Norm = fun(X) when X =:= self() -> self; (X) when X =:= P -> child; (X) when is_pid(X) -> other; (X) -> X end,
    N = fun(T) when is_tuple(T) -> list_to_tuple([Norm(E) || E <- tuple_to_list(T)]); (T) -> T end,
    io:format("~p~n~p~n", [[N(X) || X <- [A, A2]], [{element(1, E), element(2, E), element(3, E), element(4, E)} || E <- [N(E0) || E0 <- Evs]]]).
collect() -> receive {ev, I} -> [I | collect()] after 0 -> [] end.
