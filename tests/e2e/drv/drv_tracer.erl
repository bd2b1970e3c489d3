%% A loaded driver's port as a tracer (as OTP's seq_trace_SUITE and trace_port_SUITE use their
%% echo_drv): trace messages and seq_trace messages reach the port as terms in the external
%% format, and the driver echoes them back; the port's own events are traced too.
-module(drv_tracer).
-export([main/0]).

main() ->
    ok = erl_ddll:load_driver(filename:dirname(code:which(?MODULE)), drv_echo),
    Port = open_port({spawn, drv_echo}, [eof, binary]),
    Me = self(),
    Pid = spawn(fun() -> receive go -> Me ! done end end),
    1 = erlang:trace(Pid, true, ['receive', send, {tracer, Port}]),
    Pid ! go,
    receive done -> ok end,
    io:format("process trace: ~p~n", [decoded(Port, 2, Pid, Me)]),
    seq_trace:set_system_tracer(Port),
    Echo = spawn(fun() -> receive {From, M} -> From ! {echoed, M} end end),
    seq_trace:set_token(label, 17),
    seq_trace:set_token('receive', true),
    seq_trace:set_token(send, true),
    Echo ! {self(), hello},
    receive {echoed, hello} -> ok end,
    seq_trace:reset_trace(),
    io:format("seq_trace: ~p~n", [decoded(Port, 4, Echo, Me)]),
    seq_trace:set_system_tracer(false),
    %% The tracee's events go to a port being traced itself.
    Watched = open_port({spawn, "drv_echo watched"}, []),
    erlang:trace(Watched, true, ['receive', send]),
    port_command(Watched, "x"),
    receive {Watched, {data, D}} -> io:format("watched: ~p~n", [D]) end,
    io:format("its events: ~p~n", [events(Watched)]),
    port_close(Watched),
    port_close(Port),
    ok.

decoded(Port, N, Pid, Me) when N > 0 ->
    receive
        {Port, {data, Bin}} -> [named(binary_to_term(Bin), Pid, Me) | decoded(Port, N - 1, Pid, Me)]
    after 2000 -> [timeout]
    end;
decoded(_, 0, _, _) -> [].

named(T, Pid, Me) when is_tuple(T) -> list_to_tuple([named(E, Pid, Me) || E <- tuple_to_list(T)]);
named(Pid, Pid, _) -> tracee;
named(Me, _, Me) -> main;
named(X, _, _) -> X.

events(P) ->
    receive {trace, P, Kind, What} -> [{Kind, strip(P, What)} | events(P)];
            {trace, P, Kind, What, _} -> [{Kind, strip(P, What)} | events(P)]
    after 200 -> []
    end.

strip(P, {From, X}) when From =:= self() -> {main, strip(P, X)};
strip(P, {P, X}) -> {port, X};
strip(_, X) -> X.
