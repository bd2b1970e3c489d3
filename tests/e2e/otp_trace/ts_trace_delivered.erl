-module(ts_trace_delivered).
-export([main/0]).

%% Port of trace_SUITE:trace_delivered (the exact-count check). A process Tok traced with
%% [procs] (tracer = main) runs 10000 laps of link(Main), register(Name, self()),
%% unregister(Name), unlink(Main) and then exits normally. Main counts every {trace, Tok, ...}
%% message until Tok's 'DOWN', then calls erlang:trace_delivered(Tok) and keeps counting
%% until {trace_delivered, Tok, Ref}. Exactly 4*10000+1 = 40001 trace messages must have
%% arrived by then (link, register, unregister, unlink per lap, then {exit, normal}), and
%% nothing else may arrive afterwards (the suite waits 1000 ms, here 200 ms). Also printed:
%% the count per tag, that the per-lap sequence is exactly link/register/unregister/unlink
%% with main and the name as arguments (per-tracee order), and that exit is the last event.
%% How many traces arrived before the 'DOWN' is scheduling-dependent and is not printed.

-define(LAPS, 10000).
-define(NAME, 'A really stupid name which I will unregister at once').

main() ->
    Parent = self(),
    Go = make_ref(),
    Tok = spawn(fun() -> receive Go -> gone end, tok_loop(Parent, 0, ?LAPS) end),
    io:format("trace tok [procs]: ~p~n", [erlang:trace(Tok, true, [procs])]),
    Mon = erlang:monitor(process, Tok),
    io:format("expected total: ~p~n", [4 * ?LAPS + 1]),
    Tok ! Go,
    {Total, Seq, Other} = drop_until_down(Tok, Mon),
    io:format("total trace messages: ~p~n", [Total]),
    Tags = [element(3, M) || M <- Seq],
    [io:format("  ~p: ~p~n", [Tag, length([x || T <- Tags, T =:= Tag])])
     || Tag <- [link, register, unregister, unlink, exit]],
    io:format("per-lap order ok: ~p~n", [check_laps(Seq, Tok, Parent, 0)]),
    io:format("other messages while counting: ~p~n", [Other]),
    Late = receive M -> {unexpected, norm(M, Tok, Parent)} after 200 -> nothing end,
    io:format("after trace_delivered reply: ~p~n", [Late]),
    ok.

tok_loop(_, N, N) -> ok;
tok_loop(Parent, N, M) ->
    link(Parent),
    register(?NAME, self()),
    unregister(?NAME),
    unlink(Parent),
    tok_loop(Parent, N + 1, M).

%% Counts trace messages from Tok; keeps them (reversed at the end) to check their order.
drop_until_down(Tok, Mon) -> drop_until_down(Tok, Mon, none, 0, [], []).

drop_until_down(Tok, Mon, TDRef, N, Acc, Other) ->
    receive
        {trace_delivered, Tok, TDRef} ->
            {N, lists:reverse(Acc), lists:reverse(Other)};
        {'DOWN', Mon, process, Tok, Reason} ->
            Ref = erlang:trace_delivered(Tok),
            drop_until_down(Tok, Mon, Ref, N, Acc, [{'DOWN', Reason} | Other]);
        T when is_tuple(T), element(1, T) =:= trace, element(2, T) =:= Tok ->
            drop_until_down(Tok, Mon, TDRef, N + 1, [T | Acc], Other);
        M ->
            drop_until_down(Tok, Mon, TDRef, N, Acc, [norm(M, Tok, self()) | Other])
    end.

check_laps([{trace, Tok, exit, normal}], Tok, _, ?LAPS) -> true;
check_laps([{trace, Tok, link, P}, {trace, Tok, register, ?NAME},
            {trace, Tok, unregister, ?NAME}, {trace, Tok, unlink, P} | Rest], Tok, P, N) ->
    check_laps(Rest, Tok, P, N + 1);
check_laps(Rest, Tok, P, N) ->
    {false, {lap, N}, norm(lists:sublist(Rest, 4), Tok, P)}.

norm(P, Tok, Main) when is_pid(P) ->
    if P =:= Tok -> tok; P =:= Main -> main; true -> other_pid end;
norm(R, _, _) when is_reference(R) -> ref;
norm(T, Tok, Main) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T), Tok, Main));
norm([H | T], Tok, Main) -> [norm(H, Tok, Main) | norm(T, Tok, Main)];
norm(X, _, _) -> X.
