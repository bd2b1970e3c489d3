%% tests/e2e/bif/bif_reductions.erl — reductions charged for a BIF's work, as OTP counts them:
%% erlang:bump_reductions/1 (at most a time slice; badarg for a negative or a non-small),
%% process_info(self(), reductions) counting the slice so far, and the large conversions
%% (term_to_binary, binary_to_term, list_to_binary, iolist_size, binary_to_list, ...) charged by
%% the size of their work, so that a loop of them yields its scheduler: a process looping on
%% term_to_binary/1 of a large list is killed at once on one scheduler (OTP's
%% binary_SUITE:trapping).
-module(bif_reductions).
-export([main/0]).

main() ->
    erlang:garbage_collect(),
    erlang:yield(),
    {reductions, R1} = process_info(self(), reductions),
    true = erlang:bump_reductions(100),
    {reductions, R2} = process_info(self(), reductions),
    io:format("bump 100 counted: ~p~n", [R2 - R1 >= 100 andalso R2 - R1 =< 110]),
    erlang:yield(),
    {reductions, R2b} = process_info(self(), reductions),
    true = erlang:bump_reductions(100000),
    {reductions, R3} = process_info(self(), reductions),
    io:format("bump 100000 counted, at most a slice: ~p~n", [R3 - R2b > 3900 andalso R3 - R2b =< 4010]),
    io:format("bad: ~p~n", [[error_of(fun() -> erlang:bump_reductions(X) end)
                             || X <- [-1, 1 bsl 70, 1.0, a]]]),
    L = lists:duplicate(1000000, 1000),
    S = lists:duplicate(1000000, $x),
    B = term_to_binary(L),
    Bin = list_to_binary(S),
    [io:format("~p charged: ~p~n", [Name, reds(F) > Min])
     || {Name, Min, F} <- [{term_to_binary, 40000, fun() -> term_to_binary(L) end},
                           {binary_to_term, 100000, fun() -> binary_to_term(B) end},
                           {list_to_binary, 100000, fun() -> list_to_binary(S) end},
                           {iolist_to_binary, 100000, fun() -> iolist_to_binary(S) end},
                           {list_to_bitstring, 100000, fun() -> list_to_bitstring(S) end},
                           {iolist_size, 8000, fun() -> iolist_size(S) end},
                           {binary_to_list, 2000, fun() -> binary_to_list(Bin) end},
                           {bitstring_to_list, 40000, fun() -> bitstring_to_list(Bin) end}]],
    io:format("small term_to_binary is cheap: ~p~n", [reds(fun() -> term_to_binary(a) end) < 20]),
    %% A loop of large conversions yields: the loop is killed while it runs.
    Self = self(),
    Big = lists:duplicate(2000000, 2000000),
    Pid = spawn(fun() -> Self ! ready, loop(Big, 100000, 0) end),
    receive ready -> ok end,
    T0 = erlang:monotonic_time(millisecond),
    Ref = monitor(process, Pid),
    exit(Pid, kill),
    receive {'DOWN', Ref, process, Pid, Why} -> io:format("looper: ~p~n", [Why]) end,
    io:format("killed within a second: ~p~n", [erlang:monotonic_time(millisecond) - T0 < 1000]).

%% (The sizes are summed: a conversion whose result went unused would be compiled away.)
loop(_, 0, Sum) -> Sum;
loop(Big, N, Sum) ->
    loop(Big, N - 1, Sum + byte_size(term_to_binary(Big))).

reds(F) ->
    {reductions, R0} = process_info(self(), reductions),
    _ = F(),
    {reductions, R1} = process_info(self(), reductions),
    R1 - R0.

error_of(F) ->
    try F() catch error:E -> E end.
