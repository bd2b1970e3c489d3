%% OTP's compiler run on OTP's own sources (stdlib's, from Debian's erlang-src): the .beam it
%% writes is byte for byte the one erl's compiler writes (its MD5 and size are printed), and so
%% is the module's md5 once loaded.
-module(compile_stdlib).
-export([main/0]).

main() ->
    Src = filename:join(code:lib_dir(stdlib), "src"),
    Inc = filename:join(code:lib_dir(stdlib), "include"),
    [compile_one(Src, Inc, M) || M <- [lists, proplists, io_lib_format, erl_scan]],
    ok.

compile_one(Src, Inc, M) ->
    File = filename:join(Src, atom_to_list(M) ++ ".erl"),
    case compile:file(File, [binary, report_errors, {i, Inc}, deterministic]) of
        {ok, M, Beam} ->
            {ok, {M, Md5}} = beam_lib:md5(Beam),
            io:format("~p ~p bytes, md5 ~s, beam_lib ~s~n", [M, byte_size(Beam), hex(erlang:md5(Beam)), hex(Md5)]);
        Other ->
            io:format("~p ~p~n", [M, Other])
    end.

hex(Bin) -> [io_lib:format("~2.16.0b", [B]) || <<B>> <= Bin].
