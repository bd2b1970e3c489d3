%% tests/e2e/bif/on_heap_messages.erl — with message_queue_data on_heap (the default) the
%% messages in a process's queue are part of its total heap size, and count toward its
%% max_heap_size at a collection; off_heap they are not (spawn_opt's option, or
%% process_flag/2's). message_queue_data_SUITE:total_heap_size and gc_SUITE:max_heap_size.
-module(on_heap_messages).
-export([main/0]).

main() ->
    Echo = fun F() -> receive Pid when is_pid(Pid) -> Pid ! ok, F() end end,
    [begin
         P = spawn_opt(Echo, [{message_queue_data, Mode}]),
         {total_heap_size, Before} = process_info(P, total_heap_size),
         [P ! lists:duplicate(N, N) || N <- lists:seq(1, 100)],
         P ! self(),
         receive ok -> ok end,
         {total_heap_size, After} = process_info(P, total_heap_size),
         io:format("~p: grew ~p, mode ~p~n", [Mode, After > Before, process_info(P, message_queue_data)]),
         exit(P, kill)
     end || Mode <- [on_heap, off_heap]],
    io:format("bad mode: ~p~n", [try spawn_opt(Echo, [{message_queue_data, elsewhere}]) catch error:R -> R end]),
    [begin
         P = spawn_opt(fun() -> receive after 10000 -> ok end end,
                       [{max_heap_size, #{size => 1024, kill => true, error_logger => false}},
                        {message_queue_data, Mode}]),
         [P ! lists:duplicate(I, I) || I <- lists:seq(1, 100)],
         Ref = monitor(process, P),
         _ = process_info(P, messages),
         garbage_collect(P),
         receive {'DOWN', Ref, process, P, Why} -> io:format("~p over max_heap_size: ~p~n", [Mode, Why])
         after 1000 -> io:format("~p over max_heap_size: alive~n", [Mode]), exit(P, kill)
         end
     end || Mode <- [on_heap, off_heap]],
    ok.
