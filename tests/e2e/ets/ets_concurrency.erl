%% tests/e2e/ets/ets_concurrency.erl — several processes share public tables created with
%% read_concurrency / write_concurrency: writers insert disjoint key ranges, concurrent
%% update_counter on shared counters (atomic: the totals are exact), insert_new races (exactly
%% one winner per key), readers that look up keys that are known to be present, a named
%% public table used by name from workers, and take/2 races (each object taken once). Only
%% totals are printed.
-module(ets_concurrency).
-export([main/0]).

-define(WORKERS, 8).
-define(PER, 2000).

main() ->
    lists:foreach(fun run_writers/1,
                  [[set, public],
                   [set, public, {write_concurrency, true}],
                   [ordered_set, public, {write_concurrency, true}, {read_concurrency, true}],
                   [bag, public, {read_concurrency, true}],
                   [duplicate_bag, public, {write_concurrency, true}]]),
    counters(),
    insert_new_race(),
    readers(),
    take_race(),
    ok.

run_writers(Opts) ->
    T = ets:new(t, Opts),
    par(fun(W) ->
                [true = ets:insert(T, {W * ?PER + I, W}) || I <- lists:seq(1, ?PER)],
                ok
        end),
    Size = ets:info(T, size),
    Sum = ets:foldl(fun({K, _}, A) -> A + K end, 0, T),
    PerWorker = [ets:select_count(T, [{{'_', W}, [], [true]}]) || W <- lists:seq(1, ?WORKERS)],
    io:format("~w: size ~w, key sum ~w, per worker ~w~n", [hd(Opts), Size, Sum, PerWorker]),
    true = ets:delete(T).

counters() ->
    T = ets:new(c, [set, public, {write_concurrency, true}]),
    true = ets:insert(T, [{total, 0, 0}, {wrap, 0}]),
    par(fun(W) ->
                [begin
                     ets:update_counter(T, total, [{2, 1}, {3, W}]),
                     ets:update_counter(T, wrap, {2, 1, 999, 0}),
                     ets:update_counter(T, {w, W}, 1, {{w, W}, 0})
                 end || _ <- lists:seq(1, ?PER)],
                ok
        end),
    io:format("counters: ~w ~w~n", [ets:lookup(T, total), ets:lookup(T, wrap)]),
    io:format("per-worker default counters: ~w~n",
              [[ets:lookup_element(T, {w, W}, 2) || W <- lists:seq(1, ?WORKERS)]]).

insert_new_race() ->
    T = ets:new(n, [set, public]),
    Self = self(),
    par(fun(W) ->
                Wins = length([K || K <- lists:seq(1, 500), ets:insert_new(T, {K, W})]),
                Self ! {wins, Wins},
                ok
        end),
    Wins = [receive {wins, N} -> N end || _ <- lists:seq(1, ?WORKERS)],
    io:format("insert_new race: total wins ~w, size ~w~n", [lists:sum(Wins), ets:info(T, size)]).

readers() ->
    T = ets:new(shared_r, [named_table, ordered_set, public, {read_concurrency, true}]),
    true = ets:insert(shared_r, [{I, I * I} || I <- lists:seq(1, 1000)]),
    Self = self(),
    par(fun(W) ->
                Sum = lists:sum([ets:lookup_element(shared_r, I, 2) || I <- lists:seq(1, 1000)]),
                Cnt = ets:select_count(shared_r, [{{'$1', '_'}, [{'>', '$1', W * 100}], [true]}]),
                %% writers too: each worker adds its own keys
                true = ets:insert(shared_r, {-W, W}),
                Self ! {read, W, Sum, Cnt},
                ok
        end),
    Rs = lists:sort([receive {read, W, S, C} -> {W, S, C} end || _ <- lists:seq(1, ?WORKERS)]),
    io:format("readers: ~w~n", [Rs]),
    io:format("negative keys: ~w~n", [ets:select(T, [{{'$1', '_'}, [{'<', '$1', 0}], ['$1']}])]).

take_race() ->
    T = ets:new(q, [set, public, {write_concurrency, true}]),
    true = ets:insert(T, [{I, I} || I <- lists:seq(1, 3000)]),
    Self = self(),
    par(fun(_W) ->
                Got = lists:append([ets:take(T, K) || K <- lists:seq(1, 3000)]),
                Self ! {taken, length(Got), lists:sum([V || {_, V} <- Got])},
                ok
        end),
    Res = [receive {taken, N, S} -> {N, S} end || _ <- lists:seq(1, ?WORKERS)],
    io:format("take race: total taken ~w, sum ~w, left ~w~n",
              [lists:sum([N || {N, _} <- Res]), lists:sum([S || {_, S} <- Res]), ets:info(T, size)]).

%% run F(W) for W in 1..WORKERS in parallel and wait for all
par(F) ->
    Pids = [spawn_monitor(fun() -> F(W) end) || W <- lists:seq(1, ?WORKERS)],
    [receive {'DOWN', Ref, process, Pid, normal} -> ok;
             {'DOWN', Ref, process, Pid, Other} -> io:format("worker failed: ~w~n", [Other])
     end || {Pid, Ref} <- Pids],
    ok.
