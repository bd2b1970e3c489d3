%% The seq_trace token through spawn_monitor (the spawn reply is reported, the parent keeps
%% its token), a DOWN message (no token), print/2 (a matching label moves the serial on, with or
%% without the print flag), sends and receives of messages with and without a token.
-module(seq_trace_token_rules).
-export([main/0]).
main() ->
    seq_trace:set_token(label, 17),
    seq_trace:set_token(serial, {3,5}),
    A = seq_trace:get_token(),
    {_P, R} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', R, _, _, _} -> ok end,
    B = seq_trace:get_token(),
    seq_trace:set_token(label, 17),
    seq_trace:set_token(serial, {3,5}),
    C1 = seq_trace:print(18, hello),
    C = seq_trace:get_token(),
    D1 = seq_trace:print(17, hello),
    D = seq_trace:get_token(),
    self() ! plain,
    E = seq_trace:get_token(),
    seq_trace:set_token([]),
    self() ! plain2,
    seq_trace:set_token(label, 1),
    receive plain2 -> ok end,
    F = seq_trace:get_token(),
    seq_trace:set_token(label, 1),
    receive plain -> ok end,
    G = seq_trace:get_token(),
    erlang:send_after(10, self(), tmo),
    receive tmo -> ok end,
    H = seq_trace:get_token(),

    seq_trace:set_token([]),
    Norm = fun({Fl, L, S, P, PS}) when is_pid(P) -> {Fl, L, S, P =:= self(), PS}; (T) -> T end,
    io:format("~p~n", [[Norm(X) || X <- [A, B, C1, C, D1, D, E, F, G, H]]]).
