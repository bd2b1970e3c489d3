%% Drivers loaded with erl_ddll (tests/e2e/drv/drv_echo.c): loading and its errors, ports of a
%% loaded driver (commands, port_control/3, the driver's timer, terms it sends, its failures),
%% and unloading with ports open.
-module(drv_basic).
-export([main/0]).

dir() -> filename:dirname(code:which(?MODULE)).

show(Label, X) -> io:format("~s: ~p~n", [Label, X]).

error_of(F) ->
    try F() of V -> {value, V} catch C:R -> {C, R} end.

flush(P) ->
    receive {P, _} = M -> [M | flush(P)] after 100 -> [] end.

main() ->
    process_flag(trap_exit, true),
    D = dir(),
    show("missing library", erl_ddll:try_load(D, no_such_drv, [])),
    {error, E} = erl_ddll:load(D, no_such_drv),
    show("its text", erl_ddll:format_error(E)),
    show("bad directory", error_of(fun() -> erl_ddll:try_load(1, drv_echo, []) end)),
    show("bad name", error_of(fun() -> erl_ddll:try_load(D, 1, []) end)),
    show("bad option", error_of(fun() -> erl_ddll:try_load(D, drv_echo, [foo]) end)),
    show("load", erl_ddll:try_load(D, drv_echo, [])),
    show("again", erl_ddll:try_load(D, "drv_echo", [])),
    show("from elsewhere", erl_ddll:try_load(filename:dirname(D), drv_echo, [])),
    show("with other options", erl_ddll:try_load(D, drv_echo, [{driver_options, [kill_ports]}])),
    show("listed", lists:member("drv_echo", element(2, erl_ddll:loaded_drivers()))),
    Me = self(),
    show("info", erl_ddll:info(drv_echo) -- [{processes, [{Me, 2}]}]),
    show("processes", erl_ddll:info(drv_echo, processes) =:= [{Me, 2}]),
    show("unknown driver's info", error_of(fun() -> erl_ddll:info(no_such_drv, port_count) end)),
    show("linked in", {erl_ddll:try_load(D, tcp_inet, []), erl_ddll:try_unload(tcp_inet, []),
                       erl_ddll:info(tcp_inet, linked_in_driver), erl_ddll:info(tcp_inet, processes)}),
    show("not loaded", erl_ddll:try_unload(no_such_drv, [])),
    show("texts", [erl_ddll:format_error(A) || A <- [not_loaded, inconsistent, linked_in_driver,
                                                       not_loaded_by_this_process]]),

    %% A port: commands come back, in a list or a binary.
    P = open_port({spawn_driver, "drv_echo hello"}, []),
    show("name", erlang:port_info(P, name)),
    show("port_count", erl_ddll:info(drv_echo, port_count)),
    P ! {self(), {command, "abc"}},
    show("echo", flush(P) =:= [{P, {data, "echo:abc"}}]),
    true = port_command(P, "term"),
    [{P, {P, term, -42, "abc", [<<"xyz">>, Caller, "ab", 7, 1.5, Big, Map]}}] = [{P, T} || T <- flush_terms()],
    show("term", {Caller =:= self(), Big, Map}),
    port_command(P, "bad"),
    show("malformed term", flush(P) =:= [{P, {data, "refused"}}]),
    show("control", port_control(P, $s, "hello")),
    show("control, a long reply", port_control(P, $s, lists:seq($a, $z) ++ lists:seq($A, $Z) ++ lists:seq($a, $z))),
    show("unknown control", error_of(fun() -> port_control(P, $z, "") end)),
    show("timer", port_control(P, $t, "30")),
    show("timeout", flush(P) =:= [{P, {data, "timeout"}}]),
    show("timer cancelled", {port_control(P, $t, "5000"), port_control(P, $c, ""), flush(P)}),
    show("binary control", {port_control(P, $b, ""), port_control(P, $s, "hello")}),
    show("binary control, a long reply", port_control(P, $s, lists:duplicate(70, $x) ++ "y")),
    show("init ran", port_control(P, $i, "")),
    show("busy", {port_control(P, $B, ""), port_command(P, "x", [nosuspend]), port_control(P, $F, ""),
                  port_command(P, "x", [nosuspend]), flush(P) =:= [{P, {data, "echo:x"}}]}),
    port_command(P, "die"),
    show("driver failure", receive {'EXIT', P, R} -> R after 1000 -> timeout end),
    show("port_count after", erl_ddll:info(drv_echo, port_count)),

    %% Binary mode, end of file, failing starts, {spawn, Command}.
    P2 = open_port({spawn_driver, drv_echo}, [binary]),
    port_command(P2, "xyz"),
    show("binary echo", [M || {Q, M} <- flush(P2), Q =:= P2]),
    port_command(P2, "eof"),
    show("end of file", receive {'EXIT', P2, R2} -> R2 after 1000 -> timeout end),
    P3 = open_port({spawn_driver, drv_echo}, [eof]),
    port_command(P3, "eof"),
    show("end of file, eof option", {flush(P3) =:= [{P3, eof}], erlang:port_info(P3, name)}),
    port_close(P3),
    show("start fails", error_of(fun() -> open_port({spawn_driver, "drv_echo fail"}, []) end)),
    show("start refuses", error_of(fun() -> open_port({spawn_driver, "drv_echo badarg"}, []) end)),
    show("links after", [L || L <- element(2, process_info(self(), links)), is_port(L)]),
    P4 = open_port({spawn, "drv_echo by spawn"}, []),
    port_command(P4, "s"),
    show("by spawn", {erlang:port_info(P4, name), flush(P4) =:= [{P4, {data, "echo:s"}}]}),

    %% Unloading: the last of this process's loads with a port open waits for the port.
    show("unload", erl_ddll:try_unload(drv_echo, [])),
    {ok, pending_driver, Ref} = erl_ddll:try_unload(drv_echo, [{monitor, pending_driver}]),
    show("listed while pending", lists:member("drv_echo", element(2, erl_ddll:loaded_drivers()))),
    show("another process", spawn_call(fun() -> erl_ddll:try_unload(drv_echo, []) end)),
    port_close(P4),
    show("unloaded with its port", receive {'DOWN', Ref, driver, N, Why} -> {N, Why} after 1000 -> timeout end),
    show("listed after", lists:member("drv_echo", element(2, erl_ddll:loaded_drivers()))),

    %% kill_ports; erl_ddll's monitors; a process's loads end with it.
    ok = erl_ddll:load_driver(D, drv_echo),
    P5 = open_port({spawn_driver, drv_echo}, []),
    show("unload_driver kills its ports", {erl_ddll:unload_driver(drv_echo),
                                           receive {'EXIT', P5, R5} -> R5 after 1000 -> timeout end}),
    show("init ran again", spawn_call(fun() ->
                                              ok = erl_ddll:load(D, drv_echo),
                                              Q = open_port({spawn_driver, drv_echo}, []),
                                              I = port_control(Q, $i, ""),
                                              port_close(Q),
                                              I
                                      end)),
    timer:sleep(50),
    show("gone with the process", lists:member("drv_echo", element(2, erl_ddll:loaded_drivers()))),
    Down = erl_ddll:monitor(driver, {drv_echo, unloaded}),
    show("down at once", receive {'DOWN', Down, driver, N3, W3} -> {N3, W3} after 1000 -> timeout end),
    show("demonitor", {erl_ddll:demonitor(Down), error_of(fun() -> erl_ddll:demonitor(x) end)}),
    ok.

flush_terms() ->
    receive {_, term, _, _, _} = T -> [T | flush_terms()] after 100 -> [] end.

spawn_call(F) ->
    Me = self(),
    Pid = spawn(fun() -> Me ! {self(), F()} end),
    receive {Pid, R} -> R after 2000 -> timeout end.
