%% A tid printed and read back names its table again: list_to_ref/1 of ref_to_list/1, and
%% the same through erl_scan/erl_eval (how qlc:string_to_handle reads a printed handle).
-module(ets_tid_from_text).
-export([main/0]).

main() ->
    T = ets:new(t, [set]),
    true = ets:insert(T, {k, v}),
    T2 = list_to_ref(ref_to_list(T)),
    io:format("~p ~p ~p~n", [T2 =:= T, ets:info(T2, type), ets:lookup(T2, k)]),
    {ok, Tokens, _} = erl_scan:string(lists:flatten(io_lib:format("ets:lookup(~p, k).", [T])), 1, [text]),
    {ok, [Expr]} = erl_eval:extended_parse_exprs(Tokens),
    {value, V, _} = erl_eval:expr(Expr, []),
    io:format("~p~n", [V]),
    true = ets:delete(T),
    R = make_ref(),
    io:format("~p~n", [list_to_ref(ref_to_list(R)) =:= R]).
