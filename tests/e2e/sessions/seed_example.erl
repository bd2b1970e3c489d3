%% tests/e2e/sessions/seed_example.erl — the example of the OTP 27 trace module documentation:
%% session_create/3 with a tracer process, process/4 on self(), function/4 on lists:seq/2, the
%% call message, session_destroy/1 (true, then false), and no message after the destroy.
-module(seed_example).
-export([main/0]).
main() ->
    Self = self(),
    Tracer = spawn(fun F() -> receive stop -> Self ! stopped; M -> Self ! {got, M}, F() end end),
    S = trace:session_create(my_session, Tracer, []),
    {_, {my_session, Id}} = S,
    io:format("weak id ~p~n", [Id]),
    io:format("~p~n", [trace:process(S, self(), true, [call])]),
    io:format("~p~n", [trace:function(S, {lists,seq,2}, [], [])]),
    io:format("~p~n", [lists:seq(1,10)]),
    receive {got, M} -> io:format("got ~p~n", [setelement(2, M, self)]) after 500 -> io:format("no message~n") end,
    io:format("~p~n", [trace:session_destroy(S)]),
    io:format("~p~n", [trace:session_destroy(S)]),
    io:format("~p~n", [lists:seq(1,3)]),
    receive {got, M2} -> io:format("unexpected ~p~n", [M2]) after 100 -> io:format("quiet~n") end,
    Tracer ! stop, receive stopped -> ok end.
