-module(ev_send_receive_both).
-export([main/0]).
-import(e2e_trace, [collector/0, events/2, stop_wait/2, norm/2]).

%% send and 'receive' tracing together, on two processes (ping and pong) exchanging messages,
%% both traced with [send, 'receive'] to one collector. Per tracee the events come in program
%% order: ping reports receive {start,...}, then send/receive pairs, then the send of {done,..}
%% to main; pong reports receive {ping,...} followed by send {pong,...}. The messages ping
%% sends are exactly the ones pong receives, in the same order (and the other way round).
%% Events of different tracees are not ordered relative to each other, so they are grouped.
%% With `timestamp` added, the same events come as trace_ts tuples with a {Mega, Sec, Micro}
%% timestamp as the last element (6 elements for send, 5 for 'receive').

main() ->
    T = collector(),
    Main = self(),
    run_round("plain", T, Main, [send, 'receive'], 3),
    run_round("with timestamp", T, Main, [send, 'receive', timestamp], 2),
    stop_wait(T, stop),
    ok.

run_round(Label, T, Main, Flags, N) ->
    Pong = spawn(fun pong/0),
    Ping = spawn(fun ping/0),
    Names = [{T, tracer}, {Main, main}, {Ping, ping}, {Pong, pong}],
    io:format("== ~s~n", [Label]),
    io:format("trace ping: ~p~n", [erlang:trace(Ping, true, [{tracer, T} | Flags])]),
    io:format("trace pong: ~p~n", [erlang:trace(Pong, true, [{tracer, T} | Flags])]),
    io:format("flags: ~p ~p~n", [lists:sort(flags(Ping)), lists:sort(flags(Pong))]),
    Ping ! {start, Pong, N, Main},
    receive {done, Ping} -> ok end,
    Evs = events(T, [Ping, Pong]),
    PingEvs = [E || E <- Evs, element(2, E) =:= Ping],
    PongEvs = [E || E <- Evs, element(2, E) =:= Pong],
    io:format("all events are from ping or pong: ~p~n", [length(Evs) =:= length(PingEvs) + length(PongEvs)]),
    io:format("ping events:~n"),
    [io:format("  ~p~n", [shape(E, Names)]) || E <- PingEvs],
    io:format("pong events:~n"),
    [io:format("  ~p~n", [shape(E, Names)]) || E <- PongEvs],
    io:format("ping's sends to pong = pong's receives: ~p~n",
              [sent(PingEvs, Pong) =:= received(PongEvs)]),
    io:format("pong's sends to ping = ping's receives from pong: ~p~n",
              [sent(PongEvs, Ping) =:= [M || M <- received(PingEvs), element(1, M) =:= pong]]),
    io:format("timestamps non-decreasing per tracee: ~p ~p~n",
              [non_decreasing(stamps(PingEvs)), non_decreasing(stamps(PongEvs))]),
    io:format("trace off: ~p ~p~n", [erlang:trace(Ping, false, [all]), erlang:trace(Pong, false, [all])]),
    stop_wait(Ping, stop),
    stop_wait(Pong, stop),
    io:format("after stop: ~p~n", [events(T, [Ping, Pong])]).

ping() ->
    receive
        {start, Pong, N, Main} -> ping(Pong, 1, N), Main ! {done, self()}, ping();
        stop -> ok
    end.

ping(_Pong, I, N) when I > N -> ok;
ping(Pong, I, N) ->
    Pong ! {ping, self(), I},
    receive {pong, I} -> ping(Pong, I + 1, N) end.

pong() ->
    receive
        {ping, From, I} -> From ! {pong, I}, pong();
        stop -> ok
    end.

sent(Evs, To) -> [msg(E) || E <- Evs, element(3, E) =:= send, element(5, E) =:= To].
received(Evs) -> [msg(E) || E <- Evs, element(3, E) =:= 'receive'].
msg(E) -> element(4, E).

stamps(Evs) -> [element(tuple_size(E), E) || E <- Evs, element(1, E) =:= trace_ts].

non_decreasing([A, B | Rest]) -> A =< B andalso non_decreasing([B | Rest]);
non_decreasing(_) -> true.

%% Pids by name, and for trace_ts the timestamp by its shape.
shape(E, Names) when element(1, E) =:= trace_ts ->
    Ts = element(tuple_size(E), E),
    Base = norm(erlang:delete_element(tuple_size(E), E), Names),
    erlang:append_element(Base, ts_shape(Ts));
shape(E, Names) -> norm(E, Names).

ts_shape({A, B, C}) when is_integer(A), is_integer(B), is_integer(C), A >= 0, B >= 0, C >= 0 -> {ts_now, 3};
ts_shape(Other) -> {unexpected, Other}.

flags(P) -> {flags, F} = erlang:trace_info(P, flags), F.
