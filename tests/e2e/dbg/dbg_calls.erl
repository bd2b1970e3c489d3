%% tests/e2e/dbg/dbg_calls.erl — OTP's dbg, unmodified, as its users start it: dbg:tracer/0,
%% dbg:p/2 on all processes for calls, tp/tpl with a fun2ms match spec (the parse transform at
%% compile time), return_trace, ctp/ctpl, and dbg:stop/0. The trace lines are dbg's own text.
-module(dbg_calls).
-export([main/0, double/1, fact/1]).
-include_lib("stdlib/include/ms_transform.hrl").

double(X) -> X * 2.

fact(0) -> 1;
fact(N) -> N * fact(N - 1).

main() ->
    {ok, _} = dbg:tracer(),
    {ok, [{matched, nonode@nohost, _}]} = dbg:p(all, c),
    {ok, [{matched, nonode@nohost, 1}, {saved, 1}]} =
        dbg:tpl(dbg_calls, double, dbg:fun2ms(fun([X]) when X > 1 -> return_trace() end)),
    _ = double(1),
    _ = double(21),
    {ok, _} = dbg:tpl(dbg_calls, fact, x),
    _ = fact(3),
    {ok, [{matched, nonode@nohost, 1}]} = dbg:ctpl(dbg_calls, fact),
    _ = fact(2),
    %% a global pattern on a library function (lists is loaded at boot, as on erl)
    io:format("tp lists:seq/2: ~p~n", [dbg:tp(lists, seq, 2, [])]),
    _ = lists:seq(1, 3),
    dbg:ctp(),
    _ = lists:seq(1, 3),
    timer:sleep(100),
    dbg:stop(),
    io:format("done~n").
