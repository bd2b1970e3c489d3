%% erts_debug:get_internal_state({atom, Index}): the atom at an index of the atom table; past
%% the table's end, erts fills it with atoms named am<index in hex> (map_SUITE's
%% t_hashmap_balance takes 10000 atoms this way).
-module(erts_debug_atom_index).
-export([main/0]).

main() ->
    erts_debug:set_internal_state(available_internal_state, true),
    Count = erlang:system_info(atom_count),
    Far = Count + 3000,
    Atom = erts_debug:get_internal_state({atom, Far}),
    io:format("~p~n", [atom_to_list(Atom) =:= "am" ++ string:lowercase(integer_to_list(Far, 16))]),
    io:format("~p~n", [erlang:system_info(atom_count) > Far]),
    io:format("~p~n", [Atom =:= erts_debug:get_internal_state({atom, Far})]),
    Atoms = [erts_debug:get_internal_state({atom, I}) || I <- lists:seq(0, Far)],
    io:format("~p~n", [length(lists:usort(Atoms)) =:= Far + 1]),
    io:format("~p~n", [lists:member(true, Atoms) andalso lists:member(main, Atoms)]),
    [io:format("~p~n", [reason(catch erts_debug:get_internal_state({atom, Bad}))]) || Bad <- [-1, a, 1.0]],
    erts_debug:set_internal_state(available_internal_state, false).

reason({'EXIT', {Reason, _}}) -> Reason.
