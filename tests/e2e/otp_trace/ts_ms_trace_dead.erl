-module(ts_ms_trace_dead).
-export([main/0, f1/1, f2/2]).

%% Port of match_spec_SUITE:ms_trace_dead: a dead tracer set through a match-spec action is
%% dropped. Tracer (spawn_monitor'ed) and MetaTracer (spawn_link'ed) forward everything they
%% get to main. Meta pattern on f1/'_' (MetaTracer) with body [{message, false},
%% {trace, [], [call, {const, {tracer, Tracer}}]}]: no meta message, but the call turns on
%% `call` for the caller (main) with Tracer as tracer. f2/'_' has a global pattern [].
%% f2(1,2) while untraced: nothing. f1(1): main gets {flags,[call]}, {tracer,Tracer}.
%% f2(2,3): Tracer forwards {trace, Main, call, {M, f2, [2,3]}}. Tracer is killed (exit stop,
%% wait for 'DOWN'); f1(2) runs the action again with the DEAD tracer: main ends up with
%% {tracer, []} (and {flags, []}); f2(3,4) produces nothing. trace_delivered(all) replies
%% {trace_delivered, all, Ref}; then no stray message (the suite waits 10 ms, here 100 ms).

main() ->
    process_flag(trap_exit, true),
    Self = self(),
    TFun = fun F() -> receive M -> Self ! M, F() end end,
    {Tracer, MRef} = spawn_monitor(TFun),
    MetaTracer = spawn_link(TFun),
    Names = [{Self, main}, {Tracer, tracer}, {MetaTracer, meta_tracer}],
    P1 = erlang:trace_pattern({?MODULE, f1, '_'},
                              [{'_', [], [{message, false},
                                          {trace, [], [call, {const, {tracer, Tracer}}]}]}],
                              [{meta, MetaTracer}]),
    P2 = erlang:trace_pattern({?MODULE, f2, '_'}, []),
    ?MODULE:f2(1, 2),
    I0 = info(),
    ?MODULE:f1(1),
    I1 = info(),
    ?MODULE:f2(2, 3),
    Got = receive {trace, Self, call, {?MODULE, f2, _}} = T -> T after 1000 -> timeout end,
    exit(Tracer, stop),
    Down = receive {'DOWN', MRef, _, _, R} -> R end,
    ?MODULE:f1(2),
    I2 = info(),
    ?MODULE:f2(3, 4),
    TRef = erlang:trace_delivered(all),
    Del = receive {trace_delivered, W, TRef} -> {trace_delivered, W, ref} end,
    Left = receive M -> M after 100 -> nothing end,
    erlang:trace(Self, false, [all]),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [meta]),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [global]),
    io:format("f1 meta pattern: ~p, f2 global pattern: ~p~n", [P1, P2]),
    io:format("before f1(1): ~p~n", [norm(I0, Names)]),
    io:format("after f1(1): ~p~n", [norm(I1, Names)]),
    io:format("f2(2,3) forwarded by tracer: ~p~n", [norm(Got, Names)]),
    io:format("tracer 'DOWN': ~p~n", [Down]),
    io:format("after f1(2) with the dead tracer: ~p~n", [norm(I2, Names)]),
    io:format("trace_delivered(all): ~p~n", [Del]),
    io:format("left in queue: ~p~n", [norm(Left, Names)]),
    ok.

info() -> {erlang:trace_info(self(), flags), erlang:trace_info(self(), tracer)}.

f1(X) -> {X}.
f2(X, Y) -> {X, Y}.

norm(P, Names) when is_pid(P) ->
    case lists:keyfind(P, 1, Names) of {P, N} -> N; false -> other_pid end;
norm(R, _) when is_reference(R) -> ref;
norm(T, Names) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T), Names));
norm([H | T], Names) -> [norm(H, Names) | norm(T, Names)];
norm(X, _) -> X.
