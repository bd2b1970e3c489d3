%% Appending nothing to a binary gives the binary itself (erts_debug:same/2), writable or
%% not; copying a large binary into a new one costs reductions (about one a kilobyte), so a
%% loop of large constructions gives other processes their turn.
-module(bs_append_empty_reductions).
-export([main/0]).

main() ->
    NonWritable = <<"123">>,
    io:format("~p~n", [erts_debug:same(NonWritable, append(NonWritable, <<>>))]),
    Writable = <<(id(<<>>))/binary, 0, 1, 2, 3, 4, 5, 6, 7>>,
    io:format("~p~n", [erts_debug:same(Writable, append(Writable, <<>>))]),
    io:format("~p~n", [append(Writable, <<8>>)]),
    TwoMeg = <<0:(2000 * 1024)/unit:8>>,
    io:format("~p~n", [reds(fun() -> <<0:8, TwoMeg/binary>> end) >= 2000]),
    io:format("~p~n", [reds(fun() -> <<0:8, TwoMeg/binary, TwoMeg/binary>> end) >= 4000]),
    io:format("~p~n", [reds(fun() -> <<0:8, TwoMeg:(1000 * 1024)/binary>> end) >= 1000]),
    io:format("~p~n", [reds(fun() -> <<1, 2, 3>> end) < 100]).

append(A, B) -> <<A/binary, B/binary>>.

reds(F) ->
    receive after 1 -> ok end,
    {reductions, R0} = process_info(self(), reductions),
    _ = F(),
    {reductions, R1} = process_info(self(), reductions),
    R1 - R0.

id(X) -> X.
