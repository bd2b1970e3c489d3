%% tests/pending/erl_eval_receive.erl — erl_eval evaluating a receive (needs prim_eval:'receive'/2,
%% a selective receive driven by a fun, which OTP hand-writes in BEAM assembly).
-module(erl_eval_receive).
-export([main/0]).

main() ->
    {ok, T, _} = erl_scan:string("receive after 0 -> timeout end."),
    {ok, [E]} = erl_parse:parse_exprs(T),
    io:format("~p~n", [erl_eval:expr(E, [])]).
