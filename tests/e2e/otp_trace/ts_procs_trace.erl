-module(ts_procs_trace).
-export([main/0, process/1]).

%% Port of trace_SUITE:procs_trace. Proc1 (spawn_link'ed by main, which traps exits) is traced
%% with [procs, set_on_first_spawn] (tracer = main); Proc2 is spawned untraced.
%% 1. Proc1 spawn_links Proc3 = ts_procs_trace:process(Main): Proc1 gets {spawn, Proc3, MFA}
%%    then {link, Proc3}; Proc3 inherits procs (first spawn) and gets {spawned, Proc1, MFA}
%%    then {getting_linked, Proc1}. Proc1 loses set_on_first_spawn, Proc3 has only procs.
%% 2. Proc1 traps exits and tells Proc3 to exit(R3): Proc3 gets {exit, R3}, Proc1 gets
%%    {getting_unlinked, Proc3} (the partner died, Proc1 survived).
%% 3/4. Proc1 links/unlinks Proc2: link / unlink events; Proc2 links/unlinks Proc1:
%%    getting_linked / getting_unlinked on Proc1.
%% 5. main registers/unregisters Proc1: the register/unregister events go to Proc1.
%% 6. A second spawn_link is not inherited (Proc4 untraced, only spawn+link on Proc1); Proc1
%%    registers itself; Proc4 exits R4, which kills Proc1: {exit, R4} THEN {unregister, Name}.
%% 7. Proc2 traced [procs] and told to exit(R2): {exit, R2}.
%% Events are collected per tracee after erlang:trace_delivered/1 (reasons are refs: `ref`).

main() ->
    Self = self(),
    Name = ts_procs_trace_name,
    process_flag(trap_exit, true),
    Proc1 = spawn_link(?MODULE, process, [Self]),
    Proc2 = spawn(?MODULE, process, [Self]),
    put(names, [{Self, main}, {Proc1, proc1}, {Proc2, proc2}]),
    io:format("trace proc1: ~p~n", [erlang:trace(Proc1, true, [procs, set_on_first_spawn])]),
    MFA = {?MODULE, process, [Self]},
    %% 1. spawn_link with set_on_first_spawn
    Proc1 ! {spawn_link_please, Self, MFA},
    Proc3 = receive {spawned, Proc1, P3} -> P3 end,
    name(Proc3, proc3),
    show("1 spawn_link", [Proc1, Proc3]),
    flags("proc1", Proc1),
    flags("proc3", Proc3),
    %% 2. getting_unlinked by exit()
    Proc1 ! {trap_exit_please, true},
    Reason3 = make_ref(),
    Proc1 ! {send_please, Proc3, {exit_please, Reason3}},
    receive {Proc1, {'EXIT', Proc3, Reason3}} -> ok end,
    show("2 proc3 exits, proc1 traps", [Proc1, Proc3]),
    Proc1 ! {trap_exit_please, false},
    sync(Proc1, Proc1),
    show("  trap_exit false", [Proc1]),
    %% 3. link / unlink by proc1
    Proc1 ! {link_please, Proc2},
    sync(Proc1, Proc1),
    show("3 proc1 links proc2", [Proc1]),
    Proc1 ! {unlink_please, Proc2},
    sync(Proc1, Proc1),
    show("  proc1 unlinks proc2", [Proc1]),
    %% 4. getting_linked / getting_unlinked (proc2 -> proc1 signals, then a message on the
    %%    same path, so proc1 has handled the signal when it forwards the message)
    Proc2 ! {link_please, Proc1},
    sync(Proc2, Proc1),
    show("4 proc2 links proc1", [Proc1]),
    Proc2 ! {unlink_please, Proc1},
    sync(Proc2, Proc1),
    show("  proc2 unlinks proc1", [Proc1]),
    %% 5. register / unregister by main
    io:format("5 register: ~p~n", [register(Name, Proc1)]),
    show("  events", [Proc1]),
    io:format("  unregister: ~p~n", [unregister(Name)]),
    show("  events", [Proc1]),
    %% 6. exit with registered name, due to link
    Reason4 = make_ref(),
    Proc1 ! {spawn_link_please, Self, MFA},
    Proc4 = receive {spawned, Proc1, P4} -> P4 end,
    name(Proc4, proc4),
    show("6 second spawn_link", [Proc1, Proc4]),
    Proc1 ! {register_please, Name, Proc1},
    sync(Proc1, Proc1),
    show("  proc1 registers itself", [Proc1]),
    Proc4 ! {exit_please, Reason4},
    R = receive {'EXIT', Proc1, R4} -> R4 =:= Reason4 end,
    io:format("  main got 'EXIT' from proc1 with reason R4: ~p~n", [R]),
    show("  proc4 exits R4, proc1 dies", [Proc1, Proc4]),
    io:format("  whereis name: ~p~n", [whereis(Name)]),
    %% 7. exit, not linked to the tracing process
    io:format("7 trace proc2: ~p~n", [erlang:trace(Proc2, true, [procs])]),
    Mon = erlang:monitor(process, Proc2),
    Reason2 = make_ref(),
    Proc2 ! {exit_please, Reason2},
    receive {'DOWN', Mon, process, Proc2, Reason2} -> ok end,
    show("  proc2 exits R2", [Proc2]),
    Left = receive M -> norm(M) after 100 -> nothing end,
    io:format("left in queue: ~p~n", [Left]),
    ok.

%% Model process (as in the suite, without its 3 s inactivity timeout).
process(Dest) ->
    receive
        {send_please, To, What} -> To ! What, process(Dest);
        {spawn_link_please, ReplyTo, {M, F, A}} ->
            Pid = spawn_link(M, F, A),
            ReplyTo ! {spawned, self(), Pid},
            process(Dest);
        {link_please, Pid} -> link(Pid), process(Dest);
        {unlink_please, Pid} -> unlink(Pid), process(Dest);
        {register_please, Name, Pid} -> register(Name, Pid), process(Dest);
        {exit_please, Reason} -> exit(Reason);
        {trap_exit_please, State} -> process_flag(trap_exit, State), process(Dest);
        Other -> Dest ! {self(), Other}, process(Dest)
    end.

%% Via forwards a sync token to Target, which echoes it to main ({Target, Token}).
sync(Via, Target) ->
    Tok = {sync, make_ref()},
    if Via =:= Target -> Target ! Tok; true -> Via ! {send_please, Target, Tok} end,
    receive {Target, Tok} -> ok end.

show(Label, Ps) ->
    io:format("~s:~n", [Label]),
    [io:format("  ~p: ~p~n", [norm(P), norm(events(P))]) || P <- Ps],
    ok.

flags(Label, P) ->
    {flags, F} = erlang:trace_info(P, flags),
    io:format("  ~s flags: ~p~n", [Label, lists:sort(F)]).

events(P) ->
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end,
    take(P).

take(P) ->
    receive
        M when element(1, M) =:= trace, element(2, M) =:= P -> [M | take(P)]
    after 0 -> []
    end.

name(P, N) -> put(names, [{P, N} | get(names)]).

norm(P) when is_pid(P) ->
    case lists:keyfind(P, 1, get(names)) of {P, N} -> N; false -> other_pid end;
norm(R) when is_reference(R) -> ref;
norm(T) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T)));
norm([H | T]) -> [norm(H) | norm(T)];
norm(X) -> X.
