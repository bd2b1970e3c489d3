%% atomics and counters: signed and unsigned arrays, wrap-around, compare_exchange, info, and
%% badarg for bad indices and values; counters shared by concurrent processes.
-module(std_atomics).
-export([main/0]).

main() ->
    A = atomics:new(3, []),
    ok = atomics:put(A, 1, 10),
    atomics:add(A, 1, 5),
    io:format("~p~n", [[atomics:get(A, 1), atomics:add_get(A, 2, -3), atomics:sub_get(A, 3, 4)]]),
    io:format("~p~n", [[atomics:exchange(A, 1, 100), atomics:compare_exchange(A, 1, 100, 7),
                        atomics:compare_exchange(A, 1, 100, 8), atomics:get(A, 1)]]),
    ok = atomics:put(A, 2, 9223372036854775807),
    atomics:add(A, 2, 1),
    io:format("wraps to ~p~n", [atomics:get(A, 2)]),
    U = atomics:new(1, [{signed, false}]),
    atomics:sub(U, 1, 1),
    io:format("unsigned ~p ~p~n", [atomics:get(U, 1), atomics:info(U)]),
    io:format("~p~n", [atomics:info(A)]),
    Bad = fun(F) -> try F() catch C:R -> {C, R} end end,
    io:format("~p~n", [[Bad(fun() -> atomics:get(A, 0) end), Bad(fun() -> atomics:get(A, 4) end),
                        Bad(fun() -> atomics:put(U, 1, -1) end), Bad(fun() -> atomics:new(0, []) end),
                        Bad(fun() -> atomics:new(1, [bad]) end), Bad(fun() -> atomics:get(make_ref(), 1) end)]]),
    C = counters:new(2, [write_concurrency]),
    Self = self(),
    Pids = [spawn(fun() -> [counters:add(C, 1, 1) || _ <- lists:seq(1, 1000)], Self ! done end) || _ <- lists:seq(1, 8)],
    [receive done -> ok end || _ <- Pids],
    counters:sub(C, 2, 5),
    io:format("~p ~p ~p~n", [counters:get(C, 1), counters:get(C, 2), maps:get(size, counters:info(C))]),
    D = counters:new(1, []),
    counters:put(D, 1, 42),
    io:format("~p ~p~n", [counters:get(D, 1), counters:info(D)]),
    io:format("~p~n", [Bad(fun() -> counters:new(1, [foo]) end)]),
    ok.
