%% erlang:system_monitor/2's large_heap for a process spawned with {min_heap_size, N} (heap
%% sizes from OTP's table), and long_gc with erts_debug's test_long_gc_sleep knob (OTP's
%% trace_SUITE:system_monitor_large_heap_2 and system_monitor_long_gc_*).
-module(system_monitor_gc).
-export([main/0]).
main() ->
    Parent = self(),
    erlang:system_monitor(self(), [{large_heap, 65535}]),
    Pid = spawn_opt(fun () ->
                            Before = process_info(self(), [heap_size, total_heap_size]),
                            garbage_collect(),
                            Parent ! {sizes, self(), Before, process_info(self(), [heap_size, total_heap_size])}
                    end, [{min_heap_size, 2 * 65535}]),
    receive {sizes, Pid, B, A} -> io:format("~p~n~p~n", [B, A]) end,
    Ref = erlang:trace_delivered(Pid),
    receive {trace_delivered, Pid, Ref} -> ok end,
    io:format("~p~n", [element(2, erlang:system_monitor(undefined))]),
    receive {monitor, Pid, large_heap, Info} -> io:format("large_heap ~p~n", [lists:sort(proplists:get_keys(Info))])
    after 1000 -> io:format("no large_heap~n") end,
    try spawn_opt(fun() -> ok end, [{min_heap_size, -1}])
    catch error:R:S -> [{M, F, _, Inf} | _] = S, io:format("~p ~p:~p ~p~n", [R, M, F, Inf])
    end,
    false = erts_debug:set_internal_state(available_internal_state, true),
    true = erts_debug:set_internal_state(test_long_gc_sleep, 20),
    erlang:system_monitor(self(), [{long_gc, 1}]),
    P2 = spawn(fun() -> garbage_collect(), Parent ! {done, self()} end),
    receive {done, P2} -> ok end,
    Ref2 = erlang:trace_delivered(P2),
    receive {trace_delivered, P2, Ref2} -> ok end,
    io:format("~p~n", [element(2, erlang:system_monitor(undefined))]),
    erts_debug:set_internal_state(test_long_gc_sleep, 0),
    receive {monitor, P2, long_gc, Info2} ->
            io:format("long_gc ~p ~p~n", [lists:sort(proplists:get_keys(Info2)), proplists:get_value(timeout, Info2) >= 20])
    after 1000 -> io:format("no long_gc~n") end,
    io:format("~p~n", [erts_debug:get_internal_state(force_heap_frags)]),
    ok.
