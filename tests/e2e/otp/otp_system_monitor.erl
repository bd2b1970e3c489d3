-module(otp_system_monitor).
-export([main/0]).

%% erlang:system_monitor/0,1,2: settings in OTP's order, off with [] or undefined, badarg
%% for bad options, cleared when the monitor exits; large_heap and long_schedule events
%% (with the keys of their info lists) from another process.
main() ->
    io:format("~p~n", [erlang:system_monitor()]),
    Self = self(),
    Mon = spawn(fun() -> collect(Self) end),
    undefined = erlang:system_monitor(Mon, [{large_heap, 100000}, busy_port]),
    {Mon, Opts} = erlang:system_monitor(),
    io:format("options ~p~n", [Opts]),
    io:format("~p~n", [reason(fun() -> erlang:system_monitor(Mon, [{large_heap, -1}]) end)]),
    io:format("~p~n", [reason(fun() -> erlang:system_monitor(Mon, [{long_message, 1}]) end)]),
    io:format("~p~n", [reason(fun() -> erlang:system_monitor(nopid) end)]),
    Worker = spawn(fun() ->
                       L = lists:seq(1, 500000),
                       erlang:garbage_collect(),
                       Self ! {worker_done, length(L)}
                   end),
    receive {worker_done, N} -> io:format("worker built ~p~n", [N]) end,
    Mon ! {report, self()},
    receive {events, Events} ->
        [io:format("event ~p from worker: ~p keys ~p~n", [E, P =:= Worker, lists:sort([K || {K, _} <- Info])])
         || {monitor, P, E, Info} <- lists:ukeysort(3, Events)]
    end,
    {Mon, _} = erlang:system_monitor(undefined),
    io:format("off: ~p~n", [erlang:system_monitor()]),
    erlang:system_monitor(Mon, [{long_gc, 1000}]),
    exit(Mon, kill),
    timer:sleep(50),
    io:format("monitor gone: ~p~n", [erlang:system_monitor()]),
    ok.

reason(F) -> try F() catch C:R -> {C, R} end.

collect(Parent) -> collect(Parent, []).
collect(Parent, Acc) ->
    receive
        {report, From} -> From ! {events, lists:reverse(Acc)}, collect(Parent, []);
        M -> collect(Parent, [M | Acc])
    end.
