%% receive ... after T: T must be infinity or an integer 0..2^32-1 (milliseconds); anything else
%% raises timeout_value, as erts (after_SUITE:receive_after_errors).
-module(receive_after_limits).
-export([main/0]).
main() ->
    [io:format("~p: ~p~n", [T, try_after(T)]) || T <- [-1, 0.0, 16#ffffffff, 16#100000000, 392347129847294724972398472984729847129874, 16#3fffffffffffffff, xxx, 0]],
    ok.
try_after(16#ffffffff) -> self() ! m, receive m -> received after 16#ffffffff -> ok end;
try_after(T) -> try receive after T -> ok end catch error:R -> R end.
