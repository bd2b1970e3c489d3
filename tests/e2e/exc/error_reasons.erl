-module(error_reasons).
-export([main/0]).

%% The standard error reasons produced by the runtime.
main() ->
    Tests = [{badarith_int, fun() -> 1 div id(0) end},
             {badarith_rem, fun() -> id(5) rem 0 end},
             {badarith_float, fun() -> 1.0 / id(0) end},
             {badarith_atom, fun() -> id(a) + 1 end},
             {badarith_bsl, fun() -> id(a) bsl 1 end},
             {badarg_element, fun() -> element(0, id({a})) end},
             {badarg_hd, fun() -> hd(id([])) end},
             {badarg_list_to_atom, fun() -> list_to_atom(id(notalist)) end},
             {badmatch, fun() -> {ok, _} = id({error, x}) end},
             {badmatch_list, fun() -> [_] = id([1, 2]) end},
             {function_clause, fun() -> only_ok(id(nope)) end},
             {case_clause, fun() -> case id(42) of 1 -> one end end},
             {case_clause_tuple, fun() -> case id({a, b}) of {b, _} -> x end end},
             {if_clause, fun() -> X = id(5), if X > 10 -> big end end},
             {undef, fun() -> (id(no_such_module)):f() end},
             {undef_fun, fun() -> error_reasons:no_such_fun(1) end},
             {badfun, fun() -> (id(not_a_fun))(1) end},
             {badfun_int, fun() -> (id(42))() end},
             {try_clause, fun() -> try id(3) of 1 -> one after ok end end},
             {badkey, fun() -> maps:get(missing, id(#{})) end},
             {badmap, fun() -> (id(not_map))#{a := 1} end},
             {badarg_element_empty, fun() -> element(1, id({})) end},
             {badarg_setelement, fun() -> setelement(3, id({a, b}), c) end},
             {badarg_atom_to_list, fun() -> atom_to_list(id("x")) end},
             {badarg_binary_part, fun() -> binary_part(id(<<"ab">>), 1, 5) end},
             {badarg_float_seg, fun() -> <<(id(abc)):64/float>> end},
             {badarg_int_seg, fun() -> <<(id(1.5)):8>> end},
             {badarg_bin_seg, fun() -> <<(id(<<1:3>>))/binary>> end},
             {tuple_size, fun() -> tuple_size(id([])) end},
             {bad_length, fun() -> length(id([1 | 2])) end},
             {bad_generator, fun() -> [X || X <- id(notlist)] end},
             {system_limit, fun() -> list_to_atom(lists:duplicate(300, $a)) end}],
    lists:foreach(fun({Name, F}) ->
        R = try F() of V -> {no_error, V} catch C:E -> {C, E} end,
        io:format("~p: ~p~n", [Name, R])
    end, Tests),
    io:format("badarity shape ~w~n", [try (id(fun(A) -> A end))(1, 2) catch error:{badarity, {Fn, Args}} -> {is_function(Fn), Args} end]),
    io:format("badfun shape ~w~n", [try (id({x}))() catch error:{badfun, T} -> T end]),
    ok.

only_ok(ok) -> ok.

id(X) -> X.
