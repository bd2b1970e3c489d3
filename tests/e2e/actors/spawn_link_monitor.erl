-module(spawn_link_monitor).
-export([main/0, child/1]).

%% spawn_link/1,3, spawn_monitor/1,3 and spawn_opt/2,4 with [link], [monitor], [link, monitor].
%% Linking is done from an intermediate trapping process so main's own trap_exit state is irrelevant.
main() ->
    Self = self(),
    T = spawn(fun() -> tester(Self) end),
    Lines = collect(T),
    [io:format("~s~n", [L]) || L <- Lines],
    {P1, R1} = spawn_monitor(fun() -> exit(bye) end),
    io:format("spawn_monitor/1: ~p~n", [receive {'DOWN', R1, process, P1, W1} -> W1 end]),
    {P2, R2} = spawn_monitor(?MODULE, child, [{exit, {custom, 3}}]),
    io:format("spawn_monitor/3: ~p~n", [receive {'DOWN', R2, process, P2, W2} -> W2 end]),
    {P3, R3} = spawn_opt(fun() -> ok end, [monitor]),
    io:format("spawn_opt [monitor] returns {pid, ref}: ~p~n", [is_pid(P3) andalso is_reference(R3)]),
    io:format("spawn_opt [monitor]: ~p~n", [receive {'DOWN', R3, process, P3, W3} -> W3 end]),
    {P4, R4} = spawn_opt(?MODULE, child, [{exit, opt4}], [monitor]),
    io:format("spawn_opt/4 [monitor]: ~p~n", [receive {'DOWN', R4, process, P4, W4} -> W4 end]),
    wait_dead(T),
    ok.

child({exit, R}) -> exit(R);
child(ret) -> done.

tester(Main) ->
    process_flag(trap_exit, true),
    P1 = spawn_link(fun() -> exit(linked_bye) end),
    out(Main, "spawn_link/1: ~p", [recv_exit(P1)]),
    P2 = spawn_link(?MODULE, child, [{exit, from_mfa}]),
    out(Main, "spawn_link/3: ~p", [recv_exit(P2)]),
    P3 = spawn_link(?MODULE, child, [ret]),
    out(Main, "spawn_link/3 normal: ~p", [recv_exit(P3)]),
    P4 = spawn_opt(fun() -> exit(opt_link) end, [link]),
    out(Main, "spawn_opt [link] returns a pid: ~p", [is_pid(P4)]),
    out(Main, "spawn_opt [link]: ~p", [recv_exit(P4)]),
    P5 = spawn_opt(?MODULE, child, [{exit, opt_link3}], [link]),
    out(Main, "spawn_opt/4 [link]: ~p", [recv_exit(P5)]),
    {P6, R6} = spawn_opt(fun() -> exit(both) end, [link, monitor]),
    E6 = recv_exit(P6),
    D6 = receive {'DOWN', R6, process, P6, W6} -> W6 end,
    out(Main, "spawn_opt [link, monitor]: exit ~p, down ~p", [E6, D6]),
    %% The child is linked: its links list contains the spawner.
    Me = self(),
    P7 = spawn_link(fun() ->
                            {links, L} = process_info(self(), links),
                            Me ! {links, L =:= [Me]},
                            receive stop -> ok end
                    end),
    receive {links, B} -> out(Main, "child linked to spawner: ~p", [B]) end,
    {links, MyLinks} = process_info(self(), links),
    out(Main, "spawner linked to child: ~p", [MyLinks =:= [P7]]),
    P7 ! stop,
    out(Main, "stopped child: ~p", [recv_exit(P7)]),
    %% spawn_monitor does not link.
    {P8, R8} = spawn_monitor(fun() -> exit(not_linked) end),
    receive {'DOWN', R8, process, P8, _} -> ok end,
    Got = receive {'EXIT', P8, _} -> yes after 50 -> no end,
    out(Main, "spawn_monitor sends an EXIT: ~p", [Got]),
    Main ! {self(), done}.

recv_exit(P) -> receive {'EXIT', P, Why} -> Why after 1000 -> timeout end.

out(Main, Fmt, Args) -> Main ! {self(), line, lists:flatten(io_lib:format(Fmt, Args))}.

collect(T) ->
    receive
        {T, line, L} -> [L | collect(T)];
        {T, done} -> []
    end.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
