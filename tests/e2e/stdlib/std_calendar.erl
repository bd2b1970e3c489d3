-module(std_calendar).
-export([main/0]).
-compile(nowarn_deprecated_function).  % calendar:time_difference/2

%% calendar with fixed inputs only (no local time): date_to_gregorian_days,
%% gregorian_days_to_date, datetime_to_gregorian_seconds, gregorian_seconds_to_datetime,
%% day_of_the_week, is_leap_year, last_day_of_the_month, valid_date, iso_week_number,
%% seconds_to_daystime, seconds_to_time, time_to_seconds, time_difference,
%% system_time_to_universal_time, rfc3339_to_system_time and system_time_to_rfc3339 with
%% explicit {offset, ...} and {unit, ...}, and bad inputs.
main() ->
    Dates = [{0, 1, 1}, {1, 1, 1}, {1970, 1, 1}, {2000, 2, 29}, {1999, 12, 31}, {2024, 3, 1}, {2100, 12, 31}, {9999, 12, 31}],
    lists:foreach(fun(D) ->
        Days = calendar:date_to_gregorian_days(D),
        io:format("~w: days=~w back=~w dow=~w iso=~w~n",
                  [D, Days, calendar:gregorian_days_to_date(Days), calendar:day_of_the_week(D),
                   safe(fun() -> calendar:iso_week_number(D) end)])
    end, Dates),
    t(date_to_days3, fun() -> calendar:date_to_gregorian_days(2020, 6, 15) end),
    t(dow3, fun() -> calendar:day_of_the_week(2021, 1, 1) end),
    t(dt_to_secs, fun() -> calendar:datetime_to_gregorian_seconds({{1970, 1, 1}, {0, 0, 0}}) end),
    t(dt_to_secs2, fun() -> calendar:datetime_to_gregorian_seconds({{2023, 11, 14}, {22, 13, 20}}) end),
    t(secs_to_dt, fun() -> calendar:gregorian_seconds_to_datetime(63871769600) end),
    t(secs_to_dt0, fun() -> calendar:gregorian_seconds_to_datetime(0) end),
    t(leap_years, fun() -> [{Y, calendar:is_leap_year(Y)} || Y <- [1900, 2000, 2004, 2023, 2024, 2100, 2400]] end),
    t(last_day, fun() -> [calendar:last_day_of_the_month(Y, M) || {Y, M} <- [{2023, 2}, {2024, 2}, {1900, 2}, {2000, 2}, {2023, 4}, {2023, 12}]] end),
    t(valid_date, fun() -> [calendar:valid_date(D) || D <- [{2023, 2, 29}, {2024, 2, 29}, {2023, 13, 1}, {2023, 0, 1}, {2023, 4, 31}, {-1, 1, 1}, {2023, 1, 0}]] end),
    t(valid_date3, fun() -> calendar:valid_date(2000, 2, 29) end),
    t(valid_date_bad, fun() -> calendar:valid_date(a, b, c) end),
    t(iso_week_edges, fun() -> [calendar:iso_week_number(D) || D <- [{2020, 12, 31}, {2021, 1, 3}, {2021, 1, 4}, {2026, 12, 31}, {2027, 1, 1}, {2008, 12, 29}]] end),
    t(seconds_to_daystime, fun() -> [calendar:seconds_to_daystime(S) || S <- [0, 59, 3600, 86399, 86400, 100000, -1, -86401]] end),
    t(seconds_to_time, fun() -> [calendar:seconds_to_time(S) || S <- [0, 3661, 86399]] end),
    t(seconds_to_time_bad, fun() -> calendar:seconds_to_time(86400) end),
    t(time_to_seconds, fun() -> [calendar:time_to_seconds(T) || T <- [{0, 0, 0}, {1, 1, 1}, {23, 59, 59}]] end),
    t(time_difference, fun() -> calendar:time_difference({{2020, 1, 1}, {0, 0, 0}}, {{2020, 3, 1}, {12, 30, 15}}) end),
    t(time_difference_neg, fun() -> calendar:time_difference({{2020, 3, 1}, {0, 0, 0}}, {{2020, 1, 1}, {12, 0, 0}}) end),
    t(system_time_to_universal, fun() -> calendar:system_time_to_universal_time(1700000000, second) end),
    t(system_time_to_universal_ms, fun() -> calendar:system_time_to_universal_time(1700000000123, millisecond) end),
    t(system_time_to_universal_neg, fun() -> calendar:system_time_to_universal_time(-1, second) end),
    t(rfc3339_z, fun() -> calendar:system_time_to_rfc3339(1700000000, [{offset, "Z"}]) end),
    t(rfc3339_offset_str, fun() -> calendar:system_time_to_rfc3339(1700000000, [{offset, "+02:00"}]) end),
    t(rfc3339_offset_int, fun() -> calendar:system_time_to_rfc3339(1700000000, [{offset, -3600}]) end),
    t(rfc3339_offset_zero, fun() -> calendar:system_time_to_rfc3339(0, [{offset, 0}]) end),
    t(rfc3339_ms, fun() -> calendar:system_time_to_rfc3339(1700000000123, [{unit, millisecond}, {offset, "Z"}]) end),
    t(rfc3339_us, fun() -> calendar:system_time_to_rfc3339(1700000000000001, [{unit, microsecond}, {offset, "Z"}]) end),
    t(rfc3339_ns, fun() -> calendar:system_time_to_rfc3339(1700000000000000001, [{unit, nanosecond}, {offset, "Z"}]) end),
    t(rfc3339_space_designator, fun() -> calendar:system_time_to_rfc3339(5, [{unit, second}, {offset, "Z"}, {time_designator, $\s}]) end),
    t(rfc3339_frac_offset, fun() -> calendar:system_time_to_rfc3339(1500, [{unit, millisecond}, {offset, "-05:30"}]) end),
    t(rfc3339_neg_time, fun() -> calendar:system_time_to_rfc3339(-1, [{offset, "Z"}]) end),
    t(rfc3339_parse_z, fun() -> calendar:rfc3339_to_system_time("2023-11-14T22:13:20Z") end),
    t(rfc3339_parse_offset, fun() -> calendar:rfc3339_to_system_time("2023-11-15T00:13:20+02:00") end),
    t(rfc3339_parse_frac_ms, fun() -> calendar:rfc3339_to_system_time("2023-11-14T22:13:20.123Z", [{unit, millisecond}]) end),
    t(rfc3339_parse_frac_us, fun() -> calendar:rfc3339_to_system_time("2023-11-14T22:13:20.5-01:00", [{unit, microsecond}]) end),
    t(rfc3339_parse_space, fun() -> calendar:rfc3339_to_system_time("1970-01-01 00:00:01z") end),
    t(rfc3339_parse_bad, fun() -> calendar:rfc3339_to_system_time("not a date") end),
    t(rfc3339_parse_bad_date, fun() -> calendar:rfc3339_to_system_time("2023-02-30T00:00:00Z") end),
    t(days_bad, fun() -> calendar:date_to_gregorian_days({2023, 2, 30}) end),
    t(days_neg, fun() -> calendar:gregorian_days_to_date(-1) end),
    t(dow_bad, fun() -> calendar:day_of_the_week({2023, 13, 1}) end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).

safe(F) ->
    try F() catch C:E -> {C, E} end.
