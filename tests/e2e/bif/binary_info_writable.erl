%% erts_debug:get_internal_state({binary_info, B}) of writable binaries (appends), through
%% collections: OTP keeps a few idle ones writable, as the GC leaves them.
-module(binary_info_writable).
-export([main/0]).
main() ->
    erts_debug:set_internal_state(available_internal_state, true),
    erlang:garbage_collect(),  % nothing left over from the warning it logs
    B0 = id(<<0>>),
    B1 = <<B0/binary, 1, 2, 3>>,
    I = fun(B) -> erts_debug:get_internal_state({binary_info, B}) end,
    io:format("~p~n", [[I(B0), I(B1)]]),
    B2 = big(B1, 300),
    io:format("~p~n", [I(B2)]),
    erlang:garbage_collect(),
    io:format("~p~n", [I(B2)]),
    erlang:garbage_collect(),
    io:format("~p~n", [I(B2)]),
    B3 = <<B2/binary, 1>>,
    io:format("~p ~p~n", [I(B2), I(B3)]).
big(B, 0) -> B;
big(B, N) -> big(<<B/binary, N:16>>, N - 1).
id(X) -> X.
