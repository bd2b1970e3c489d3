-module(std_time_units).
-export([main/0]).

%% Time units without printing any clock value: erlang:convert_time_unit/3 between
%% second/millisecond/microsecond/nanosecond/native/perf_counter and integer
%% parts-per-second (rounding toward negative infinity for negative values, the deprecated
%% unit names), monotonic_time/system_time/os:system_time/time_offset shapes and ordering,
%% erlang:timestamp/os:timestamp shapes, and badarg for bad units.
main() ->
    Units = [second, millisecond, microsecond, nanosecond, 1, 10, 1000, 3, 7, 1000000],
    Values = [0, 1, 999, 1000, 1500, -1, -1500, 123456789, 1 bsl 62, -(1 bsl 70)],
    lists:foreach(fun(V) ->
        lists:foreach(fun(From) ->
            io:format("~w ~w ->~s~n", [V, From,
                [io_lib:format(" ~w", [erlang:convert_time_unit(V, From, To)]) || To <- Units]])
        end, Units)
    end, Values),
    t(deprecated_names, fun() -> [erlang:convert_time_unit(5, seconds, milli_seconds), erlang:convert_time_unit(5000, micro_seconds, seconds),
                                  erlang:convert_time_unit(5, milli_seconds, nano_seconds)] end),
    t(native_roundtrip, fun() ->
        N = erlang:convert_time_unit(1, second, native),
        {N > 0, erlang:convert_time_unit(N, native, second), erlang:convert_time_unit(N * 3, native, millisecond)} end),
    t(perf_counter, fun() -> erlang:convert_time_unit(erlang:convert_time_unit(2, second, perf_counter), perf_counter, millisecond) end),
    t(monotonic_ordering, fun() ->
        A = erlang:monotonic_time(),
        B = erlang:monotonic_time(),
        C = erlang:monotonic_time(nanosecond),
        {is_integer(A), B >= A, is_integer(C)} end),
    t(monotonic_units, fun() ->
        S = erlang:monotonic_time(second), Ms = erlang:monotonic_time(millisecond),
        {is_integer(S), is_integer(Ms), abs(Ms div 1000 - S) =< 1} end),
    t(system_time, fun() ->
        S = erlang:system_time(second), OsS = os:system_time(second),
        {S > 1600000000, abs(S - OsS) =< 2, abs(erlang:system_time(millisecond) div 1000 - S) =< 1} end),
    t(time_offset, fun() ->
        Off = erlang:time_offset(), M = erlang:monotonic_time(), Sys = erlang:system_time(),
        Diff = erlang:convert_time_unit(abs(Sys - (M + Off)), native, millisecond),
        {is_integer(Off), Diff < 1000} end),
    t(timestamp_shape, fun() ->
        {Mega, Sec, Micro} = erlang:timestamp(),
        {Mega2, _, _} = os:timestamp(),
        {is_integer(Mega), Sec >= 0, Sec < 1000000, Micro >= 0, Micro < 1000000, Mega2 >= Mega} end),
    t(unique_integer, fun() ->
        A = erlang:unique_integer([monotonic]), B = erlang:unique_integer([monotonic]),
        P = erlang:unique_integer([positive]),
        {B > A, P > 0} end),
    t(bad_unit_from, fun() -> erlang:convert_time_unit(1, bogus, second) end),
    t(bad_unit_to, fun() -> erlang:convert_time_unit(1, second, 0) end),
    t(bad_value, fun() -> erlang:convert_time_unit(1.5, second, millisecond) end),
    t(bad_monotonic_unit, fun() -> erlang:monotonic_time(bogus) end),
    t(bad_system_time_unit, fun() -> erlang:system_time(-1) end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
