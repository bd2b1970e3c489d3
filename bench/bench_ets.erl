%% bench/bench_ets.erl — ETS throughput, in the format of ../shared/bench (bench/metric lines):
%% insert and lookup of 100k integer keys in a set and in an ordered_set (one call per key),
%% and lookups on a read_concurrency set by 1 process, then by 2 processes doing the same total
%% work at once (on 2 schedulers the second should take about half the time).
-module(bench_ets).
-export([main/0, main/1]).

main() -> main(100000).

main(N) ->
    Keys = lists:seq(1, N),
    set_and_ordered(set, Keys, N),
    set_and_ordered(ordered_set, Keys, N),
    parallel_reads(Keys, N),
    ok.

set_and_ordered(Type, Keys, N) ->
    T = ets:new(bench, [Type, public]),
    T0 = erlang:monotonic_time(microsecond),
    lists:foreach(fun(K) -> ets:insert(T, {K, K}) end, Keys),
    T1 = erlang:monotonic_time(microsecond),
    Sum = lists:foldl(fun(K, Acc) -> [{_, V}] = ets:lookup(T, K), Acc + V end, 0, Keys),
    T2 = erlang:monotonic_time(microsecond),
    io:format("result ~w sum=~w size=~w~n", [Type, Sum, ets:info(T, size)]),
    io:format("bench ~w_insert ~w us~n", [Type, T1 - T0]),
    io:format("bench ~w_lookup ~w us~n", [Type, T2 - T1]),
    io:format("metric ~w_insert_rate ~w op/ms~n", [Type, N * 1000 div max(1, T1 - T0)]),
    io:format("metric ~w_lookup_rate ~w op/ms~n", [Type, N * 1000 div max(1, T2 - T1)]),
    ets:delete(T).

parallel_reads(Keys, N) ->
    T = ets:new(bench, [set, public, {read_concurrency, true}]),
    lists:foreach(fun(K) -> ets:insert(T, {K, K}) end, Keys),
    Rounds = 10,
    One = time_readers(T, Keys, 1, Rounds),
    Two = time_readers(T, Keys, 2, Rounds div 2),
    io:format("bench reads_1proc ~w us~n", [One]),
    io:format("bench reads_2proc ~w us~n", [Two]),
    io:format("metric reads_2proc_speedup ~w x1000~n", [One * 1000 div max(1, Two)]),
    io:format("result reads ~w lookups~n", [N * Rounds]),
    ets:delete(T).

time_readers(T, Keys, Procs, Rounds) ->
    Self = self(),
    T0 = erlang:monotonic_time(microsecond),
    Pids = [spawn_link(fun() -> read_rounds(T, Keys, Rounds), Self ! {done, self()} end) || _ <- lists:seq(1, Procs)],
    [receive {done, P} -> ok end || P <- Pids],
    erlang:monotonic_time(microsecond) - T0.

read_rounds(_, _, 0) -> ok;
read_rounds(T, Keys, R) ->
    lists:foreach(fun(K) -> [_] = ets:lookup(T, K) end, Keys),
    read_rounds(T, Keys, R - 1).
