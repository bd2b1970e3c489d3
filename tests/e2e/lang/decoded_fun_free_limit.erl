%% binary_to_term/1 of a fun with more free variables than erts allows (255) is badarg
%% (binary_SUITE:otp_5484).
-module(decoded_fun_free_limit).
-export([main/0]).
main() ->
    [io:format("~p free: ~p~n", [N, try is_function(binary_to_term(fake_fun(0, lists:seq(1, N)))) catch error:R -> R end]) || N <- [255, 256, 257]].
fake_fun(Arity, Env0) ->
    Uniq = erlang:md5([]), Index = 0, NumFree = length(Env0), Mod = <<"decoded_fun_free_limit">>,
    <<131,Pid/binary>> = term_to_binary(self()),
    Env = << <<Bin/binary>> || <<131,Bin/binary>> <- [term_to_binary(T) || T <- Env0] >>,
    B = <<Arity,Uniq/binary,Index:32,NumFree:32, $d,(byte_size(Mod)):16,Mod/binary, $a,0:8, $b,16#123456:32, Pid/binary,Env/binary>>,
    <<131,$p,(byte_size(B)+4):32,B/binary>>.
