-module(std_persistent_term).
-export([main/0]).

%% persistent_term: put/get/get with default/erase, overwriting, keys of any type, large
%% values, get/0 filtered to this test's own keys, and errors (missing key: badarg).
%% persistent_term:info/0 is excluded (memory sizes).
main() ->
    K1 = {?MODULE, one},
    K2 = {?MODULE, <<"bin key">>},
    K3 = {?MODULE, [1, 2, 3]},
    t(get_missing, fun() -> persistent_term:get(K1) end),
    t(get_default_missing, fun() -> persistent_term:get(K1, default_value) end),
    t(put, fun() -> persistent_term:put(K1, 1) end),
    t(get, fun() -> persistent_term:get(K1) end),
    t(get_default_present, fun() -> persistent_term:get(K1, default_value) end),
    t(overwrite, fun() -> persistent_term:put(K1, {two, "values"}), persistent_term:get(K1) end),
    t(put_same, fun() -> persistent_term:put(K1, {two, "values"}), persistent_term:get(K1) end),
    t(put_others, fun() ->
        persistent_term:put(K2, #{a => [1, 2], b => <<"x">>}),
        persistent_term:put(K3, lists:seq(1, 1000)),
        {persistent_term:get(K2), length(persistent_term:get(K3)), lists:sum(persistent_term:get(K3))} end),
    t(get_all_mine, fun() ->
        lists:sort([{K, V} || {{M, _} = K, V} <- persistent_term:get(), M =:= ?MODULE, not is_list(V)]) end),
    t(from_other_process, fun() ->
        Self = self(),
        spawn(fun() -> Self ! {got, persistent_term:get(K1), persistent_term:get(K2, none)} end),
        receive {got, A, B} -> {A, B} after 5000 -> timeout end end),
    t(erase, fun() -> persistent_term:erase(K1) end),
    t(erase_again, fun() -> persistent_term:erase(K1) end),
    t(get_after_erase, fun() -> persistent_term:get(K1) end),
    t(get_default_after_erase, fun() -> persistent_term:get(K1, gone) end),
    t(erase_rest, fun() -> {persistent_term:erase(K2), persistent_term:erase(K3)} end),
    t(none_left, fun() -> [K || {{M, _} = K, _} <- persistent_term:get(), M =:= ?MODULE] end),
    t(atom_key, fun() -> persistent_term:put(std_persistent_term_atom_key, 42), V = persistent_term:get(std_persistent_term_atom_key), persistent_term:erase(std_persistent_term_atom_key), V end),
    t(float_vs_int_key, fun() ->
        persistent_term:put({?MODULE, 1}, int),
        R = persistent_term:get({?MODULE, 1.0}, not_found),
        persistent_term:erase({?MODULE, 1}),
        R end),
    t(get_other_missing, fun() -> persistent_term:get({?MODULE, nope}) end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
