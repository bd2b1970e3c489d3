-module(ts_link_receive_call_correlation).
-export([main/0, receive_msg/1]).

%% Port of trace_SUITE:link_receive_call_correlation. Receiver (spawn_link'ed through
%% erlang:apply, loop: `stop` -> exit, M -> receive_msg(M)) is traced with
%% ['receive', procs, call, timestamp, scheduler_id] and a local pattern on receive_msg/1
%% (returns 1). Main traps exits and, for N = 100 down to 1, calls link(Receiver) if N is even
%% or unlink(Receiver) if N is odd, then sends N. Then `stop`, wait for 'DOWN' and for
%% trace_delivered. Checked as in the suite's check_consistent (results printed, not the raw
%% messages): every message is trace_ts with the scheduler id (an integer) BEFORE the
%% {Mega,Sec,Micro} timestamp; the 'receive' of N comes before the call receive_msg(N);
%% receives and calls come in order 100..1; between two receives there is exactly one
%% getting_linked (before an even N) or getting_unlinked (before an odd N), except before 100:
%% the first link(Receiver) finds the spawn_link link, so no event (49 getting_linked + 50
%% getting_unlinked: link/unlink signals and messages from main are handled in send order).
%% The remaining events are the receive of `stop` and {exit, normal}. Timestamps strictly
%% increase.

-define(NUM, 100).

main() ->
    Receiver = spawn_link(erlang, apply, [fun loop/0, []]),
    process_flag(trap_exit, true),
    io:format("trace: ~p~n",
              [erlang:trace(Receiver, true, ['receive', procs, call, timestamp, scheduler_id])]),
    io:format("pattern: ~p~n", [erlang:trace_pattern({?MODULE, receive_msg, '_'}, [], [local])]),
    send_all(Receiver, ?NUM),
    Receiver ! stop,
    MonRef = erlang:monitor(process, Receiver),
    receive {'DOWN', MonRef, _, _, _} -> ok end,
    Ref = erlang:trace_delivered(Receiver),
    receive {trace_delivered, _, Ref} -> ok end,
    Msgs = take(Receiver),
    Other = receive M -> M after 0 -> none end,
    io:format("non-trace message in queue: ~p~n", [Other]),
    io:format("number of trace messages: ~p~n", [length(Msgs)]),
    io:format("all trace_ts with integer scheduler id and now-timestamp: ~p~n",
              [lists:all(fun shape_ok/1, Msgs)]),
    Evs = [strip(M) || M <- Msgs],
    io:format("timestamps strictly increasing: ~p~n", [increasing([element(tuple_size(M), M) || M <- Msgs])]),
    Recv = [N || {'receive', N} <- Evs, is_integer(N)],
    Calls = [N || {call, {?MODULE, receive_msg, [N]}} <- Evs],
    io:format("receives in order 100..1: ~p~n", [Recv =:= lists:seq(?NUM, 1, -1)]),
    io:format("calls in order 100..1: ~p~n", [Calls =:= lists:seq(?NUM, 1, -1)]),
    io:format("receive before call for every N: ~p~n", [recv_before_call(Evs, ?NUM)]),
    io:format("getting_linked: ~p, getting_unlinked: ~p~n",
              [length([x || {getting_linked, _} <- Evs]), length([x || {getting_unlinked, _} <- Evs])]),
    io:format("link events match parity: ~p~n", [parity(Evs, none, ?NUM)]),
    io:format("other events: ~p~n", [[E || E <- Evs, not known(E)]]),
    io:format("check_consistent: ~p~n", [check(Evs, ?NUM, ?NUM, ?NUM, false)]),
    ok.

loop() ->
    receive
        stop -> ok;
        M -> receive_msg(M), loop()
    end.

receive_msg(M) -> M.

send_all(_, 0) -> ok;
send_all(R, N) ->
    if N rem 2 == 0 -> link(R); true -> unlink(R) end,
    R ! N,
    send_all(R, N - 1).

take(P) ->
    receive
        M when element(1, M) =:= trace_ts, element(2, M) =:= P -> [M | take(P)]
    after 0 -> []
    end.

shape_ok(M) ->
    tuple_size(M) >= 5 andalso
        is_integer(element(tuple_size(M) - 1, M)) andalso
        is_now(element(tuple_size(M), M)).

is_now({A, B, C}) -> is_integer(A) andalso is_integer(B) andalso is_integer(C);
is_now(_) -> false.

increasing([A, B | T]) -> A < B andalso increasing([B | T]);
increasing(_) -> true.

%% {trace_ts, P, Tag, Data, SchedId, Ts} -> {Tag, Data}
strip(M) -> {element(3, M), element(4, M)}.

recv_before_call(Evs, Num) ->
    Idx = lists:zip(lists:seq(1, length(Evs)), Evs),
    Pos = fun(E) -> case [I || {I, X} <- Idx, X =:= E] of [I] -> I; L -> {count, length(L)} end end,
    Bad = [N || N <- lists:seq(Num, 1, -1),
                not (Pos({'receive', N}) < Pos({call, {?MODULE, receive_msg, [N]}}))],
    Bad =:= [] orelse {false, Bad}.

%% Link events seen since the previous integer receive; checked at each receive of N.
parity([{L, _} | T], Seen, N) when L =:= getting_linked; L =:= getting_unlinked ->
    case Seen of none -> parity(T, L, N); _ -> {false, {two_events_before, N}} end;
parity([{'receive', N} | T], Seen, N) when is_integer(N) ->
    Want = if N =:= ?NUM -> none; N rem 2 =:= 0 -> getting_linked; true -> getting_unlinked end,
    if Seen =:= Want -> parity(T, none, N - 1); true -> {false, {N, Seen}} end;
parity([_ | T], Seen, N) -> parity(T, Seen, N);
parity([], none, 0) -> true;
parity([], Seen, N) -> {false, {'end', N, Seen}}.

known({'receive', N}) when is_integer(N) -> true;
known({call, {?MODULE, receive_msg, [_]}}) -> true;
known({getting_linked, _}) -> true;
known({getting_unlinked, _}) -> true;
known(_) -> false.

%% The suite's state machine in short: Recv/Call count down, LU counts link events, and a
%% call for N may only come after the receive of N. Ends with Recv = Call = 0, LU = 1.
check([{'receive', N} | T], N, Call, LU, _) -> check(T, N - 1, Call, LU, true);
check([{call, {?MODULE, receive_msg, [Call]}} | T], Recv, Call, LU, R) when Recv < Call ->
    check(T, Recv, Call - 1, LU, R);
check([{L, _} | T], Recv, Call, LU, true) when L =:= getting_linked; L =:= getting_unlinked ->
    check(T, Recv, Call, LU - 1, true);
check([{'receive', stop} | T], Recv, Call, LU, R) -> check(T, Recv, Call, LU, R);
check([{exit, normal} | T], Recv, Call, LU, R) -> check(T, Recv, Call, LU, R);
check([], 0, 0, 1, true) -> ok;
check([], Recv, Call, LU, _) -> {error, {Recv, Call, LU}};
check([E | _], Recv, Call, LU, _) -> {error, {Recv, Call, LU, E}}.
