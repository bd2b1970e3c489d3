%% tests/e2e/lang/unloaded_fun.erl — binary_to_term of a fun whose module is not loaded gives
%% a fun all the same (OTP creates its fun entry before the code): it prints, hashes,
%% compares and encodes like the original; calling it loads the module through
%% error_handler:undefined_lambda/3 and runs the fun. A fun of a module that does not exist
%% fails with undef.
-module(unloaded_fun).
-export([main/0]).

main() ->
    B1 = term_to_binary(late_funs:adder(40)),
    B2 = term_to_binary(late_funs:greeter()),
    H1 = erlang:phash2(binary_to_term(B1)),
    unload(late_funs),
    io:format("loaded: ~p~n", [code:is_loaded(late_funs)]),
    F1 = binary_to_term(B1),
    F2 = binary_to_term(B2),
    io:format("still unloaded: ~p~n", [code:is_loaded(late_funs)]),
    io:format("is_function: ~p ~p~n", [is_function(F1, 1), is_function(F2, 0)]),
    io:format("info: ~p~n", [[erlang:fun_info(F1, I) || I <- [module, arity, env, type, name]]]),
    io:format("same hash, same encoding: ~p ~p~n", [erlang:phash2(F1) =:= H1, term_to_binary(F1) =:= B1]),
    io:format("equal to itself decoded again: ~p~n", [F1 =:= binary_to_term(B1)]),
    io:format("call: ~p~n", [F1(2)]),
    io:format("loaded by the call: ~p~n", [element(1, code:is_loaded(late_funs))]),
    io:format("other fun: ~p~n", [F2()]),
    io:format("decoded now: ~p~n", [(binary_to_term(B1))(1)]),
    %% Deleted (old code, not purged): the fun still runs, but no code is loaded for it.
    true = code:delete(late_funs),
    io:format("after delete: ~p ~p~n", [erlang:fun_info(F1, name), F1(3)]),
    code:purge(late_funs),
    Missing = <<131,112,0,0,0,66,0,215,206,77,69,249,50,170,17,129,47,21,98,
                13,196,76,242,0,0,0,1,0,0,0,0,100,0,1,116,97,1,98,2,195,126,
                58,103,100,0,13,110,111,110,111,100,101,64,110,111,104,111,
                115,116,0,0,0,112,0,0,0,0,0>>,
    F3 = binary_to_term(Missing),
    io:format("no such module: ~p~n", [try F3() catch error:undef:S -> {undef, hd(S)} end]),
    %% Four billion free variables announced, none there: refused at once.
    <<Head:27/binary, 0:32, Rest/binary>> = Missing,
    Garbage = <<Head/binary, 16#FFFFFFFF:32, Rest/binary>>,
    io:format("garbage: ~p~n", [try binary_to_term(Garbage) catch error:badarg -> badarg end]),
    ok.

unload(M) ->
    code:purge(M),
    code:delete(M),
    code:purge(M).
