%% Two more erts_debug knobs OTP's suites use: process_uniq_counter (receive_SUITE's
%% recv_marker_reserve sets it past MAX_SMALL, then receives with reference markers) and
%% get_internal_state(memory), the crash dump's memory figures that system_info_SUITE compares
%% with erlang:memory/0.
-module(erts_debug_suite_knobs).
-export([main/0]).

main() ->
    erts_debug:set_internal_state(available_internal_state, true),
    logger_std_h:filesync(default),
    Values = [0, 1, -5, (1 bsl 59) - 1, 1 bsl 59, (1 bsl 63) - 1, -(1 bsl 63), 1 bsl 63, 1 bsl 64, a, 1.0],
    show([catch_error(fun() -> erts_debug:set_internal_state(process_uniq_counter, V) end) || V <- Values]),
    %% Markers reserved and used with the counter just below the largest small integer.
    ok = erts_debug:set_internal_state(process_uniq_counter, (1 bsl 59) - 100),
    show(markers(300)),
    Dump = erts_debug:get_internal_state(memory),
    Memory = erlang:memory(),
    show([K || {K, _} <- Dump] =:= [K || {K, _} <- Memory]),
    show(lists:all(fun({_, V}) -> is_integer(V) andalso V > 0 end, Dump)),
    Get = fun(K) -> proplists:get_value(K, Dump) end,
    show(Get(total) =:= Get(processes) + Get(system)),
    show(Get(system) > Get(atom) + Get(binary) + Get(code) + Get(ets)),
    %% multizero_timeout_in_timeout (timer_bif_SUITE): done within the time and a bit.
    T0 = erlang:monotonic_time(millisecond),
    show(erts_debug:set_internal_state(multizero_timeout_in_timeout, 100)),
    show(receive multizero_timeout_in_timeout_done -> erlang:monotonic_time(millisecond) - T0 < 1000
         after 5000 -> timeout end),
    show(catch_error(fun() -> erts_debug:set_internal_state(multizero_timeout_in_timeout, x) end)),
    erts_debug:set_internal_state(available_internal_state, false).

markers(0) -> ok;
markers(N) ->
    Ref = monitor(process, self(), [{alias, demonitor}]),
    self() ! Ref,
    receive Ref -> erlang:demonitor(Ref, [flush]) end,
    markers(N - 1).

catch_error(F) ->
    try F() catch error:E -> {error, E} end.

show(X) -> io:format("~p~n", [X]).
