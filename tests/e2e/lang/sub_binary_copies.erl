%% A sub-binary copied into a message or an ETS table becomes a binary of its own, as erts's
%% copy_struct makes it: a heap binary when it came from one, a reference to the same
%% reference-counted buffer otherwise, a sub-binary on top only for odd bits. The sizes
%% (erts_debug:flat_size/1, ets:info(T, memory)) are erts's, and the bits are unchanged.
-module(sub_binary_copies).
-export([main/0]).

main() ->
    Small = list_to_binary(lists:seq(1, 40)),
    Big = list_to_binary([X rem 256 || X <- lists:seq(1, 300)]),
    %% {Name, Term, how many reference-counted binaries its copy holds}: their size in words
    %% differs between VMs (beamlet's is a word smaller), so sizes are shown without them.
    Cases = [{small_whole, Small, 0},
             {small_sub, part(Small, 3, 20), 0},
             {small_bits, bits(Small, 5, 77), 0},
             {small_tail_bits, bits(Small, 16, 13), 0},
             {big_whole, Big, 1},
             {big_sub, part(Big, 10, 100), 1},
             {big_small_sub, part(Big, 1, 8), 0},
             {big_small_match, match(Big, 2, 30), 0},
             {big_64_sub, part(Big, 1, 64), 0},
             {big_65_sub, part(Big, 1, 65), 1},
             {big_bits, bits(Big, 3, 1001), 1},
             {big_bits_two_extra, bits(Big, 7, 802), 1},
             {appended, appended(), 1},
             {empty_sub, part(Big, 5, 0), 0},
             {split, split_binary(Big, 100), 2},
             {in_tuple, {part(Small, 1, 2), part(Big, 0, 70), [bits(Big, 1, 9)]}, 2}],
    Refc = erts_debug:flat_size(Big),
    [check(Name, T, Refcs * Refc) || {Name, T, Refcs} <- Cases],
    Tab = ets:new(t, [set]),
    Copies = ets:new(t, [set]),
    [ets:insert(Tab, {Name, T}) || {Name, T, _} <- Cases],
    [ets:insert(Copies, {Name, copy(T)}) || {Name, T, _} <- Cases],
    io:format("ets memory as for copies: ~p~n", [ets:info(Tab, memory) =:= ets:info(Copies, memory)]),
    io:format("ets same: ~p~n", [lists:all(fun({Name, T, _}) -> ets:lookup(Tab, Name) =:= [{Name, T}] end, Cases)]),
    %% The writer goes on appending after a copy of its binary went out.
    W0 = appended(),
    self() ! W0,
    W1 = <<W0/binary, "more">>,
    receive W0Copy -> io:format("writer: ~p ~p~n", [W0Copy =:= W0, byte_size(W1) - byte_size(W0Copy)]) end.

check(Name, T, RefcWords) ->
    Copy = copy(T),
    io:format("~p: ~p ~p ~p~n",
              [Name, erts_debug:flat_size(T) - RefcWords, erts_debug:flat_size(Copy) - RefcWords, Copy =:= T]).

copy(T) ->
    self() ! {T},
    receive {Copy} -> Copy end.

match(B, Skip, Len) ->
    <<_:Skip/binary, Part:Len/binary, _/binary>> = id(B),
    Part.

part(B, At, Len) -> binary:part(id(B), At, Len).

bits(B, Skip, Len) ->
    <<_:Skip, Bits:Len/bitstring, _/bitstring>> = id(B),
    Bits.

appended() ->
    lists:foldl(fun(I, Acc) -> <<Acc/binary, I:8>> end, id(<<>>), lists:seq(1, 100)).

id(X) -> X.
