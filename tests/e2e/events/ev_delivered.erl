-module(ev_delivered).
-export([main/0]).
-import(e2e_trace, [collector/0, stop_wait/2]).

%% erlang:trace_delivered/1 (OTP 25). It returns a fresh reference at once; later
%% {trace_delivered, Tracee, Ref} arrives, where Tracee is the argument as given: a pid (also an
%% untraced one, the caller itself, or a pid that is already dead - no badarg) or the atom all.
%% Arguments that are neither a pid nor `all` (atoms such as foo or new, tuples, integers, [],
%% refs) are badarg. The guarantee: once the reply has arrived, every trace message generated
%% by the tracee before the call has been delivered to its tracer, even when the tracer is
%% another process. A worker that sent 100 traced messages: its collector tracer then holds
%% exactly 100 send events for them (plus one for the worker's reply), in order.

main() ->
    P = spawn(fun idle/0),
    Names = [{P, p}, {self(), main}],
    show("live untraced", P, Names),
    show("self", self(), Names),
    show("all", all, Names),
    D = spawn(fun() -> ok end),
    stop_wait(D, none),
    show("dead pid", D, [{D, dead} | Names]),
    [io:format("badarg ~s: ~p~n", [L, t(fun() -> erlang:trace_delivered(A) end)])
     || {L, A} <- [{"foo", foo}, {"new", new}, {"tuple", {a, b}}, {"integer", 1}, {"nil", []},
                   {"ref", make_ref()}]],
    io:format("no stray messages: ~p~n", [flush()]),
    %% The guarantee.
    Sink = spawn(fun sink/0),
    C = collector(),
    W = spawn(fun worker/0),
    io:format("trace worker: ~p~n", [erlang:trace(W, true, [send, {tracer, C}])]),
    W ! {go, Sink, 1, 100, self()},
    receive {done, W} -> ok end,
    Ref = erlang:trace_delivered(W),
    receive {trace_delivered, W, Ref} -> ok end,
    report("after trace_delivered(worker)", C, W),
    W ! {go, Sink, 101, 200, self()},
    receive {done, W} -> ok end,
    Ref2 = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref2} -> ok end,
    report("after trace_delivered(all)", C, W),
    io:format("trace off: ~p~n", [erlang:trace(W, false, [send])]),
    W ! {go, Sink, 201, 210, self()},
    receive {done, W} -> ok end,
    Ref3 = erlang:trace_delivered(W),
    receive {trace_delivered, W, Ref3} -> ok end,
    report("after trace off", C, W),
    Sink ! {count, self()},
    receive {count, Sink, K} -> io:format("sink got ~p~n", [K]) end,
    [stop_wait(X, stop) || X <- [W, C, Sink, P]],
    ok.

show(Label, Arg, Names) ->
    Ref = erlang:trace_delivered(Arg),
    io:format("~s: returns ref ~p~n", [Label, is_reference(Ref)]),
    receive
        {trace_delivered, Who, Ref} -> io:format("  got {trace_delivered, ~p, ref}~n", [name(Who, Names)])
    after 2000 -> io:format("  nothing~n")
    end.

report(Label, C, W) ->
    C ! {give, self()},
    Msgs = receive {msgs, C, M} -> M end,
    Ns = [N || {trace, Who, send, {n, N}, _} <- Msgs, Who =:= W],
    Others = [shape(M1) || M1 <- Msgs, not is_numbered(M1)],
    io:format("~s: ~p numbered sends, in order ~p, first ~p, last ~p, other events ~p~n",
              [Label, length(Ns), Ns =:= lists:sort(Ns), first(Ns), last(Ns), Others]).

is_numbered({trace, _, send, {n, _}, _}) -> true;
is_numbered(_) -> false.

first([]) -> none;
first([X | _]) -> X.
last([]) -> none;
last(L) -> lists:last(L).

shape({trace, _, send, {done, _}, _}) -> send_done;
shape(X) when is_tuple(X) -> {other, element(1, X), element(3, X)};
shape(_) -> other.

worker() ->
    receive
        {go, To, From, Last, Main} ->
            [To ! {n, I} || I <- lists:seq(From, Last)],
            Main ! {done, self()},
            worker();
        stop -> ok
    end.

sink() -> sink(0).
sink(N) ->
    receive
        {count, From} -> From ! {count, self(), N}, sink(N);
        stop -> ok;
        {n, _} -> sink(N + 1)
    end.

name(P, Names) ->
    case lists:keyfind(P, 1, Names) of
        {P, N} -> N;
        false -> P
    end.

t(F) -> try F() of V -> V catch C:R -> {C, R} end.

flush() -> receive M -> [M | flush()] after 0 -> [] end.

idle() -> receive stop -> ok end.
