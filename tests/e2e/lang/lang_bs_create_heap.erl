-module(lang_bs_create_heap).
-export([main/0]).

%% A binary built and consed in one step: the compiler folds the cons cell's heap into
%% bs_create_bin's allocation (no test_heap of its own), which the VM must honour at every
%% heap boundary, whatever the sizes.
cons_bins(0, Acc) -> Acc;
cons_bins(N, Acc) -> cons_bins(N - 1, [<<(N band 255):8, "xy">> | Acc]).

cons_tails(<<>>, Acc) -> Acc;
cons_tails(<<C:8, Rest/binary>>, Acc) -> cons_tails(Rest, [<<C:8, Rest/binary>> | Acc]).

main() ->
    L = cons_bins(200000, []),
    io:format("~p ~p ~p~n", [length(L), hd(L), lists:last(L)]),
    Sizes = [byte_size(B) || B <- cons_tails(list_to_binary(lists:duplicate(3000, $a)), [])],
    io:format("~p ~p~n", [length(Sizes), lists:sum(Sizes)]),
    Deep = lists:foldl(fun(I, Acc) -> [<<I:16, (term_to_binary(I))/binary>> | Acc] end, [], lists:seq(1, 50000)),
    io:format("~p ~p~n", [length(Deep), erlang:phash2(Deep)]).
