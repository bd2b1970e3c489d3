%% <<Acc/binary, ...>> in a loop: appends write in place into a writable binary (as OTP's
%% bs_append), and every older version of the accumulator keeps its bits.
-module(binary_append).
-export([main/0]).

main() ->
    %% A megabyte in 32-byte appends: linear, not quadratic.
    Big = build(<<>>, 32768),
    io:format("big: ~p ~p~n", [byte_size(Big), erlang:md5(Big)]),
    %% Older versions stay what they were after the accumulator grows past them.
    B0 = <<0>>,
    B1 = <<B0/binary, 1, 2, 3>>,
    B2 = <<B1/binary, 4, 5, 6>>,
    B3 = <<B2/binary, 7, 8, 9>>,
    B4 = <<B1/binary, 17>>,
    B5 = <<B2/binary, 99>>,
    io:format("~w~n", [[B0, B1, B2, B3, B4, B5]]),
    %% Bitstrings: appends at odd bit offsets.
    Bits = lists:foldl(fun(I, Acc) -> <<Acc/bitstring, I:3>> end, <<>>, lists:seq(0, 7)),
    Bits2 = <<Bits/bitstring, 1:1>>,
    Bits3 = <<Bits/bitstring, 0:5>>,
    io:format("~w ~w ~w~n", [Bits, Bits2, Bits3]),
    %% A writable binary sent to another process: both sides go on appending.
    Self = self(),
    Shared = build(<<"shared:">>, 10),
    Pid = spawn(fun() -> receive B -> Self ! {self(), build(B, 5)} end end),
    Pid ! Shared,
    Mine = build(Shared, 3),
    Theirs = receive {Pid, T} -> T end,
    io:format("~p~n~p~n~p~n", [Shared, Mine, Theirs]),
    %% Through a garbage collection: a binary left alone is shrunk, and appends go on.
    G1 = build(<<"gc:">>, 4),
    erlang:garbage_collect(),
    erlang:garbage_collect(),
    G2 = build(G1, 2),
    G3 = <<G1/binary, "!">>,
    io:format("~p ~p ~p~n", [G1, G2, G3]),
    %% Matching the accumulator while it grows.
    <<First:8, Rest/binary>> = B3,
    R2 = <<Rest/binary, 42>>,
    io:format("~p ~w ~w ~w~n", [First, Rest, R2, B3]),
    %% Appending to a binary stored in ETS and to a literal.
    Tab = ets:new(t, []),
    ets:insert(Tab, {k, Shared}),
    [{k, FromEts}] = ets:lookup(Tab, k),
    io:format("~p~n", [build(FromEts, 2)]),
    io:format("~p~n", [build(<<"literal">>, 2)]),
    %% Errors as in OTP.
    io:format("~p~n", [try <<(id(<<1:1>>))/binary, 1>> catch error:E1 -> E1 end]),
    io:format("~p~n", [try <<(id(atom))/binary, 1>> catch error:E2 -> E2 end]),
    ok.

build(Acc, 0) -> Acc;
build(Acc, N) ->
    Chunk = list_to_binary(io_lib:format("~31..0B|", [N])),
    build(<<Acc/binary, Chunk/binary>>, N - 1).

id(X) -> X.
