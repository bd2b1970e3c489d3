-module(ts_trap_exit_self_receive).
-export([main/0]).

%% Port of trace_SUITE:trap_exit_self_receive. Proc (spawn_link'ed model process) is traced
%% with ['receive'] (tracer = main). {trap_exit_please, true} is traced as received. Then
%% {exit_signal_please, R1} makes Proc call exit(self(), R1) while trapping exits: the exit
%% signal it sent to itself becomes a message, traced as {'receive', {'EXIT', Proc, R1}}
%% after the receive of {exit_signal_please, R1}; Proc forwards {Proc, {'EXIT', Proc, R1}} to
%% main. After unlink, {exit_please, R2} makes Proc exit(R2): only the receive of that
%% message is traced (no procs flag, so no exit event). Reasons are refs (printed `ref`).

main() ->
    process_flag(trap_exit, true),
    Parent = self(),
    Proc = spawn_link(fun() -> process(Parent) end),
    Names = [{Parent, main}, {Proc, proc}],
    io:format("trace: ~p~n", [erlang:trace(Proc, true, ['receive'])]),
    Proc ! {trap_exit_please, true},
    Reason1 = make_ref(),
    Proc ! {exit_signal_please, Reason1},
    receive {Proc, {'EXIT', Proc, R1}} -> io:format("forwarded 'EXIT' with R1: ~p~n", [R1 =:= Reason1]) end,
    show("trap_exit, exit(self(), R1)", Proc, Names),
    unlink(Proc),
    Mon = erlang:monitor(process, Proc),
    Reason2 = make_ref(),
    Proc ! {exit_please, Reason2},
    receive {'DOWN', Mon, process, Proc, R2} -> io:format("proc died with R2: ~p~n", [R2 =:= Reason2]) end,
    show("exit(R2)", Proc, Names),
    Left = receive M -> norm(M, Names) after 100 -> nothing end,
    io:format("left in queue: ~p~n", [Left]),
    ok.

process(Dest) ->
    receive
        {exit_please, Reason} -> exit(Reason);
        {exit_signal_please, Reason} -> exit(self(), Reason), process(Dest);
        {trap_exit_please, State} -> process_flag(trap_exit, State), process(Dest);
        Other -> Dest ! {self(), Other}, process(Dest)
    end.

show(Label, P, Names) ->
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end,
    io:format("~s:~n", [Label]),
    [io:format("  ~p~n", [norm(E, Names)]) || E <- take(P)],
    ok.

take(P) ->
    receive
        M when element(1, M) =:= trace, element(2, M) =:= P -> [M | take(P)]
    after 0 -> []
    end.

norm(P, Names) when is_pid(P) ->
    case lists:keyfind(P, 1, Names) of {P, N} -> N; false -> other_pid end;
norm(R, _) when is_reference(R) -> ref;
norm(T, Names) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T), Names));
norm([H | T], Names) -> [norm(H, Names) | norm(T, Names)];
norm(X, _) -> X.
