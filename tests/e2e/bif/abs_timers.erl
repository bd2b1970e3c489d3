%% erlang:start_timer/4 and send_after/4 with {abs, true}: the time is a point of
%% erlang:monotonic_time(millisecond); a point already past fires at once (gen_statem's
%% absolute timeouts use it); bad options and negative relative times are badarg.
-module(abs_timers).
-export([main/0]).
main() ->
    T = erlang:monotonic_time(millisecond) + 100,
    R = erlang:start_timer(T, self(), hi, [{abs, true}]),
    Left = erlang:read_timer(R),
    io:format("~p~n", [is_integer(Left) andalso Left =< 100]),
    receive {timeout, R, hi} -> io:format("fired~n") after 2000 -> io:format("never~n") end,
    Past = erlang:monotonic_time(millisecond) - 5,
    erlang:send_after(Past, self(), past, [{abs, true}]),
    receive past -> io:format("past fired~n") after 1000 -> io:format("past never~n") end,
    erlang:send_after(50, self(), rel, [{abs, false}]),
    receive rel -> io:format("relative fired~n") after 1000 -> io:format("relative never~n") end,
    [io:format("~p~n", [try erlang:send_after(Tm, self(), x, O) catch error:E -> E end])
     || {Tm, O} <- [{-1, []}, {10, [{abs, maybe}]}, {10, [bad]}, {10, bad}]],
    ok.
