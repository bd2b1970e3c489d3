-module(ts_timeout_trace).
-export([main/0]).

%% Port of trace_SUITE:timeout_trace. A model process (spawn_link'ed; on timeout_please it
%% does `receive after 1 -> ... end`) is traced with ['receive'] (tracer = main). Sending
%% timeout_please gives {trace, P, 'receive', timeout_please} and then, when the `after 1`
%% expires, {trace, P, 'receive', timeout}; nothing else. A receive with `after 0` and an
%% empty queue also gives a timeout event (checked with after_zero_please). `after infinity`
%% never expires, so it gives nothing.

main() ->
    process_flag(trap_exit, true),
    Main = self(),
    P = spawn_link(erlang, apply, [fun process/0, []]),
    Names = [{Main, main}, {P, process}],
    io:format("trace: ~p~n", [erlang:trace(P, true, ['receive'])]),
    P ! timeout_please,
    wait_timeout(P),
    show("timeout_please", P, Names),
    P ! after_zero_please,
    wait_timeout(P),
    show("after_zero_please", P, Names),
    P ! {send_please, Main, synced},
    receive synced -> ok end,
    show("send_please (process back in its infinite receive)", P, Names),
    Left = receive M -> norm(M, Names) after 100 -> nothing end,
    io:format("left in queue: ~p~n", [Left]),
    ok.

process() ->
    receive
        {send_please, To, What} -> To ! What, process();
        timeout_please -> receive after 1 -> process() end;
        after_zero_please -> receive never -> ok after 0 -> process() end;
        _Other -> process()
    end.

%% The timeout event is the last one of the step; wait for it (1 s at most), then put it back.
wait_timeout(P) ->
    receive {trace, P, 'receive', timeout} = T -> self() ! T after 1000 -> ok end.

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
