%% tests/e2e/ets/ets_rename_errors.erl — ets:rename/2 as erl answers it: a name taken, the
%% table's own included, is badarg; a table that is not one is badarg with erts's cause (id,
%% type); a public table of another process may be renamed; an unnamed table is renamed
%% without its name being checked. Also erts_debug's colliding_names, the names ets_SUITE's
%% meta_wb creates, renames and deletes tables with.
-module(ets_rename_errors).
-export([main/0]).

main() ->
    ets:new(a, [named_table]),
    ets:new(b, [named_table]),
    U = ets:new(u, []),
    Me = self(),
    P = spawn(fun() -> ets:new(o, [named_table, public]), Me ! made, receive _ -> ok end end),
    receive made -> ok end,
    R = fun(F) ->
                try F() of
                    V when is_reference(V) -> tid;
                    V -> V
                catch error:badarg:S -> [{_, _, _, I} | _] = S, {badarg, proplists:get_value(error_info, I)}
                end
        end,
    [io:format("~p~n", [R(F)]) || F <- [fun() -> ets:rename(a, a) end, fun() -> ets:rename(a, b) end,
                                        fun() -> ets:rename(c, d) end, fun() -> ets:rename(a, "x") end,
                                        fun() -> ets:rename(1, x) end, fun() -> ets:rename(o, x) end,
                                        fun() -> ets:rename(U, b) end, fun() -> ets:rename(U, u2) end]],
    exit(P, kill),
    erts_debug:set_internal_state(available_internal_state, true),
    Names = erts_debug:set_internal_state(colliding_names, {pioneer, 5}),
    io:format("colliding names: ~p atoms, distinct ~p, without pioneer ~p~n",
              [length([N || N <- Names, is_atom(N)]), length(lists:usort(Names)) =:= 5, not lists:member(pioneer, Names)]),
    All = [pioneer | Names],
    [ets:new(N, [named_table]) || N <- All],
    Renamed = [list_to_atom(atom_to_list(N) ++ "_x") || N <- All],
    [N2 = ets:rename(N1, N2) || {N1, N2} <- lists:zip(All, Renamed)],
    io:format("renamed: ~p~n", [[ets:info(N, size) || N <- Renamed]]),
    erts_debug:set_internal_state(available_internal_state, false).
