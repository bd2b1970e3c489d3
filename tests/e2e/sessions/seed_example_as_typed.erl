%% tests/e2e/sessions/seed_example_as_typed.erl — the trace module documentation's example typed
%% as the seed types it: nothing calls lists before trace:function/4, so the pattern matches only
%% because lists is loaded at boot, as on erl (trace:function/4 returns 1, not 0). The tracer
%% prints what it gets; main waits for it before going on, so the lines come in this order.
-module(seed_example_as_typed).
-export([main/0]).

main() ->
    Main = self(),
    Tracer = spawn(fun F() -> receive M -> io:format("~p~n", [M]), Main ! printed, F() end end),
    Session = trace:session_create(my_session, Tracer, []),
    io:format("~p~n", [trace:process(Session, self(), true, [call])]),
    io:format("~p~n", [trace:function(Session, {lists,seq,2}, [], [])]),
    Result = lists:seq(1, 10),
    receive printed -> ok end,
    io:format("~p~n", [Result]),
    io:format("~p~n", [trace:session_destroy(Session)]).
