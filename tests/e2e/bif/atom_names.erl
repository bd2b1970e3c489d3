%% tests/e2e/bif/atom_names.erl — atoms from binaries and char lists as OTP makes them:
%% latin1 bytes converted, UTF-8 checked (overlong forms, surrogates, cut-off characters are
%% badarg), 255 characters at most (system_limit, which wins over a later bad sequence), and
%% binary_to_existing_atom/2 finding the same atom for either encoding.
-module(atom_names).
-export([main/0]).

main() ->
    Cases = [{<<255>>, latin1}, {<<"é"/utf8>>, utf8}, {<<"é"/utf8>>, unicode}, {<<>>, latin1},
             {<<>>, utf8}, {list_to_binary(lists:seq(0, 254)), latin1},
             {<< <<"é"/utf8>> || _ <- lists:seq(1, 255)>>, utf8}],
    io:format("round trips: ~p~n",
              [[begin A = binary_to_atom(B, E), A =:= binary_to_existing_atom(B, E) end || {B, E} <- Cases]]),
    io:format("latin1 = utf8: ~p~n",
              [[C || C <- lists:seq(128, 255),
                     binary_to_atom(<<C>>, latin1) =/= binary_to_existing_atom(<<C/utf8>>, utf8)]]),
    io:format("one argument: ~p~n", [binary_to_atom(<<"ö"/utf8>>) =:= list_to_atom([$ö])]),
    Bad = [{<<255>>, utf8}, {<<255, 0>>, utf8}, {<<16#C0, 16#80>>, utf8}, {<<194>>, utf8},
           {<<16#ED, 16#A0, 16#80>>, utf8}, {<<>>, blurf}, {<<>>, []}, {<<0:7>>, latin1}, {[1, 2], latin1},
           {<<0:512/unit:8, 255>>, utf8}, {<<0:256/unit:8>>, latin1}, {<<0:256/unit:8>>, utf8}],
    io:format("errors: ~p~n", [[{outcome(fun() -> binary_to_atom(B, E) end),
                                 outcome(fun() -> binary_to_existing_atom(B, E) end)} || {B, E} <- Bad]]),
    io:format("not existing: ~p~n", [outcome(fun() -> binary_to_existing_atom(<<"no such atom, surely">>, utf8) end)]),
    io:format("lists: ~p~n", [[outcome(fun() -> list_to_atom(L) end)
                               || L <- [[16#D800], [16#DFFF], [16#110000], [-1], lists:duplicate(256, $a),
                                        lists:duplicate(255, 16#10FFFF)]]]),
    ok.

outcome(F) ->
    try F() of
        A when is_atom(A) -> ok
    catch
        error:R -> R
    end.
