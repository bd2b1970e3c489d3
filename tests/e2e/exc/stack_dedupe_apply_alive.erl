%% Stack traces skip a return address equal to the one before it (one frame per distinct call
%% site of a body recursion), keep the applying function for apply's own badarg and through
%% nested applies of error/2 (OTP's bif_SUITE:error_stacktrace, fixed_apply_badarg); and
%% is_process_alive/1 answers after the caller's earlier signals (bif_SUITE:is_process_alive).
-module(stack_dedupe_apply_alive).
-export([main/0, id/1]).
id(X) -> X.
stk([_ | L], F) -> stk(L, F), id(ok);
stk([], F) -> put(erlang, erlang), tail(F, jump), id(ok).
tail(F, jump) -> tail(F, do);
tail(F, do) -> do_error(F).
do_error(apply_last) -> erlang:apply(id(erlang), id(error), id([oops, [apply_last]]));
do_error(multi_apply_last) ->
    erlang:apply(id(erlang), id(apply), [id(erlang), id(apply), [id(erlang), id(error), id([oops, [multi]])]]);
do_error(multi_apply) ->
    erlang:apply(id(erlang), id(apply), [id(erlang), id(apply), [id(erlang), id(error), id([oops, [m]])]]), ok;
do_error(call_last) -> erlang:error(oops, [call_last]);
do_error(error_1) -> erlang:error(oops).
frames(S) -> [{M, F, A} || {M, F, A, _} <- S].
run(Fun) ->
    Parent = self(),
    Pid = spawn(fun() -> try Fun() catch error:R:S -> Parent ! {self(), {R, S}} end end),
    receive {Pid, Reason} -> Reason end.
main() ->
    [begin
         {oops, S} = run(fun() -> stk([a, b, c, d], T) end),
         io:format("~p: ~p~n", [T, frames(S)])
     end || T <- [apply_last, multi_apply_last, multi_apply, call_last, error_1]],
    Bad = id({}),
    [begin
         {badarg, S} = run(F),
         io:format("~p~n", [frames(S)])
     end || F <- [fun() -> Bad:baz(a, b) end, fun() -> baz:Bad(c, d) end, fun() -> apply(Bad, baz, id([e, f])) end]],
    P = spawn(fun Loop() -> Loop() end),
    Q = spawn(fun() -> receive after infinity -> ok end end),
    receive after 50 -> ok end,
    R1 = [erlang:is_process_alive(X) || X <- [P, Q]],
    exit(P, kill),
    exit(Q, kill),
    R2 = [erlang:is_process_alive(X) || X <- [P, Q]],
    io:format("~p ~p~n", [R1, R2]),
    ok.
