-module(port_messages).
-export([main/0, log/2]).

%% Messages sent to a port with `!`: valid ones ({Owner, {command, D}}, {Owner, close},
%% {Owner, {connect, Pid}}) and invalid ones (garbage, a sender that is not the owner, bad
%% data). An invalid message makes the port send the exit signal badsig to its owner (not
%% to the sender); the port stays open. Sending to a closed port is silently ignored.
main() ->
    process_flag(trap_exit, true),
    ok = logger:add_handler(beamlet_capture, ?MODULE, #{config => #{to => self()}}),
    ok = logger:remove_handler(default),
    P = open_port({spawn, "cat"}, []),
    %% each bad message is followed by a good command; the owner's mailbox then shows
    %% what the bad message caused, in order, before the echoed data
    [show({bad_msg, norm(P, M)}, bad(P, M)) ||
        M <- [hello, 42, {}, [], {self()}, {self(), foo}, {self(), {command}},
              {self(), {command, "x"}, extra}, {self(), {connect, foo}},
              {self(), {connect, self(), extra}}, {foo, close}, {42, {command, "x"}},
              {self(), close, extra}, {{self()}, close}]],
    show(bad_data_msg, bad(P, {self(), {command, foo}})),
    show(bad_data_msg_log, logs(1)),
    show(bad_data_msg_list, bad(P, {self(), {command, [1 | 2]}})),
    show(bad_data_msg_list_log, logs(1)),
    show(port_still_open, is_list(erlang:port_info(P))),
    P ! {self(), {command, <<"bin">>}},
    show(good_msg_binary, recv_data(P, 3)),
    P ! {self(), {command, [<<"io">>, "li", [$s, [$t]]]}},
    show(good_msg_iolist, recv_data(P, 6)),

    %% a process that is not the owner
    Parent = self(),
    %% Msg runs in another process; Other returns once it has run (so that what the port
    %% does about it comes before anything the test does next).
    Other = fun(Msg) ->
        Pid = spawn(fun() ->
            process_flag(trap_exit, true),
            R = Msg(self()),
            Parent ! {sent, self()},
            receive X -> Parent ! {other_got, norm(P, X)} after 200 -> Parent ! {other_got, nothing} end,
            R
        end),
        receive {sent, Pid} -> Pid end
    end,
    Other(fun(Me) -> P ! {Me, {command, "from other"}} end),
    port_command(P, "sync"),
    show(non_owner_command, norm(P, [recv(), recv(), recv()])),
    Other(fun(Me) -> P ! {Me, close} end),
    port_command(P, "sync"),
    show(non_owner_close, norm(P, [recv(), recv(), recv()])),
    show(still_open_after_non_owner_close, is_list(erlang:port_info(P))),
    %% a non-owner sending in the owner's name is obeyed: the reply goes to the owner
    Other(fun(_) -> P ! {Parent, {command, "in owner's name"}} end),
    show(non_owner_as_owner_command, norm(P, [recv(), recv()])),

    %% close twice; commands after close
    P ! {self(), close},
    P ! {self(), close},
    P ! {self(), {command, "after close"}},
    P ! garbage_after_close,
    show(close_twice, norm(P, [recv(), recv()])),
    show(close_twice_nothing_else, norm(P, flush())),
    show(send_to_closed_returns, norm(P, P ! {self(), close})),

    %% a non-owner closing in the owner's name: the owner gets {Port, closed}
    P2 = open_port({spawn, "cat"}, []),
    Other(fun(_) -> P2 ! {Parent, close} end),
    show(non_owner_closes_as_owner, norm(P2, [recv(), recv(), recv()])),
    %% {connect, Pid} sent by a non-owner in the owner's name: {Port, connected} goes to
    %% the old owner
    P3 = open_port({spawn, "cat"}, []),
    Other(fun(Me) -> P3 ! {Parent, {connect, Me}}, ok end),
    show(non_owner_connects_as_owner, norm(P3, [recv(), recv()])),
    port_close(P3),
    show(p3_closed, norm(P3, recv())),

    %% a non-trapping owner dies from badsig, and takes its (linked) port with it
    {Pid, Ref} = spawn_monitor(fun() ->
        Q = open_port({spawn, "cat"}, []),
        Parent ! {port, Q},
        receive go -> Q ! not_a_command end,
        receive never -> ok end
    end),
    Q = receive {port, Port} -> Port end,
    QM = erlang:monitor(port, Q),
    Pid ! go,
    show(untrapped_owner, receive {'DOWN', Ref, process, Pid, Why} -> Why after 3000 -> timeout end),
    show(untrapped_owner_port, receive {'DOWN', QM, port, Q, Why2} -> Why2 after 3000 -> timeout end),
    show(nothing_else, flush()),
    timer:sleep(100),
    show(no_more_logs, logs_received()),
    ok = logger:remove_handler(beamlet_capture),
    ok.

%% Sends Msg to the port, then a good command, and returns all messages up to the echo.
bad(P, Msg) ->
    P ! Msg,
    port_command(P, "sync"),
    norm(P, until_sync(P)).

until_sync(P) ->
    receive
        {P, {data, "sync"}} = M -> [M];
        M when element(1, M) =/= '$log' -> [M | until_sync(P)]
    after 3000 -> [timeout]
    end.

%% N bytes of data from P, however they are split into messages.
recv_data(_P, N) when N =< 0 -> [];
recv_data(P, N) ->
    receive {P, {data, D}} -> D ++ recv_data(P, N - length(D)) after 3000 -> timeout end.

log(#{level := Level, msg := {F, A}}, #{config := #{to := Pid}}) ->
    Pid ! {'$log', Level, lists:flatten(io_lib:format(F, A))};
log(#{level := Level, msg := Msg}, #{config := #{to := Pid}}) ->
    Pid ! {'$log', Level, Msg}.

logs(0) -> [];
logs(N) ->
    receive {'$log', Level, Text} -> [{Level, Text} | logs(N - 1)] after 2000 -> [no_log] end.

logs_received() ->
    receive {'$log', Level, Text} -> [{Level, Text} | logs_received()] after 0 -> [] end.

recv() -> receive {'$log', _, _} = L -> {unexpected_log, L}; X -> X after 3000 -> timeout end.

flush() -> receive M -> [M | flush()] after 20 -> [] end.

show(Name, Value) -> io:format("~p ~p~n", [Name, Value]).

norm(P, [H | T]) -> [norm(P, H) | norm(P, T)];
norm(P, T) when is_tuple(T) -> list_to_tuple([norm(P, X) || X <- tuple_to_list(T)]);
norm(P, P) -> port;
norm(_, S) when S =:= self() -> self;
norm(_, X) when is_pid(X) -> pid;
norm(_, X) when is_port(X) -> other_port;
norm(_, X) when is_reference(X) -> ref;
norm(_, X) -> X.
