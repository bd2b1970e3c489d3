%% process_info's heap tuning items as OTP 25 reports them: garbage_collection,
%% garbage_collection_info (its keys), min_heap_size, min_bin_vheap_size, fullsweep_after,
%% parent; process_flag/2 of the tuning flags returns the old value and changes the new
%% (process_SUITE:process_flag_fullsweep_after, process_flag_heap_size, spawn_opt_heap_size).
-module(process_info_gc_items).
-export([main/0]).

main() ->
    Parent = self(),
    P = spawn_opt(fun() -> receive stop -> ok end end, [{min_heap_size, 987}, {min_bin_vheap_size, 46422}, {fullsweep_after, 20}]),
    io:format("~p~n", [process_info(P, [min_heap_size, min_bin_vheap_size, fullsweep_after])]),
    {parent, Parent} = process_info(P, parent),
    {garbage_collection, GC} = process_info(P, garbage_collection),
    io:format("~p~n", [[K || {K, _} <- GC]]),
    io:format("~p~n", [lists:keydelete(minor_gcs, 1, GC)]),
    {garbage_collection_info, Info} = process_info(P, garbage_collection_info),
    io:format("~p~n", [[K || {K, _} <- Info]]),
    true = lists:all(fun({_, V}) -> is_integer(V) andalso V >= 0 end, Info),
    P ! stop,
    Old = process_flag(fullsweep_after, 12345),
    io:format("~p ~p~n", [Old, process_info(self(), fullsweep_after)]),
    12345 = process_flag(fullsweep_after, Old),
    OldMin = process_flag(min_heap_size, 2586),
    io:format("~p ~p~n", [OldMin, process_info(self(), min_heap_size)]),
    2586 = process_flag(min_heap_size, OldMin),
    OldV = process_flag(min_bin_vheap_size, 318187),
    io:format("~p ~p~n", [OldV, process_info(self(), min_bin_vheap_size)]),
    318187 = process_flag(min_bin_vheap_size, OldV),
    io:format("~p~n", [[try process_flag(F, -1) catch error:R -> R end || F <- [fullsweep_after, min_heap_size, min_bin_vheap_size]]]),
    ok.
