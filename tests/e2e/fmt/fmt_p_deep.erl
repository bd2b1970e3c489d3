-module(fmt_p_deep).
-export([main/0]).

%% Deeply nested terms under ~p: nested tuples, lists and mixes that force many line breaks.
main() ->
    io:format("~p~n", [nest_tuple(15)]),
    io:format("~p~n", [nest_list(20)]),
    io:format("~p~n", [tree(4)]),
    io:format("~p~n", [{a, [b, {c, [d, {e, [f, {g, [h, {i, [j, {k, lists:seq(1, 30)}]}]}]}]}]}]),
    io:format("~p~n", [{{{{{{{{{{deep_tuple_value_that_is_fairly_long, another_long_atom_value}}}}}}}}}}]),
    io:format("~p~n", [[{error, {badmatch, {some, structure, [with, many, atoms, inside, it]}}, [{module, function, 3, [{file, "src/module.erl"}, {line, 123}]}]}]]),
    ok.

nest_tuple(0) -> leaf;
nest_tuple(N) -> {level, N, nest_tuple(N - 1)}.

nest_list(0) -> [];
nest_list(N) -> [N, nest_list(N - 1)].

tree(0) -> nil;
tree(N) -> {node, N, tree(N - 1), tree(N - 1)}.
