%% M:module_info(md5) and erlang:get_module_info(M, md5) are the MD5 that beam_lib:md5/1
%% computes from the .beam file (the significant chunks, FunT's old unique numbers zeroed),
%% for this module (which has funs) and for OTP's own modules.
-module(module_md5).
-export([main/0]).

main() ->
    F = fun(X) -> X + 1 end,
    2 = F(1),
    [begin
         {ok, {M, MD5}} = beam_lib:md5(code:which(M)),
         io:format("~p ~p ~p ~p~n", [M, byte_size(MD5), MD5 =:= M:module_info(md5),
                                     MD5 =:= erlang:get_module_info(M, md5)])
     end || M <- [module_md5, lists, gen_server, erl_eval, ets, maps]],
    ok.
