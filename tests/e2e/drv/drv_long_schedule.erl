%% erlang:system_monitor's long_schedule for a port (OTP's trace_SUITE
%% system_monitor_long_schedule, with tests/e2e/drv/drv_slow.c): a driver callback that takes
%% 150 ms inside port_control/3 counts against the calling process; one in the port's own turn
%% (its timer's timeout) against the port, named by the operation.
-module(drv_long_schedule).
-export([main/0]).

main() ->
    ok = erl_ddll:load_driver(filename:dirname(code:which(?MODULE)), drv_slow),
    Me = self(),
    Monitor = spawn_link(fun() -> watch(Me) end),
    erlang:system_monitor(Monitor, [{long_schedule, 100}]),
    erlang:yield(),
    Port = open_port({spawn_driver, drv_slow}, []),
    "ok" = erlang:port_control(Port, 0, []),
    io:format("the caller: ~p~n", [receive {Me, L} -> keys(L) after 2000 -> timeout end]),
    "ok" = erlang:port_control(Port, 1, []),
    io:format("the port: ~p~n", [receive {Port, LL} -> keys(LL) after 2000 -> timeout end]),
    port_close(Port),
    erlang:system_monitor(undefined),
    ok = erl_ddll:unload_driver(drv_slow).

%% Which items, and whether the time is as long as it was.
keys(Info) ->
    [case I of {timeout, T} -> {timeout, T >= 100}; {K, V} when K =:= port_op -> {K, V}; {K, _} -> K end || I <- Info].

watch(Parent) ->
    receive
        {monitor, Who, long_schedule, Info} when Who =:= Parent; is_port(Who) ->
            Parent ! {Who, Info};
        _ ->
            ok
    end,
    watch(Parent).
