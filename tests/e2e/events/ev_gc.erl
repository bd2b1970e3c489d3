-module(ev_gc).
-export([main/0]).
-import(e2e_trace, [collector/0, events/2, worker/0, run/2, stop_wait/2]).

%% `garbage_collection` tracing (OTP 25). Each collection gives {trace, P, Start, Info} then
%% {trace, P, End, Info}: gc_major_start/gc_major_end or gc_minor_start/gc_minor_end. Info is
%% a list of 12 {Key, Integer} pairs in a fixed order (printed with the values as `int`).
%% Despite its name, `wordsize` is not the machine word size: at a start event it is the heap
%% space needed (0 for a forced collection), at an end event the number of words reclaimed,
%% so only its start value for forced collections is printed. A forced collection
%% (erlang:garbage_collect/1 from another process, or garbage_collect/0 inside the tracee) is a
%% major one, and old_heap_size is 0 after it. Allocating a lot gives at least one minor
%% collection. In every event heap_size =< heap_block_size and old_heap_size =<
%% old_heap_block_size. Nothing depends on how many automatic collections happen.

main() ->
    T = collector(),
    W = worker(),
    io:format("trace gc: ~p~n", [erlang:trace(W, true, [garbage_collection, {tracer, T}])]),
    io:format("flags: ~p~n", [erlang:trace_info(W, flags)]),
    io:format("garbage_collect(worker): ~p~n", [erlang:garbage_collect(W)]),
    forced("forced from outside", events(T, [W])),
    io:format("garbage_collect() inside: ~p~n", [run(W, fun() -> erlang:garbage_collect() end)]),
    forced("forced from inside", events(T, [W])),
    io:format("allocating: ~p~n", [run(W, fun() -> allocate(60) end)]),
    Many = events(T, [W]),
    io:format("  some events: ~p~n", [Many =/= []]),
    io:format("  all trace messages of the worker: ~p~n", [[x || {trace, P, _, _} <- Many, P =:= W] =:= [x || _ <- Many]]),
    io:format("  start/end pairs of one kind: ~p~n", [pairs(tags(Many))]),
    io:format("  at least one minor pair: ~p~n", [lists:member(gc_minor_start, tags(Many))]),
    All = Many,
    io:format("  every info list is 12 non-negative integers with the same keys: ~p~n",
              [lists:all(fun({trace, _, _, I}) -> shape(I) =:= shape(info(hd(All))) end, All)]),
    io:format("  heap_size =< heap_block_size: ~p~n",
              [lists:all(fun(E) -> v(heap_size, E) =< v(heap_block_size, E) end, All)]),
    io:format("  old_heap_size =< old_heap_block_size: ~p~n",
              [lists:all(fun(E) -> v(old_heap_size, E) =< v(old_heap_block_size, E) end, All)]),
    io:format("sorted keys: ~p~n", [lists:sort([K || {K, _} <- info(hd(All))])]),
    io:format("gc off: ~p~n", [erlang:trace(W, false, [garbage_collection])]),
    io:format("garbage_collect(worker): ~p~n", [erlang:garbage_collect(W)]),
    io:format("  events: ~p~n", [events(T, [W])]),
    stop_wait(W, stop),
    stop_wait(T, stop),
    ok.

forced(Label, Evs) ->
    io:format("~s:~n", [Label]),
    [io:format("  ~p ~w~n", [Tag, shape(I)]) || {trace, _, Tag, I} <- Evs],
    case Evs of
        [{trace, _, _, Start}, {trace, _, gc_major_end, _} = End] ->
            io:format("  start wordsize: ~p, old_heap_size after: ~p~n",
                      [v(wordsize, Start), v(old_heap_size, End)]);
        _ ->
            io:format("  unexpected: ~p~n", [tags(Evs)])
    end.

%% Builds lists and keeps the last one alive while building the next; returns a summary.
allocate(N) -> allocate(N, [], 0).
allocate(0, Keep, Acc) -> {Acc, length(Keep)};
allocate(N, _Keep, Acc) ->
    L = lists:seq(1, 1000),
    allocate(N - 1, L, Acc + length(L)).

tags(Evs) -> [Tag || {trace, _, Tag, _} <- Evs].

pairs([gc_minor_start, gc_minor_end | Rest]) -> pairs(Rest);
pairs([gc_major_start, gc_major_end | Rest]) -> pairs(Rest);
pairs([]) -> true;
pairs(Other) -> {unpaired, Other}.

info({trace, _, _, I}) -> I.

shape(I) when is_list(I), length(I) =:= 12 ->
    [case is_integer(V) andalso V >= 0 of true -> {K, int}; false -> {K, V} end || {K, V} <- I];
shape(I) -> {bad_info, I}.

v(K, {trace, _, _, I}) -> v(K, I);
v(K, I) -> {K, V} = lists:keyfind(K, 1, I), V.
