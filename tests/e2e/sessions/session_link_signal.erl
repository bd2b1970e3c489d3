%% set_on_link through link/1 in a session is applied when the linked process handles the
%% link signal, as OTP 27 applies it (erts queues the inherited flags in front of the link
%% signal): turning the session's flags off on the linked process right after link/1 is undone
%% by the signal, and getting_linked still reaches the session's tracer (trace_session_SUITE's
%% set_on_link cases turn them off twice for that reason).
-module(session_link_signal).
-export([main/0]).

main() ->
    Me = self(),
    Tracer = spawn_link(fun() -> collect([]) end),
    S = trace:session_create(links, Tracer, []),
    1 = trace:process(S, self(), true, [procs, set_on_link]),
    Child = spawn(fun() -> receive go -> Me ! went end, receive stop -> ok end end),
    link(Child),
    %% The first turn-off comes before the link signal is handled (always on one scheduler)
    %% and is undone by it; getting_linked reaches the tracer either way.
    io:format("off at once: ~p~n", [trace:process(S, Child, false, [procs, set_on_link])]),
    Child ! go,
    receive went -> ok end,
    io:format("off again: ~p~n", [trace:process(S, Child, false, [procs, set_on_link])]),
    unlink(Child),
    Child ! stop,
    1 = trace:process(S, self(), false, [procs, set_on_link]),
    Ref = trace:delivered(S, all),
    receive {trace_delivered, all, Ref} -> ok end,
    Tracer ! {dump, self()},
    Events = receive {events, E} -> E end,
    Name = fun(P) when P =:= Me -> main; (P) when P =:= Child -> child; (X) -> X end,
    [io:format("~p ~p ~p~n", [Name(Who), What, Name(Arg)]) || {trace, Who, What, Arg} <- Events],
    true = trace:session_destroy(S),
    ok.

collect(Acc) ->
    receive
        {dump, From} -> From ! {events, lists:reverse(Acc)}, collect([]);
        M -> collect([M | Acc])
    end.
