-module(msg_terms).
-export([main/0]).

%% Every kind of term survives a trip to another process and back unchanged (=:=): bignums,
%% floats, binaries (small, large, sub-binaries, bitstrings), maps (small and large), funs with
%% captured variables, refs, pids, deep lists and tuples. A message outlives its sender.
main() ->
    Self = self(),
    Big = <<0:8000>>,
    <<_:3/binary, Sub:10/binary, _/binary>> = list_to_binary(lists:seq(1, 100)),
    K = 7,
    Terms = [atom, 42, -1, 1 bsl 100, -(1 bsl 70), 3.25, -0.5, "string", [], {}, [1 | 2],
             <<"small">>, Big, Sub, <<1:3>>, #{a => 1, "b" => [2]},
             maps:from_list([{N, N * N} || N <- lists:seq(1, 100)]),
             fun(X) -> X + K end, fun lists:reverse/1, make_ref(), Self,
             lists:seq(1, 1000), {deep, [{nested, [1, {2, [3, {4, <<"x">>}]}]}]},
             list_to_tuple(lists:seq(1, 300))],
    Echo = spawn(fun echo/0),
    Back = [begin Echo ! {Self, T}, receive {echoed, R} -> R end end || T <- Terms],
    io:format("all equal after round trip: ~p (~p terms)~n", [Back =:= Terms, length(Terms)]),
    io:format("mismatches: ~p~n", [[I || {I, A, B} <- lists:zip3(lists:seq(1, length(Terms)), Terms, Back), A =/= B]]),
    F = lists:nth(18, Back),
    io:format("received closure works: ~p~n", [F(35)]),
    io:format("received pid is self: ~p~n", [lists:nth(21, Back) =:= Self]),
    io:format("big binary size: ~p, sub-binary: ~w~n", [byte_size(lists:nth(13, Back)), lists:nth(14, Back)]),
    io:format("large map size: ~p, key 77: ~p~n", [map_size(lists:nth(17, Back)), maps:get(77, lists:nth(17, Back))]),
    %% The echo process applies a received fun and sends the result.
    Echo ! {apply, Self, fun() -> lists:sum(lists:seq(1, K * 10)) end},
    io:format("fun run in other process: ~p~n", [receive {applied, V} -> V end]),
    Echo ! stop,
    wait_dead(Echo),
    %% The sender builds a large message and dies before the receiver looks at it.
    {S, Ref} = spawn_monitor(fun() ->
                                     Data = [{N, integer_to_list(N), <<N:32>>} || N <- lists:seq(1, 5000)],
                                     Self ! {data, Data}
                             end),
    receive {'DOWN', Ref, process, S, normal} -> ok end,
    garbage(),
    Data = receive {data, D} -> D end,
    garbage(),
    io:format("message from dead sender: ~p items, last ~p~n", [length(Data), lists:last(Data)]),
    io:format("checksum: ~p~n", [lists:sum([N + length(L) + byte_size(B) || {N, L, B} <- Data])]),
    ok.

echo() ->
    receive
        {apply, From, F} -> From ! {applied, F()}, echo();
        {From, T} -> From ! {echoed, T}, echo();
        stop -> ok
    end.

%% Allocate enough to trigger garbage collections.
garbage() ->
    length(lists:foldl(fun(N, Acc) -> [{N, [N]} | Acc] end, [], lists:seq(1, 50000))).

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
