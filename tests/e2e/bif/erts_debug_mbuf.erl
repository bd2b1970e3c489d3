%% tests/e2e/bif/erts_debug_mbuf.erl — erts_debug:set_internal_state(mbuf, Term): a copy of
%% Term in a heap fragment of the caller, which BIFs and the collector then meet (ets_SUITE's
%% select_mbuf_trapping selects from a table with one in place).
-module(erts_debug_mbuf).
-export([main/0]).

main() ->
    erts_debug:set_internal_state(available_internal_state, true),
    Terms = ["Frag me up", {a, <<1:300>>, [1.5 | 2]}, 42, lists:seq(1, 1000), #{k => <<"v">>}],
    Copies = [erts_debug:set_internal_state(mbuf, T) || T <- Terms],
    io:format("copies equal: ~p~n", [Copies =:= Terms]),
    T = ets:new(t, [ordered_set]),
    [ets:insert(T, {K, value}) || K <- lists:seq(1, 50)],
    io:format("select: ~p~n", [length(ets:select(T, [{{'$1', value}, [], ['$1']}]))]),
    true = erlang:garbage_collect(),
    io:format("after a collection: ~p~n", [Copies =:= Terms]),
    erts_debug:set_internal_state(available_internal_state, false).
