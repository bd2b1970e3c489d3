-module(ts_self_send).
-export([main/0]).

%% Port of trace_SUITE:self_send. A process (spawn_link(erlang, apply, [Fun, [Fun, Main]]))
%% traced with ['receive', send] (tracer = main) gets go_ahead, sends from_myself to itself,
%% receives it and sends done to main. Both the send to itself and the receive of that
%% message are traced: {'receive', go_ahead}, {send, from_myself, Self}, {'receive',
%% from_myself}, {send, done, Main}, in this order (one tracee). The suite takes each with a
%% selective receive; here all events are printed after trace_delivered, plus the flags.
%% Main traps exits, so it then gets {'EXIT', P, normal}.

main() ->
    Fun = fun(Self, Parent) ->
                  receive
                      go_ahead -> self() ! from_myself, Self(Self, Parent);
                      from_myself -> Parent ! done
                  end
          end,
    process_flag(trap_exit, true),
    Main = self(),
    P = spawn_link(erlang, apply, [Fun, [Fun, Main]]),
    Names = [{Main, main}, {P, self_sender}],
    io:format("trace: ~p~n", [erlang:trace(P, true, ['receive', send])]),
    {flags, Fl} = erlang:trace_info(P, flags),
    io:format("flags: ~p~n", [lists:sort(Fl)]),
    P ! go_ahead,
    receive done -> io:format("got done~n") end,
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end,
    [io:format("  ~p~n", [norm(E, Names)]) || E <- take(P)],
    receive {'EXIT', P, Why} -> io:format("'EXIT' from self_sender: ~p~n", [Why]) end,
    Left = receive M -> norm(M, Names) after 100 -> nothing end,
    io:format("left in queue: ~p~n", [Left]),
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
