-module(seq_chain).
-export([main/0]).

%% seq_trace events along a message chain through three processes (serials, From/To), a
%% label-only token (no events), print with and without a label match, a token cleared by an
%% untokened message, exit signals as 'EXIT' messages, timestamps' shapes, reset_trace.
%% Nothing prints while it holds a token (an io request would carry it).
collector(Acc) ->
    receive
        {dump, From} -> From ! {events, lists:reverse(Acc)}, collector([]);
        E -> collector([E | Acc])
    end.

events(Tracer) ->
    Tracer ! {dump, self()},
    receive {events, Es} -> Es end.

name(P, Names) -> proplists:get_value(P, Names, P).

show(Es, Names) ->
    [io:format("~p~n", [rename(E, Names)]) || E <- Es].

rename({seq_trace, L, {K, S, F, T, M}}, Names) -> {seq_trace, L, {K, S, name(F, Names), name(T, Names), msg(M, Names)}};
rename({seq_trace, L, {K, S, F, T, M}, Ts}, Names) -> {seq_trace, L, {K, S, name(F, Names), name(T, Names), M}, ts(Ts)};
rename(E, _) -> E.

msg({'EXIT', P, R}, Names) -> {'EXIT', name(P, Names), R};
msg(M, _) -> M.

ts({A, B, C}) when is_integer(A), is_integer(B), is_integer(C) -> now_ts;
ts({A, B}) when is_integer(A), is_integer(B) -> strict_ts;
ts(A) when is_integer(A) -> monotonic_ts.

relay(Next) ->
    receive
        stop -> ok;
        M -> Next ! {relayed, M}, relay(Next)
    end.

sink(Parent) ->
    receive
        stop -> ok;
        M -> seq_trace:set_token([]), Parent ! {sunk, M}, sink(Parent)
    end.

main() ->
    Tracer = spawn(fun() -> collector([]) end),
    false = seq_trace:set_system_tracer(Tracer),
    Self = self(),
    C = spawn(fun() -> sink(Self) end),
    B = spawn(fun() -> relay(C) end),
    Names = [{Self, main}, {B, b}, {C, c}, {Tracer, tracer}],
    %% 1. send + 'receive' along main -> b -> c
    seq_trace:set_token(label, 17),
    seq_trace:set_token(send, true),
    seq_trace:set_token('receive', true),
    B ! hello,
    seq_trace:set_token([]),
    receive {sunk, _} -> ok end,
    show(events(Tracer), Names),
    %% 2. a label-only token: no events at all
    seq_trace:set_token(label, quiet),
    B ! again,
    seq_trace:set_token([]),
    receive {sunk, _} -> ok end,
    io:format("label only: ~p~n", [events(Tracer)]),
    %% 3. print: with the print flag, with and without a matching label
    seq_trace:set_token(label, {lab, 1}),
    seq_trace:set_token(print, true),
    P1 = seq_trace:print(one),
    P2 = seq_trace:print({lab, 1}, two),
    P3 = seq_trace:print({lab, 2}, three),
    seq_trace:set_token([]),
    P4 = seq_trace:print(four),
    io:format("prints ~p~n", [[P1, P2, P3, P4]]),
    show(events(Tracer), Names),
    %% 4. a token cleared by a message without one
    Echo = spawn(fun() -> receive {From, M} -> From ! M end, receive {From2, M2} -> From2 ! {seq_trace:get_token(), M2} end end),
    seq_trace:set_token(label, 5),
    Echo ! {self(), first},
    receive first -> ok end,
    seq_trace:set_token([]),
    Echo ! {self(), second},
    receive {Tok, second} -> io:format("echo token after an untokened message: ~p~n", [Tok]) end,
    %% 5. exit signals become 'EXIT' messages with the token
    process_flag(trap_exit, true),
    L = spawn_link(fun() -> receive go -> exit(bye) end end),
    seq_trace:set_token(label, exits),
    seq_trace:set_token(send, true),
    seq_trace:set_token('receive', true),
    L ! go,
    receive {'EXIT', L, R} -> ok end,
    seq_trace:set_token([]),
    io:format("exit ~p~n", [R]),
    show(events(Tracer), Names ++ [{L, linked}]),
    %% 6. timestamps
    [begin
         seq_trace:set_token(label, Flag),
         seq_trace:set_token(print, true),
         seq_trace:set_token(Flag, true),
         seq_trace:print(Flag),
         seq_trace:set_token([])
     end || Flag <- [timestamp, monotonic_timestamp, strict_monotonic_timestamp]],
    show(events(Tracer), Names),
    %% 7. reset_trace clears every token
    Holder = spawn(fun() -> receive hold -> ok end, receive {From3, go} -> From3 ! {held, seq_trace:get_token()} end end),
    seq_trace:set_token(label, 9),
    Holder ! hold,
    seq_trace:reset_trace(),
    io:format("after reset: ~p~n", [seq_trace:get_token()]),
    Holder ! {self(), go},
    receive {held, HeldToken} -> io:format("holder after reset: ~p~n", [HeldToken]) end,
    B ! stop, C ! stop,
    io:format("system tracer ~p~n", [seq_trace:get_system_tracer() =:= Tracer]),
    ok.
