%% erl_eval evaluating receive expressions (through prim_eval:'receive'/2): a selective
%% receive that skips messages, guards, bindings taken from the message, after clauses,
%% a message arriving while the evaluator waits, and a large message kept across a collection.
-module(std_erl_eval_receive).
-export([main/0]).

eval(String, Bindings) ->
    {ok, T, _} = erl_scan:string(String),
    {ok, Es} = erl_parse:parse_exprs(T),
    {value, V, _} = erl_eval:exprs(Es, Bindings),
    V.

main() ->
    io:format("~p~n", [eval("receive after 0 -> timeout end.", [])]),
    self() ! {a, 1},
    self() ! {b, 2},
    self() ! {c, 3},
    io:format("~p~n", [eval("receive {b, X} -> {got, X} end.", [])]),
    io:format("~p~n", [eval("receive {T, X} when X > 2 -> {T, X} after 10 -> none end.", [])]),
    io:format("~p~n", [eval("receive {Tag, _} = M when Tag =:= W -> M end.", [{'W', a}])]),
    io:format("~p~n", [eval("receive M -> M after 20 -> empty end.", [])]),
    Self = self(),
    spawn(fun() -> timer:sleep(20), Self ! {late, lists:seq(1, 5)} end),
    io:format("~p~n", [eval("receive {late, L} -> lists:sum(L) after 2000 -> too_late end.", [])]),
    spawn(fun() -> timer:sleep(10), Self ! {big, lists:seq(1, 50000)} end),
    io:format("~p~n", [eval("receive {big, L} -> {length(L), lists:sum([X * 2 || X <- L])} end.", [])]),
    self() ! first,
    self() ! second,
    io:format("~p~n", [eval("A = receive second -> 2 end, B = receive first -> 1 end, {A, B}.", [])]),
    io:format("~p~n", [eval("receive nothing -> x after T -> {waited, T} end.", [{'T', 5}])]),
    io:format("~p~n", [try eval("receive nothing -> x after bad -> y end.", []) catch C:R -> {C, R} end]),
    ok.
