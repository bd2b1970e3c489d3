%% code:module_md5/1 of a .beam in memory (erts_internal:beamfile_module_md5/1) and
%% system_flag(outstanding_system_requests_limit, N), as code_SUITE uses them.
-module(code_module_md5_bin).
-export([main/0]).

main() ->
    {ok, Beam} = file:read_file(code:which(?MODULE)),
    Md5 = code:module_md5(Beam),
    io:format("~p~n", [Md5 =:= ?MODULE:module_info(md5)]),
    <<_:8, Rest/binary>> = <<0, Beam/binary>>,
    io:format("~p~n", [code:module_md5(Rest) =:= Md5]),
    io:format("~p~n", [code:module_md5(<<"not a beam module">>)]),
    io:format("~p~n", [try code:module_md5(<<Beam/binary, 1:1>>) catch error:E1 -> E1 end]),
    Old = erlang:system_info(outstanding_system_requests_limit),
    io:format("~p~n", [Old]),
    io:format("~p~n", [erlang:system_flag(outstanding_system_requests_limit, 1)]),
    io:format("~p~n", [erlang:system_info(outstanding_system_requests_limit)]),
    io:format("~p~n", [try erlang:system_flag(outstanding_system_requests_limit, 0) catch error:E2 -> E2 end]),
    io:format("~p~n", [erlang:system_flag(outstanding_system_requests_limit, Old)]),
    ok.
