%% A driver's own thread sending a term (erl_drv_thread_create, erl_drv_send_term outside a
%% callback, erl_drv_thread_join), its queue read as a vector (driver_peekqv), and a driver loaded
%% with load_driver (kill_ports) unloaded when the only process that loaded it exits: the port
%% a helper opened is killed (driver_unloaded) and the driver is gone, as trace_port_SUITE
%% relies on from one case to the next.
-module(drv_threads).
-export([main/0]).

dir() -> filename:dirname(code:which(?MODULE)).

main() ->
    D = dir(),
    ok = erl_ddll:load_driver(D, drv_echo),
    P = open_port({spawn, drv_echo}, [binary]),
    io:format("thread: ~p~n", [erlang:port_control(P, $T, "hello")]),
    receive
        {from_thread, P, B} -> io:format("thread sent ~p~n", [B])
    after 2000 -> io:format("nothing from the thread~n")
    end,
    port_close(P),
    wait_closed(P),
    P1 = open_port({spawn, drv_echo}, [binary]),
    io:format("queue: ~p~n", [erlang:port_control(P1, $Q, "ab")]),
    receive
        {P1, {data, Q}} -> io:format("queue output ~p~n", [Q])
    after 2000 -> io:format("no output~n")
    end,
    port_close(P1),
    wait_closed(P1),
    ok = erl_ddll:unload_driver(drv_echo),
    Self = self(),
    {Loader, LoaderRef} =
        spawn_monitor(fun() ->
                              ok = erl_ddll:load_driver(D, drv_echo),
                              Me = self(),
                              Helper = spawn(fun() ->
                                                     Port = open_port({spawn, drv_echo}, [binary]),
                                                     Me ! {helper, self(), Port},
                                                     receive stop -> ok end
                                             end),
                              receive {helper, Helper, _} = M -> Self ! M end,
                              receive go -> ok end
                      end),
    {Helper, Port} = receive {helper, H, Pt} -> {H, Pt} end,
    HelperRef = erlang:monitor(process, Helper),
    Loader ! go,
    receive {'DOWN', LoaderRef, process, Loader, R1} -> io:format("loader: ~p~n", [R1]) end,
    receive
        {'DOWN', HelperRef, process, Helper, R2} -> io:format("helper: ~p~n", [R2])
    after 2000 -> io:format("helper still alive~n"), Helper ! stop
    end,
    io:format("port gone: ~p~n", [erlang:port_info(Port) =:= undefined]),
    {ok, Drivers} = erl_ddll:loaded_drivers(),
    io:format("drv_echo loaded: ~p~n", [lists:member("drv_echo", Drivers)]),
    ok = erl_ddll:load_driver(D, drv_echo),
    P2 = open_port({spawn, drv_echo}, [binary]),
    io:format("reloaded: ~p~n", [is_port(P2)]),
    port_close(P2),
    ok.

%% port_close/1 returns before the port is gone.
wait_closed(P) ->
    case erlang:port_info(P) of
        undefined -> ok;
        _ -> timer:sleep(10), wait_closed(P)
    end.
