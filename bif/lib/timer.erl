%% bif/lib/timer.erl — beamlet's own timer module: sleep/1 and tc/1,2,3, and time conversions.
-module(timer).
-export([sleep/1, tc/1, tc/2, tc/3, seconds/1, minutes/1, hours/1, hms/3]).

sleep(Time) when is_integer(Time), Time >= 0; Time =:= infinity ->
    receive after Time -> ok end.

tc(Fun) ->
    T0 = erlang:monotonic_time(microsecond),
    Value = Fun(),
    {erlang:monotonic_time(microsecond) - T0, Value}.

tc(Fun, Args) ->
    T0 = erlang:monotonic_time(microsecond),
    Value = apply(Fun, Args),
    {erlang:monotonic_time(microsecond) - T0, Value}.

tc(Module, Function, Args) ->
    T0 = erlang:monotonic_time(microsecond),
    Value = apply(Module, Function, Args),
    {erlang:monotonic_time(microsecond) - T0, Value}.

seconds(S) -> 1000 * S.
minutes(M) -> 60 * seconds(M).
hours(H) -> 60 * minutes(H).
hms(H, M, S) -> hours(H) + minutes(M) + seconds(S).
