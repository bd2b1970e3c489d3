-module(process_dict).
-export([main/0]).

%% Process dictionary: put/get/erase/get_keys (results sorted where order is unspecified).
main() ->
    io:format("~p~n", [get(missing)]),
    io:format("~p~n", [put(a, 1)]),
    io:format("~p~n", [put(a, 2)]),
    io:format("~p~n", [get(a)]),
    put(b, "bee"),
    put({complex, key}, [1, 2, 3]),
    put(42, forty_two),
    put(c, 1),
    io:format("~p~n", [lists:sort(get_keys())]),
    io:format("~p~n", [lists:sort(get_keys(1))]),
    io:format("~p~n", [lists:sort(get())]),
    io:format("~p~n", [get({complex, key})]),
    io:format("~p~n", [erase(b)]),
    io:format("~p~n", [erase(b)]),
    io:format("~p~n", [lists:sort(get_keys())]),
    [put(N, N * N) || N <- lists:seq(1, 100)],
    io:format("~p~n", [lists:sum([get(N) || N <- lists:seq(1, 100)])]),
    io:format("~p~n", [length(get_keys())]),
    Old = erase(),
    io:format("erased ~p~n", [length(Old)]),
    io:format("~p ~p~n", [get(), get_keys()]),
    counter(inc), counter(inc), counter(inc),
    io:format("counter ~p~n", [get(counter)]),
    io:format("~p~n", [memo_fib(80)]),
    ok.

counter(inc) ->
    case get(counter) of
        undefined -> put(counter, 1);
        N -> put(counter, N + 1)
    end.

memo_fib(N) when N < 2 -> N;
memo_fib(N) ->
    case get({fib, N}) of
        undefined ->
            V = memo_fib(N - 1) + memo_fib(N - 2),
            put({fib, N}, V),
            V;
        V -> V
    end.
