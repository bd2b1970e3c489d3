%% erlang:system_info(snifs) and erlang:is_builtin/3 list erts's BIFs only: the socket NIF's
%% prim_socket:nif_* functions and prim_file's *_nif functions are NIFs on erts, even where
%% beamlet implements them natively (bif_SUITE:specs checks each snif for a spec).
-module(snifs_nifs_apart).
-export([main/0]).

main() ->
    Snifs = erlang:system_info(snifs),
    io:format("~p~n", [[MFA || {M, _, _} = MFA <- Snifs, M =:= prim_socket]]),
    io:format("~p~n", [[MFA || {prim_file, F, _} = MFA <- Snifs, lists:suffix("_nif", atom_to_list(F))]]),
    io:format("~p~n", [[erlang:is_builtin(M, F, A)
                        || {M, F, A} <- [{prim_socket, nif_info, 0}, {prim_socket, nif_open, 2},
                                         {prim_file, get_cwd_nif, 0}, {erlang, self, 0},
                                         {lists, reverse, 2}, {ets, lookup, 2}]]]).
