%% bench/bench_mnesia.erl — Mnesia transactions, in the format of ../shared/bench: N
%% read-modify-write transactions on a ram_copies table by one process, then the same total by
%% 4 processes at once (on distinct keys), then N on a disc_copies table (its log written, not
%% synced), in a fresh directory under $TMPDIR.
-module(bench_mnesia).
-export([main/0, main/1]).

main() -> main(20000).

main(N) ->
    Dir = filename:join(os:getenv("TMPDIR", "/tmp"), "bench_mnesia_" ++ os:getpid()),
    ok = filelib:ensure_dir(filename:join(Dir, "x")),
    ok = application:set_env(mnesia, dir, Dir),
    ok = mnesia:create_schema([node()]),
    ok = mnesia:start(),
    {atomic, ok} = mnesia:create_table(ram, [{ram_copies, [node()]}]),
    {atomic, ok} = mnesia:create_table(disc, [{disc_copies, [node()]}]),
    ok = mnesia:wait_for_tables([ram, disc], 10000),
    run(ram_1proc, ram, N, 1),
    run(ram_4procs, ram, N, 4),
    run(disc_1proc, disc, N, 1),
    stopped = mnesia:stop(),
    ok = mnesia:delete_schema([node()]),
    os:cmd("rm -rf " ++ Dir),
    ok.

run(Name, Table, N, Procs) ->
    Self = self(),
    T0 = erlang:monotonic_time(microsecond),
    Pids = [spawn_link(fun() -> Self ! {done, self(), work(Table, P, N div Procs)} end) || P <- lists:seq(1, Procs)],
    Sum = lists:sum([receive {done, P, S} -> S end || P <- Pids]),
    T1 = erlang:monotonic_time(microsecond),
    io:format("result ~w sum=~w~n", [Name, Sum]),
    io:format("bench ~w ~w us~n", [Name, T1 - T0]),
    io:format("metric ~w_rate ~w tx/s~n", [Name, N * 1000000 div max(1, T1 - T0)]).

work(Table, P, N) -> work(Table, P, N, 0).
work(_Table, _P, 0, Acc) -> Acc;
work(Table, P, N, Acc) ->
    Key = {P, N rem 100},
    {atomic, V} = mnesia:transaction(fun() ->
                                             Old = case mnesia:read(Table, Key, write) of
                                                       [{_, _, X}] -> X;
                                                       [] -> 0
                                                   end,
                                             ok = mnesia:write({Table, Key, Old + 1}),
                                             Old + 1
                                     end),
    work(Table, P, N - 1, Acc + V).
